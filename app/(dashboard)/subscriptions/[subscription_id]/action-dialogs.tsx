"use client";

/**
 * The subscription's actions, each behind a dialog that says what will happen and when, with the
 * choices the API takes (reference §3-§9). A refused action keeps the dialog open with the API's
 * reason and everything entered; a done action closes it with a toast.
 */
import { useEffect, useId, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { CheckboxField, SelectField, TextAreaField, TextField } from "@/components/form";
import { SummaryList, SummaryRow } from "@/components/summary-rows";
import { useToast } from "@/components/toast";
import { allowedModes } from "@/lib/billing/proration";
import { ApiClientError } from "@/lib/dashboard/api";
import { type Discount, type ProductWithPrices, useCatalogue, useDiscounts } from "@/lib/dashboard/catalogue";
import { dateInputValue, formatDate, formatDateTime, todayInputValue } from "@/lib/dashboard/display";
import { formatMoney, periodText } from "@/lib/dashboard/money";
import {
  type ChargeSubscriptionInput,
  itemName,
  itemPriceId,
  itemPriceText,
  PRORATION_MODE_LABELS,
  type ProrationBillingMode,
  type Subscription,
  type SubscriptionPreview,
  type UpdateSubscriptionInput,
  useActivateSubscription,
  useCancelSubscription,
  useChargeSubscription,
  usePauseSubscription,
  usePreview,
  useResumeSubscription,
  useUpdateSubscription,
} from "@/lib/dashboard/subscriptions";
import { startOfDayIso } from "@/lib/dashboard/transactions";

export type DialogKind =
  | "pause"
  | "resume"
  | "cancel"
  | "activate"
  | "remove_scheduled_change"
  | "items"
  | "charge"
  | "discount"
  | "remove_discount"
  | "billing_details";

/** The API's refusal as the dialog shows it: its detail, the fields it names, and the request ID. */
export function ApiErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : "Something went wrong. Try again.";
  const api = error instanceof ApiClientError ? error : null;
  return (
    <>
      <p>{message}</p>
      {api && api.errors.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {api.errors.map((entry) => (
            <li key={`${entry.field}:${entry.message}`}>
              <code className="font-mono text-xs">{entry.field}</code> {entry.message}
            </li>
          ))}
        </ul>
      )}
      {api?.requestId && (
        <p className="mt-1 text-xs">
          Error code <code className="font-mono">{api.code}</code> · Request ID{" "}
          <code className="select-all font-mono">{api.requestId}</code>
        </p>
      )}
    </>
  );
}

/** The API's message for `field`, to show beside its input (the dialog's alert lists it too). */
function fieldError(error: unknown, field: string): string | null {
  return error instanceof ApiClientError ? (error.fieldErrors()[field] ?? null) : null;
}

/** A group of radio buttons with a legend, each option with a hint. */
function Choice<T extends string>({
  legend,
  value,
  options,
  onChange,
}: {
  legend: string;
  value: T;
  options: { value: T; label: string; hint?: string }[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 space-y-2">
        {options.map((option) => (
          <div key={option.value} className="flex items-start gap-2">
            <input
              type="radio"
              id={`${id}-${option.value}`}
              name={id}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              aria-describedby={option.hint ? `${id}-${option.value}-hint` : undefined}
              className="mt-0.5 h-4 w-4 accent-brand-600"
            />
            <div>
              <label htmlFor={`${id}-${option.value}`} className="text-sm font-medium text-slate-800">
                {option.label}
              </label>
              {option.hint && (
                <p id={`${id}-${option.value}-hint`} className="text-xs text-slate-500">
                  {option.hint}
                </p>
              )}
            </div>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** What a dialog needs from the page. */
interface DialogProps {
  sub: Subscription;
  onClose: () => void;
}

/** The mutation's run, its toast, and keeping the dialog open (with its input) when refused. */
function useRun<I>(mutation: { mutateAsync: (input: I) => Promise<unknown> }, done: string, onClose: () => void) {
  const toast = useToast();
  return async (input: I) => {
    try {
      await mutation.mutateAsync(input);
      toast.show(done);
      onClose();
    } catch {
      // The dialog shows the API's reason and stays open, with what was entered.
    }
  };
}

const periodEnd = (sub: Subscription) =>
  sub.current_billing_period?.ends_at ?? sub.next_billed_at ?? sub.scheduled_change?.effective_at ?? null;

// ---------------------------------------------------------------------------------------------
// Pause

function PauseDialog({ sub, onClose }: DialogProps) {
  const pause = usePauseSubscription(sub);
  const trialing = sub.status === "trialing";
  const [when, setWhen] = useState<"next_billing_period" | "immediately">("next_billing_period");
  const [resumeOn, setResumeOn] = useState("");
  const run = useRun(pause, when === "immediately" ? "Subscription paused." : "Pause scheduled.", onClose);
  const end = periodEnd(sub);
  const effective = when === "immediately" ? "now" : end ? `on ${formatDateTime(end)}` : "at the end of the period";
  return (
    <ConfirmDialog
      open
      wide
      title="Pause this subscription?"
      tone="primary"
      confirmLabel={when === "immediately" ? "Pause now" : "Pause at period end"}
      cancelLabel="Go back"
      pending={pause.isPending}
      error={pause.error ? <ApiErrorText error={pause.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => run({ effective_from: when, ...(resumeOn ? { resume_at: startOfDayIso(resumeOn) } : {}) })}
      description={
        <p>
          The subscription pauses {effective}: no renewals are billed while it is paused, and its items become inactive.{" "}
          {resumeOn
            ? `It resumes on ${formatDate(startOfDayIso(resumeOn))}, starting a new billing period that is charged then.`
            : "It stays paused until you resume it."}
        </p>
      }
    >
      <Choice
        legend="When"
        value={when}
        onChange={setWhen}
        options={[
          {
            value: "next_billing_period",
            label: trialing ? "At the end of the trial" : "At the end of the billing period",
            hint: end ? `On ${formatDateTime(end)}; the customer keeps what they paid for until then.` : undefined,
          },
          ...(trialing
            ? []
            : [
                {
                  value: "immediately" as const,
                  label: "Now",
                  hint: "The rest of the current period is not credited.",
                },
              ]),
        ]}
      />
      <TextField
        label="Resume on (optional)"
        type="date"
        min={dateInputValue(end) || todayInputValue()}
        value={resumeOn}
        onChange={(event) => setResumeOn(event.target.value)}
        error={fieldError(pause.error, "resume_at")}
        hint="Leave empty to keep it paused until you resume it."
      />
    </ConfirmDialog>
  );
}

// ---------------------------------------------------------------------------------------------
// Resume

function ResumeDialog({ sub, onClose }: DialogProps) {
  const resume = useResumeSubscription(sub);
  // An active subscription with a scheduled pause takes a date only: when the pause ends.
  const pausing = sub.status !== "paused";
  const [when, setWhen] = useState<"immediately" | "date">(pausing ? "date" : "immediately");
  const [date, setDate] = useState(dateInputValue(sub.scheduled_change?.resume_at ?? null));
  const run = useRun(resume, when === "immediately" ? "Subscription resumed." : "Resume date set.", onClose);
  const dated = when === "date";
  return (
    <ConfirmDialog
      open
      wide
      title={pausing ? "Set when the pause ends?" : "Resume this subscription?"}
      tone="primary"
      confirmLabel={dated ? "Set resume date" : "Resume now"}
      cancelLabel="Go back"
      confirmDisabled={dated && !date}
      pending={resume.isPending}
      error={resume.error ? <ApiErrorText error={resume.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => run({ effective_from: dated ? startOfDayIso(date) : "immediately" })}
      description={
        <p>
          {dated
            ? date
              ? `The subscription resumes on ${formatDate(startOfDayIso(date))}: a new billing period starts that day and is charged then${sub.collection_mode === "automatic" ? " to the saved payment method" : " by invoice"}.`
              : "Choose the day it resumes."
            : `The subscription resumes now: a new billing period starts today and is charged now${sub.collection_mode === "automatic" ? " to the saved payment method" : " by invoice"}.`}
        </p>
      }
    >
      {!pausing && (
        <Choice
          legend="When"
          value={when}
          onChange={setWhen}
          options={[
            { value: "immediately", label: "Now" },
            { value: "date", label: "On a date" },
          ]}
        />
      )}
      {dated && (
        <TextField
          label="Resume on"
          type="date"
          required
          min={todayInputValue()}
          value={date}
          error={fieldError(resume.error, "effective_from")}
          onChange={(event) => setDate(event.target.value)}
        />
      )}
    </ConfirmDialog>
  );
}

// ---------------------------------------------------------------------------------------------
// Cancel

function CancelDialog({ sub, onClose }: DialogProps) {
  const cancel = useCancelSubscription(sub);
  const running = sub.status === "active" || sub.status === "trialing";
  const [when, setWhen] = useState<"next_billing_period" | "immediately">(
    running ? "next_billing_period" : "immediately",
  );
  const run = useRun(cancel, when === "immediately" ? "Subscription canceled." : "Cancellation scheduled.", onClose);
  const end = periodEnd(sub);
  return (
    <ConfirmDialog
      open
      wide
      title="Cancel this subscription?"
      confirmLabel={when === "immediately" ? "Cancel now" : "Cancel at period end"}
      cancelLabel="Keep subscription"
      pending={cancel.isPending}
      error={cancel.error ? <ApiErrorText error={cancel.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => run({ effective_from: when })}
      description={
        <p>
          {when === "immediately"
            ? "The subscription is canceled now: nothing more is billed, and the rest of the current period is not credited. Canceling is final: to sell again, the customer subscribes anew."
            : `The subscription runs until ${end ? formatDateTime(end) : "the end of its billing period"} and is canceled then, without renewing. Until then you can take the cancellation back (Remove on the banner).`}
        </p>
      }
    >
      <Choice
        legend="When"
        value={when}
        onChange={setWhen}
        options={[
          ...(running
            ? [
                {
                  value: "next_billing_period" as const,
                  label: "At the end of the billing period",
                  hint: end ? `On ${formatDateTime(end)}` : undefined,
                },
              ]
            : []),
          { value: "immediately", label: "Now" },
        ]}
      />
    </ConfirmDialog>
  );
}

// ---------------------------------------------------------------------------------------------
// Activate, remove the scheduled change, remove the discount: confirmations without choices

function ActivateDialog({ sub, onClose }: DialogProps) {
  const activate = useActivateSubscription(sub);
  const run = useRun(activate, "Trial ended: subscription activated.", onClose);
  const next = sub.next_transaction;
  return (
    <ConfirmDialog
      open
      title="End the trial and activate now?"
      tone="primary"
      confirmLabel="Activate now"
      cancelLabel="Go back"
      pending={activate.isPending}
      error={activate.error ? <ApiErrorText error={activate.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => run(undefined)}
      description={
        <p>
          The trial ends now. The first billing period starts today and is charged now to the saved payment method
          {next ? ` (${formatMoney(next.details.totals.grand_total, sub.currency_code)})` : ""}; later renewals follow
          every {periodText(sub.billing_cycle)} from today.
        </p>
      }
    />
  );
}

const CHANGE_NAMES = { cancel: "cancellation", pause: "pause", resume: "resume" } as const;

function RemoveScheduledChangeDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const change = sub.scheduled_change;
  const run = useRun(update, "Scheduled change removed.", onClose);
  if (!change) return null;
  return (
    <ConfirmDialog
      open
      title={`Remove the scheduled ${CHANGE_NAMES[change.action]}?`}
      tone="primary"
      confirmLabel={`Remove scheduled ${CHANGE_NAMES[change.action]}`}
      cancelLabel="Go back"
      pending={update.isPending}
      error={update.error ? <ApiErrorText error={update.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => run({ scheduled_change: null })}
      description={
        <p>
          {change.action === "resume"
            ? `The subscription no longer resumes on ${formatDateTime(change.effective_at)}: it stays paused until you resume it.`
            : `The subscription no longer ${change.action === "cancel" ? "cancels" : "pauses"} on ${formatDateTime(change.effective_at)}: it keeps renewing as before.`}
        </p>
      }
    />
  );
}

function RemoveDiscountDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const run = useRun(update, "Discount removed.", onClose);
  return (
    <ConfirmDialog
      open
      title="Remove the discount?"
      confirmLabel="Remove discount"
      cancelLabel="Go back"
      pending={update.isPending}
      error={update.error ? <ApiErrorText error={update.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => run({ discount: null })}
      description={<p>From the next renewal on, the subscription is billed without the discount.</p>}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Previews

/** Debounces a value (the preview is asked for once typing pauses). */
function useDebounced<T>(value: T, delay = 400): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return current;
}

/** The preview's `update_summary` and the transactions it would make: what confirming does. */
function PreviewSummary({
  query,
  currency,
}: {
  query: { data?: SubscriptionPreview; error: unknown; isFetching: boolean };
  currency: string;
}) {
  const preview = query.data;
  return (
    <section aria-label="Preview" aria-busy={query.isFetching || undefined} className="rounded-md bg-slate-50 p-3">
      <h3 className="text-sm font-semibold text-slate-900">What happens</h3>
      {query.error ? (
        <div role="alert" className="mt-2 text-sm text-red-800">
          <ApiErrorText error={query.error} />
        </div>
      ) : !preview ? (
        <p role="status" className="mt-2 text-sm text-slate-600">
          {query.isFetching ? "Calculating…" : "Make a change to see what it costs."}
        </p>
      ) : (
        <SummaryList className="mt-2">
          <SummaryRow term="Charge">{formatMoney(preview.update_summary.charge.amount, currency)}</SummaryRow>
          <SummaryRow term="Credit">{formatMoney(preview.update_summary.credit.amount, currency)}</SummaryRow>
          <SummaryRow
            term={preview.update_summary.result.action === "credit" ? "Result: credit" : "Result: charge"}
            strong
          >
            {formatMoney(preview.update_summary.result.amount, currency)}
          </SummaryRow>
          <SummaryRow term="Billed now">
            {preview.immediate_transaction
              ? formatMoney(preview.immediate_transaction.details.totals.grand_total, currency)
              : "Nothing"}
          </SummaryRow>
          <SummaryRow term="Next payment">
            {preview.next_transaction
              ? `${formatMoney(preview.next_transaction.details.totals.grand_total, currency)} on ${formatDate(preview.next_transaction.billing_period.starts_at)}`
              : "None"}
          </SummaryRow>
        </SummaryList>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Change items

interface ItemRow {
  price_id: string;
  label: string;
  quantity: string;
  remove: boolean;
  isNew: boolean;
}

function quantityOf(text: string): number | null {
  return /^\d{1,9}$/.test(text) && Number(text) >= 1 ? Number(text) : null;
}

/** The recurring prices (of the subscription's billing cycle and currency) that can be added. */
function recurringPrices(products: ProductWithPrices[], sub: Subscription) {
  const out: { id: string; label: string }[] = [];
  for (const product of products) {
    for (const price of product.prices ?? []) {
      const cycle = price.billing_cycle;
      if (!cycle || price.status !== "active") continue;
      if (cycle.interval !== sub.billing_cycle.interval || cycle.frequency !== sub.billing_cycle.frequency) continue;
      if (price.unit_price.currency_code !== sub.currency_code) continue;
      out.push({
        id: price.id,
        label: `${product.name} · ${price.description} · ${formatMoney(price.unit_price.amount, price.unit_price.currency_code)}`,
      });
    }
  }
  return out;
}

function oneTimePrices(products: ProductWithPrices[], currency: string) {
  const out: { id: string; label: string }[] = [];
  for (const product of products) {
    for (const price of product.prices ?? []) {
      if (price.billing_cycle || price.status !== "active" || price.unit_price.currency_code !== currency) continue;
      out.push({
        id: price.id,
        label: `${product.name} · ${price.description} · ${formatMoney(price.unit_price.amount, price.unit_price.currency_code)}`,
      });
    }
  }
  return out;
}

function ItemsDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const catalogue = useCatalogue("active");
  const products = (catalogue.data?.pages ?? []).flatMap((page) => page.data);
  const trialing = sub.status === "trialing";
  const modes = allowedModes({
    itemsChanged: true,
    cycleChanged: false,
    nextBilledAtChanged: false,
    trialing,
    paused: sub.status === "paused",
  });
  const [rows, setRows] = useState<ItemRow[]>(() =>
    sub.items.map((item) => ({
      price_id: itemPriceId(item),
      label: `${itemName(item)} · ${itemPriceText(item)}`,
      quantity: String(item.quantity),
      remove: false,
      isNew: false,
    })),
  );
  const [mode, setMode] = useState<ProrationBillingMode>(modes[0]);
  const [adding, setAdding] = useState("");
  const run = useRun(update, "Items changed.", onClose);

  const kept = rows.filter((row) => !row.remove);
  const valid = kept.length > 0 && kept.every((row) => quantityOf(row.quantity) !== null);
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
  const debounced = useDebounced(body);
  const preview = usePreview("update", sub.id, debounced);
  const current = body !== null && JSON.stringify(body) === JSON.stringify(debounced);
  const available = recurringPrices(products, sub).filter((price) => !rows.some((row) => row.price_id === price.id));

  const setRow = (index: number, change: Partial<ItemRow>) =>
    setRows((list) => list.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <ConfirmDialog
      open
      wide
      title="Change items"
      tone="primary"
      confirmLabel="Apply change"
      cancelLabel="Go back"
      confirmDisabled={!body || !current || !preview.data || preview.isFetching}
      pending={update.isPending}
      error={update.error ? <ApiErrorText error={update.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => body && run(body)}
      description={
        <p>
          Set the quantities (or remove or add items) and how the change is billed; the preview below shows what it
          costs before you confirm. The change applies now.
        </p>
      }
    >
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
                        ? setRows((list) => list.filter((_, i) => i !== index))
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
      {!trialing && (
        <div className="flex flex-wrap items-end gap-2">
          <SelectField
            label="Add an item"
            className="min-w-0 flex-1"
            value={adding}
            onChange={(event) => setAdding(event.target.value)}
            hint={`Active ${periodText(sub.billing_cycle)}ly prices in ${sub.currency_code} (items share one billing cycle).`}
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
              setRows((list) => [
                ...list,
                { price_id: price.id, label: price.label, quantity: "1", remove: false, isNew: true },
              ]);
              setAdding("");
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
      <PreviewSummary
        query={current ? preview : { error: null, isFetching: body !== null }}
        currency={sub.currency_code}
      />
    </ConfirmDialog>
  );
}

// ---------------------------------------------------------------------------------------------
// One-time charge

function ChargeDialog({ sub, onClose }: DialogProps) {
  const charge = useChargeSubscription(sub);
  const catalogue = useCatalogue("active");
  const products = (catalogue.data?.pages ?? []).flatMap((page) => page.data);
  const prices = oneTimePrices(products, sub.currency_code);
  const [priceId, setPriceId] = useState("");
  const [quantity, setQuantity] = useState("1");
  const [when, setWhen] = useState<"immediately" | "next_billing_period">("immediately");
  const run = useRun(
    charge,
    when === "immediately" ? "One-time charge billed." : "One-time charge added to the next renewal.",
    onClose,
  );
  const qty = quantityOf(quantity);
  const body: ChargeSubscriptionInput | null =
    priceId && qty !== null ? { effective_from: when, items: [{ price_id: priceId, quantity: qty }] } : null;
  const debounced = useDebounced(body);
  const preview = usePreview("charge", sub.id, debounced);
  const current = body !== null && JSON.stringify(body) === JSON.stringify(debounced);
  return (
    <ConfirmDialog
      open
      wide
      title="Add a one-time charge"
      tone="primary"
      confirmLabel={when === "immediately" ? "Charge now" : "Add to next renewal"}
      cancelLabel="Go back"
      confirmDisabled={!body || !current || !preview.data || preview.isFetching}
      pending={charge.isPending}
      error={charge.error ? <ApiErrorText error={charge.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => body && run(body)}
      description={
        <p>
          {when === "immediately"
            ? `A new transaction bills the charge now${sub.collection_mode === "automatic" ? ", collected from the saved payment method" : ""}.`
            : `The charge is added to the next renewal${sub.next_billed_at ? ` on ${formatDate(sub.next_billed_at)}` : ""}.`}{" "}
          One-time charges are never prorated.
        </p>
      }
    >
      <SelectField
        label="Price"
        required
        value={priceId}
        onChange={(event) => setPriceId(event.target.value)}
        hint={`One-time prices in ${sub.currency_code}.`}
      >
        <option value="">{catalogue.isLoading ? "Loading prices…" : "Choose a price"}</option>
        {prices.map((price) => (
          <option key={price.id} value={price.id}>
            {price.label}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Quantity"
        type="number"
        min={1}
        required
        value={quantity}
        error={quantity !== "" && qty === null ? "Enter a whole number of at least 1." : null}
        onChange={(event) => setQuantity(event.target.value)}
      />
      <Choice
        legend="When"
        value={when}
        onChange={setWhen}
        options={[
          { value: "immediately", label: "Now" },
          { value: "next_billing_period", label: "With the next renewal" },
        ]}
      />
      <PreviewSummary
        query={current ? preview : { error: null, isFetching: body !== null }}
        currency={sub.currency_code}
      />
    </ConfirmDialog>
  );
}

// ---------------------------------------------------------------------------------------------
// Discount

function discountLabel(discount: Discount): string {
  const amount =
    discount.type === "percentage" ? `${discount.amount}%` : formatMoney(discount.amount, discount.currency_code ?? "");
  return `${discount.description} (${amount}${discount.code ? ` · ${discount.code}` : ""})`;
}

function DiscountDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const discounts = useDiscounts({ status: "active", per_page: 200 });
  const [id, setId] = useState("");
  const [when, setWhen] = useState<"next_billing_period" | "immediately">("next_billing_period");
  const run = useRun(update, "Discount applied.", onClose);
  const options = (discounts.data?.data ?? []).filter(
    (d) => d.type === "percentage" || d.currency_code === sub.currency_code,
  );
  return (
    <ConfirmDialog
      open
      wide
      title={sub.discount ? "Replace the discount" : "Apply a discount"}
      tone="primary"
      confirmLabel="Apply discount"
      cancelLabel="Go back"
      confirmDisabled={!id}
      pending={update.isPending}
      error={update.error ? <ApiErrorText error={update.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => run({ discount: { id, effective_from: when } })}
      description={
        <p>
          {when === "immediately"
            ? "The discount applies from the current billing period: nothing is billed now; the next renewal is discounted."
            : `The discount applies from the next renewal${sub.next_billed_at ? ` on ${formatDate(sub.next_billed_at)}` : ""}.`}
          {sub.discount ? " It replaces the current discount." : ""}
        </p>
      }
    >
      <SelectField label="Discount" required value={id} onChange={(event) => setId(event.target.value)}>
        <option value="">{discounts.isLoading ? "Loading discounts…" : "Choose a discount"}</option>
        {options.map((d) => (
          <option key={d.id} value={d.id}>
            {discountLabel(d)}
          </option>
        ))}
      </SelectField>
      <Choice
        legend="From"
        value={when}
        onChange={setWhen}
        options={[
          { value: "next_billing_period", label: "The next billing period" },
          { value: "immediately", label: "The current billing period" },
        ]}
      />
    </ConfirmDialog>
  );
}

// ---------------------------------------------------------------------------------------------
// Billing details (manual collection)

const TERM_INTERVALS = ["day", "week", "month", "year"] as const;

function BillingDetailsDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const details = sub.billing_details;
  const [po, setPo] = useState(details?.purchase_order_number ?? "");
  const [info, setInfo] = useState(details?.additional_information ?? "");
  const [checkout, setCheckout] = useState(details?.enable_checkout ?? false);
  const [interval, setInterval] = useState<string>(details?.payment_terms.interval ?? "day");
  const [frequency, setFrequency] = useState(String(details?.payment_terms.frequency ?? 30));
  const run = useRun(update, "Billing details saved.", onClose);
  const freq = quantityOf(frequency);
  const fields = update.error instanceof ApiClientError ? update.error.fieldErrors() : {};
  return (
    <ConfirmDialog
      open
      wide
      title="Edit billing details"
      tone="primary"
      confirmLabel="Save billing details"
      cancelLabel="Go back"
      confirmDisabled={freq === null}
      pending={update.isPending}
      error={update.error ? <ApiErrorText error={update.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() =>
        run({
          billing_details: {
            enable_checkout: checkout,
            purchase_order_number: po.trim() || null,
            additional_information: info.trim() || null,
            payment_terms: { interval: interval as (typeof TERM_INTERVALS)[number], frequency: freq as number },
          },
        } as UpdateSubscriptionInput)
      }
      description={<p>The next invoices of this subscription use these details. Nothing is billed now.</p>}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Payment terms: due in"
          type="number"
          min={1}
          value={frequency}
          error={fields["billing_details.payment_terms.frequency"] ?? (freq === null ? "Enter a whole number." : null)}
          onChange={(event) => setFrequency(event.target.value)}
        />
        <SelectField label="Unit" value={interval} onChange={(event) => setInterval(event.target.value)}>
          {TERM_INTERVALS.map((unit) => (
            <option key={unit} value={unit}>
              {unit}s
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        label="Purchase order number"
        value={po}
        maxLength={100}
        error={fields["billing_details.purchase_order_number"]}
        onChange={(event) => setPo(event.target.value)}
      />
      <TextAreaField
        label="Additional information"
        mono={false}
        rows={3}
        value={info}
        error={fields["billing_details.additional_information"]}
        onChange={(event) => setInfo(event.target.value)}
      />
      <CheckboxField
        label="Let the customer pay invoices by card at the checkout"
        checked={checkout}
        onChange={(event) => setCheckout(event.target.checked)}
      />
    </ConfirmDialog>
  );
}

/** The open dialog, or nothing. */
export function ActionDialog({
  kind,
  sub,
  onClose,
}: {
  kind: DialogKind | null;
  sub: Subscription;
  onClose: () => void;
}) {
  switch (kind) {
    case "pause":
      return <PauseDialog sub={sub} onClose={onClose} />;
    case "resume":
      return <ResumeDialog sub={sub} onClose={onClose} />;
    case "cancel":
      return <CancelDialog sub={sub} onClose={onClose} />;
    case "activate":
      return <ActivateDialog sub={sub} onClose={onClose} />;
    case "remove_scheduled_change":
      return <RemoveScheduledChangeDialog sub={sub} onClose={onClose} />;
    case "items":
      return <ItemsDialog sub={sub} onClose={onClose} />;
    case "charge":
      return <ChargeDialog sub={sub} onClose={onClose} />;
    case "discount":
      return <DiscountDialog sub={sub} onClose={onClose} />;
    case "remove_discount":
      return <RemoveDiscountDialog sub={sub} onClose={onClose} />;
    case "billing_details":
      return <BillingDetailsDialog sub={sub} onClose={onClose} />;
    default:
      return null;
  }
}
