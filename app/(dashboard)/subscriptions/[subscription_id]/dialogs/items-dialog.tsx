"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { SelectField } from "@/components/form";
import { allowedModes } from "@/lib/billing/proration";
import { useCatalogue } from "@/lib/dashboard/catalogue";
import {
  itemName,
  itemPriceId,
  itemPriceText,
  PRORATION_MODE_LABELS,
  type ProrationBillingMode,
  type UpdateSubscriptionInput,
  useUpdateSubscription,
} from "@/lib/dashboard/subscriptions";
import { type DialogProps, quantityOf, useActionForm } from "./dialog-kit";
import {
  type Cycle,
  cycleAdverb,
  cycleKey,
  cycleSwitches,
  type ItemRow,
  recurringPrices,
  sameCycle,
} from "./offered-prices";
import { PreviewSummary, useLivePreview } from "./preview-summary";

export function ItemsDialog({ sub, onClose, card }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const catalogue = useCatalogue("active");
  const products = (catalogue.data?.pages ?? []).flatMap((page) => page.data);
  const trialing = sub.status === "trialing";
  const original = (): ItemRow[] =>
    sub.items.map((item) => ({
      price_id: itemPriceId(item),
      product_id: String((item.product as { id?: unknown }).id ?? ""),
      label: `${itemName(item)} · ${itemPriceText(item)}`,
      quantity: String(item.quantity),
      remove: false,
      isNew: false,
      cycle: (item.price.billing_cycle as Cycle | null) ?? sub.billing_cycle,
    }));
  const form = useActionForm(
    () => ({ rows: original(), chosenMode: null as ProrationBillingMode | null, adding: "" }),
    onClose,
  );
  const { rows, chosenMode, adding } = form.values;
  const setRows = (next: ItemRow[]) => form.set("rows", next);
  const setMode = (next: ProrationBillingMode | null) => form.set("chosenMode", next);

  const kept = rows.filter((row) => !row.remove);
  const cycles = new Set(kept.map((row) => cycleKey(row.cycle)));
  const mixed = cycles.size > 1;
  const firstCycle = kept[0]?.cycle;
  const newCycle = !mixed && firstCycle && !sameCycle(firstCycle, sub.billing_cycle) ? firstCycle : null;
  const modes = allowedModes({
    itemsChanged: true,
    cycleChanged: newCycle !== null,
    nextBilledAtChanged: false,
    trialing,
    paused: sub.status === "paused",
  });
  // do_not_bill: every change allows it, so `modes` is never empty.
  const mode = chosenMode && modes.includes(chosenMode) ? chosenMode : (modes[0] ?? "do_not_bill");
  const valid = kept.length > 0 && !mixed && kept.every((row) => quantityOf(row.quantity) !== null);
  const changed = rows.some(
    (row, index) => row.remove || row.isNew || row.quantity !== String(sub.items[index]?.quantity ?? ""),
  );
  const body: UpdateSubscriptionInput | null =
    valid && changed
      ? {
          items: kept.map((row) => ({ price_id: row.price_id, quantity: quantityOf(row.quantity) as number })),
          proration_billing_mode: mode,
        }
      : null;
  const preview = useLivePreview("update", sub.id, body);
  const prices = recurringPrices(products, sub);
  const available = prices.filter((price) => !rows.some((row) => row.price_id === price.id));
  const switches = trialing ? [] : cycleSwitches(rows, prices);

  const setRow = (index: number, change: Partial<ItemRow>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <ConfirmDialog
      open
      wide
      title="Change items"
      tone="primary"
      confirmLabel={newCycle ? `Switch to ${cycleAdverb(newCycle)}` : "Apply change"}
      cancelLabel="Go back"
      confirmDisabled={!body || !preview.ready}
      {...form.dialog}
      onConfirm={() => form.submit({ body, send: update.mutateAsync, done: "Items changed." })}
      description={
        <p>
          Set the quantities, remove or add items, or switch the billing cycle, and how the change is billed; the
          preview below shows what it costs before you confirm. The change applies now.
          {newCycle
            ? ` Switching to ${cycleAdverb(newCycle)} starts a new billing period today${mode === "prorated_immediately" ? ", charged now less the unused rest of the current period" : ""}.`
            : ""}
        </p>
      }
    >
      {switches.length > 0 && (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-slate-700">Billing cycle: {cycleAdverb(sub.billing_cycle)}.</span>
          {switches.map((option) => (
            <button
              key={cycleKey(option.cycle)}
              type="button"
              onClick={() => {
                // Back to the subscription's own cycle: its items as they are.
                if (sameCycle(option.cycle, sub.billing_cycle)) setRows(original());
                else {
                  setRows([
                    ...rows.filter((row) => !row.isNew).map((row) => ({ ...row, remove: true })),
                    ...option.rows,
                  ]);
                }
                setMode(null);
              }}
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Switch to {cycleAdverb(option.cycle)}
            </button>
          ))}
          {rows.some((row) => row.isNew) && (
            <button
              type="button"
              onClick={() => setRows(original())}
              className="rounded-md px-2 py-1.5 text-sm font-medium text-brand-700 hover:underline"
            >
              Undo changes
            </button>
          )}
        </div>
      )}
      <table className="w-full text-sm">
        <caption className="sr-only">Items after the change</caption>
        <thead>
          <tr className="text-left text-xs text-slate-500 uppercase">
            <th scope="col" className="py-1 font-semibold">
              Item
            </th>
            <th scope="col" className="w-28 py-1 font-semibold">
              Quantity
            </th>
            {!trialing && (
              <th scope="col" className="w-20 py-1 font-semibold">
                Remove
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.price_id} className={row.remove ? "text-slate-500 line-through" : ""}>
              <td className="py-1 pr-2">{row.label}</td>
              <td className="py-1 pr-2">
                <input
                  type="number"
                  min={1}
                  inputMode="numeric"
                  aria-label={`Quantity of ${row.label}`}
                  aria-invalid={!row.remove && quantityOf(row.quantity) === null ? true : undefined}
                  disabled={row.remove}
                  value={row.quantity}
                  onChange={(event) => setRow(index, { quantity: event.target.value })}
                  className="w-24 rounded-md border border-slate-300 px-2 py-1 aria-[invalid=true]:border-red-500"
                />
              </td>
              {!trialing && (
                <td className="py-1">
                  <input
                    type="checkbox"
                    aria-label={`Remove ${row.label}`}
                    checked={row.remove}
                    onChange={(event) =>
                      row.isNew
                        ? setRows(rows.filter((_, i) => i !== index))
                        : setRow(index, { remove: event.target.checked })
                    }
                    className="h-4 w-4 accent-brand-600"
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {kept.length === 0 && (
        <p className="text-sm text-red-700">A subscription needs at least one item: to stop it, cancel it.</p>
      )}
      {mixed && (
        <p role="alert" className="text-sm text-red-700">
          A subscription's items share one billing cycle: remove the items of the other cycle (or use Switch).
        </p>
      )}
      {!trialing && (
        <div className="flex flex-wrap items-end gap-2">
          <SelectField
            label="Add an item"
            className="min-w-0 flex-1"
            value={adding}
            onChange={(event) => form.set("adding", event.target.value)}
            hint={`Active recurring prices in ${sub.currency_code}. Items share one billing cycle: adding one of another cycle switches the subscription to it once the others are removed.`}
          >
            <option value="">{catalogue.isLoading ? "Loading prices…" : "Choose a price"}</option>
            {available.map((price) => (
              <option key={price.id} value={price.id}>
                {price.label}
              </option>
            ))}
          </SelectField>
          <button
            type="button"
            disabled={!adding}
            onClick={() => {
              const price = available.find((p) => p.id === adding);
              if (!price) return;
              setRows([
                ...rows,
                {
                  price_id: price.id,
                  product_id: price.product_id,
                  label: price.label,
                  quantity: "1",
                  remove: false,
                  isNew: true,
                  cycle: price.cycle,
                },
              ]);
              form.set("adding", "");
            }}
            className="mb-5 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 disabled:opacity-60"
          >
            Add
          </button>
        </div>
      )}
      <SelectField
        label="Proration"
        value={mode}
        onChange={(event) => setMode(event.target.value as ProrationBillingMode)}
        hint={PRORATION_MODE_LABELS[mode].hint}
      >
        {modes.map((m) => (
          <option key={m} value={m}>
            {PRORATION_MODE_LABELS[m].label}
          </option>
        ))}
      </SelectField>
      <PreviewSummary query={preview.query} sub={sub} card={card} />
    </ConfirmDialog>
  );
}
