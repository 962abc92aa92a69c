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
import { billingCycleText, formatMoney, periodText } from "@/lib/dashboard/money";
import {
  type ChargeSubscriptionInput,
  itemName,
  itemPriceId,
  itemPriceText,
  PRORATION_MODE_LABELS,
  type ProrationBillingMode,
  type ResumeSubscriptionInput,
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
  /** The saved card renewals are charged to ("Visa •••• 4242"), when known. */
  card?: string | null;
}

/** Where a charge now goes: the saved card, or an invoice for manual collection. */
function chargedTo(sub: Subscription, card: string | null | undefined): string {
  if (sub.collection_mode === "manual") return "invoiced to the customer";
  return card ? `charged to ${card}` : "charged to the saved payment method";
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
                  hint: "The unused rest of the current period is credited against the charge when it resumes with a new period (not if it is canceled while paused).",
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

function ResumeDialog({ sub, onClose, card }: DialogProps) {
  const resume = useResumeSubscription(sub);
  // An active subscription with a scheduled pause takes a date only: when the pause ends.
  const pausing = sub.status !== "paused";
  const [when, setWhen] = useState<"immediately" | "date">(pausing ? "date" : "immediately");
  const [how, setHow] = useState<"start_new_billing_period" | "continue_existing_billing_period">(
    "start_new_billing_period",
  );
  const [date, setDate] = useState(dateInputValue(sub.scheduled_change?.resume_at ?? null));
  const run = useRun(resume, when === "immediately" ? "Subscription resumed." : "Resume date set.", onClose);
  const dated = when === "date";
  const body: ResumeSubscriptionInput | null =
    dated && !date
      ? null
      : { effective_from: dated ? startOfDayIso(date) : "immediately", ...(pausing ? {} : { on_resume: how }) };
  const debounced = useDebounced(body, 150);
  const preview = usePreview("resume", sub.id, debounced);
  const current = body !== null && JSON.stringify(body) === JSON.stringify(debounced);
  const continues = how === "continue_existing_billing_period";
  return (
    <ConfirmDialog
      open
      wide
      title={pausing ? "Set when the pause ends?" : "Resume this subscription?"}
      tone="primary"
      confirmLabel={dated ? "Set resume date" : "Resume now"}
      cancelLabel="Go back"
      confirmDisabled={!body || !current || !preview.data || preview.isFetching}
      pending={resume.isPending}
      error={resume.error ? <ApiErrorText error={resume.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => body && run(body)}
      description={
        <p>
          {pausing
            ? date
              ? `The pause that starts on ${formatDate(sub.scheduled_change?.effective_at ?? null)} ends on ${formatDate(startOfDayIso(date))}.`
              : "Choose the day the pause ends."
            : continues
              ? `The subscription resumes ${dated ? (date ? `on ${formatDate(startOfDayIso(date))}` : "on the day you choose") : "now"} and continues the billing period it was paused in: nothing is charged then, and it renews when that period ends. The days it was paused are not given back.`
              : `The subscription resumes ${dated ? (date ? `on ${formatDate(startOfDayIso(date))}` : "on the day you choose") : "now"}: a new billing period starts then and is ${chargedTo(sub, card)}, less the credit for the part of the paused period that was paid for and not used.`}
        </p>
      }
    >
      {!pausing && (
        <>
          <Choice
            legend="When"
            value={when}
            onChange={setWhen}
            options={[
              { value: "immediately", label: "Now" },
              { value: "date", label: "On a date" },
            ]}
          />
          <Choice
            legend="Billing"
            value={how}
            onChange={setHow}
            options={[
              {
                value: "start_new_billing_period",
                label: "Start a new billing period",
                hint: "Charged when it resumes, less the unused rest of the period it was paused in.",
              },
              {
                value: "continue_existing_billing_period",
                label: "Continue the paused billing period",
                hint: "Nothing charged when it resumes; only while that period has not ended.",
              },
            ]}
          />
        </>
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
      <PreviewSummary
        query={current ? preview : { error: null, isFetching: body !== null }}
        sub={sub}
        card={card}
        idle={dated ? "Choose the day to see what it charges." : undefined}
      />
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

function ActivateDialog({ sub, onClose, card }: DialogProps) {
  const activate = useActivateSubscription(sub);
  const run = useRun(activate, "Trial ended: subscription activated.", onClose);
  const preview = usePreview("activate", sub.id, {});
  return (
    <ConfirmDialog
      open
      wide
      title="End the trial and activate now?"
      tone="primary"
      confirmLabel="Activate now"
      cancelLabel="Go back"
      confirmDisabled={!preview.data || preview.isFetching}
      pending={activate.isPending}
      error={activate.error ? <ApiErrorText error={activate.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => run(undefined)}
      description={
        <p>
          The trial ends now. The first billing period starts today and is {chargedTo(sub, card)} now; later renewals
          follow every {periodText(sub.billing_cycle)} from today. If the card is declined, nothing changes and the
          trial runs on.
        </p>
      }
    >
      <PreviewSummary query={preview} sub={sub} card={card} />
    </ConfirmDialog>
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

/**
 * What confirming does, from the API's preview of the same request: what is charged now (amount,
 * date and card), then the next payment, and the change's charge and credit. The dialog's confirm
 * button waits for it, so the amount shown is the one charged.
 */
function PreviewSummary({
  query,
  sub,
  card,
  idle = "Make a change to see what it costs.",
}: {
  query: { data?: SubscriptionPreview; error: unknown; isFetching: boolean };
  sub: Subscription;
  card?: string | null;
  idle?: string;
}) {
  const preview = query.data;
  const currency = sub.currency_code;
  const now = preview?.immediate_transaction ?? null;
  const summary = preview?.update_summary;
  const credited = summary && summary.credit.amount !== "0";
  return (
    <section aria-label="Preview" aria-busy={query.isFetching || undefined} className="rounded-md bg-slate-50 p-3">
      <h3 className="text-sm font-semibold text-slate-900">What happens</h3>
      {query.error ? (
        <div role="alert" className="mt-2 text-sm text-red-800">
          <ApiErrorText error={query.error} />
        </div>
      ) : !preview ? (
        <p role="status" className="mt-2 text-sm text-slate-600">
          {query.isFetching ? "Calculating…" : idle}
        </p>
      ) : (
        <SummaryList className="mt-2">
          <SummaryRow term="Charged now" strong>
            <span data-testid="charged-now">
              {now ? formatMoney(now.details.totals.grand_total, currency) : formatMoney("0", currency)}
            </span>
            <span className="block text-xs font-normal text-slate-600">
              {now
                ? BigInt(now.details.totals.grand_total) > 0n
                  ? `${formatDateTime(now.billing_period.starts_at)}, ${chargedTo(sub, card)}`
                  : `${formatDateTime(now.billing_period.starts_at)}: nothing to pay${BigInt(now.details.totals.credit_to_balance ?? "0") > 0n ? `; ${formatMoney(now.details.totals.credit_to_balance, currency)} to the customer's credit balance` : ""}`
                : "Nothing is charged now"}
            </span>
          </SummaryRow>
          {summary && credited && (
            <SummaryRow term="Of which">
              {formatMoney(summary.charge.amount, currency)} charged
              {credited ? `, ${formatMoney(summary.credit.amount.replace(/^-/, ""), currency)} credited` : ""}
            </SummaryRow>
          )}
          <SummaryRow term="Next payment">
            <span data-testid="next-payment">
              {preview.next_transaction
                ? `${formatMoney(preview.next_transaction.details.totals.grand_total, currency)} on ${formatDate(preview.next_transaction.billing_period.starts_at)}`
                : "None"}
            </span>
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
  product_id: string;
  label: string;
  quantity: string;
  remove: boolean;
  isNew: boolean;
  cycle: Cycle;
}

type Cycle = { interval: string; frequency: number };

const sameCycle = (a: Cycle, b: Cycle) => a.interval === b.interval && a.frequency === b.frequency;
const cycleKey = (c: Cycle) => `${c.frequency}-${c.interval}`;

/** "monthly", "yearly", "every 3 months": a cycle as an adverb, for "Switch to yearly". */
export function cycleAdverb(c: Cycle): string {
  if (c.frequency === 1)
    return { day: "daily", week: "weekly", month: "monthly", year: "yearly" }[c.interval] ?? c.interval;
  return `every ${periodText(c as Parameters<typeof periodText>[0])}`;
}

function quantityOf(text: string): number | null {
  return /^\d{1,9}$/.test(text) && Number(text) >= 1 ? Number(text) : null;
}

interface RecurringPrice {
  id: string;
  product_id: string;
  label: string;
  cycle: Cycle;
}

/**
 * The active recurring prices in the subscription's currency, of every billing cycle (item 7:
 * monthly ↔ yearly), the subscription's own cycle first.
 */
function recurringPrices(products: ProductWithPrices[], sub: Subscription): RecurringPrice[] {
  const out: RecurringPrice[] = [];
  for (const product of products) {
    for (const price of product.prices ?? []) {
      const cycle = price.billing_cycle;
      if (!cycle || price.status !== "active") continue;
      if (price.unit_price.currency_code !== sub.currency_code) continue;
      out.push({
        id: price.id,
        product_id: product.id,
        cycle,
        label: `${product.name} · ${price.name ?? price.description} · ${formatMoney(price.unit_price.amount, price.unit_price.currency_code)} ${billingCycleText(cycle).toLowerCase()}`,
      });
    }
  }
  const own = (p: RecurringPrice) => (sameCycle(p.cycle, sub.billing_cycle) ? 0 : 1);
  return out.sort((a, b) => own(a) - own(b));
}

/**
 * The switches to another billing cycle that the catalogue offers: for each other cycle, the
 * price of that cycle of every kept item's product (when each has exactly one), keeping the
 * quantities.
 */
function cycleSwitches(rows: ItemRow[], prices: RecurringPrice[]): { cycle: Cycle; rows: ItemRow[] }[] {
  const kept = rows.filter((row) => !row.remove);
  if (kept.length === 0) return [];
  const current = kept[0].cycle;
  const cycles = new Map<string, Cycle>();
  for (const price of prices) if (!sameCycle(price.cycle, current)) cycles.set(cycleKey(price.cycle), price.cycle);
  const out: { cycle: Cycle; rows: ItemRow[] }[] = [];
  for (const cycle of cycles.values()) {
    const replaced: ItemRow[] = [];
    for (const row of kept) {
      const matches = prices.filter((p) => p.product_id === row.product_id && sameCycle(p.cycle, cycle));
      if (matches.length !== 1) break;
      replaced.push({
        price_id: matches[0].id,
        product_id: row.product_id,
        label: matches[0].label,
        quantity: row.quantity,
        remove: false,
        isNew: true,
        cycle,
      });
    }
    if (replaced.length === kept.length) out.push({ cycle, rows: replaced });
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

function ItemsDialog({ sub, onClose, card }: DialogProps) {
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
  const [rows, setRows] = useState<ItemRow[]>(original);
  const [chosenMode, setMode] = useState<ProrationBillingMode | null>(null);
  const [adding, setAdding] = useState("");
  const run = useRun(update, "Items changed.", onClose);

  const kept = rows.filter((row) => !row.remove);
  const cycles = new Set(kept.map((row) => cycleKey(row.cycle)));
  const mixed = cycles.size > 1;
  const newCycle = !mixed && kept.length > 0 && !sameCycle(kept[0].cycle, sub.billing_cycle) ? kept[0].cycle : null;
  const modes = allowedModes({
    itemsChanged: true,
    cycleChanged: newCycle !== null,
    nextBilledAtChanged: false,
    trialing,
    paused: sub.status === "paused",
  });
  const mode = chosenMode && modes.includes(chosenMode) ? chosenMode : modes[0];
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
  const debounced = useDebounced(body);
  const preview = usePreview("update", sub.id, debounced);
  const current = body !== null && JSON.stringify(body) === JSON.stringify(debounced);
  const prices = recurringPrices(products, sub);
  const available = prices.filter((price) => !rows.some((row) => row.price_id === price.id));
  const switches = trialing ? [] : cycleSwitches(rows, prices);

  const setRow = (index: number, change: Partial<ItemRow>) =>
    setRows((list) => list.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <ConfirmDialog
      open
      wide
      title="Change items"
      tone="primary"
      confirmLabel={newCycle ? `Switch to ${cycleAdverb(newCycle)}` : "Apply change"}
      cancelLabel="Go back"
      confirmDisabled={!body || !current || !preview.data || preview.isFetching}
      pending={update.isPending}
      error={update.error ? <ApiErrorText error={update.error} /> : undefined}
      onCancel={onClose}
      onConfirm={() => body && run(body)}
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
                  setRows((list) => [
                    ...list.filter((row) => !row.isNew).map((row) => ({ ...row, remove: true })),
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
            onChange={(event) => setAdding(event.target.value)}
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
              setRows((list) => [
                ...list,
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
      <PreviewSummary query={current ? preview : { error: null, isFetching: body !== null }} sub={sub} card={card} />
    </ConfirmDialog>
  );
}

// ---------------------------------------------------------------------------------------------
// One-time charge

function ChargeDialog({ sub, onClose, card }: DialogProps) {
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
      <PreviewSummary query={current ? preview : { error: null, isFetching: body !== null }} sub={sub} card={card} />
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
  card,
}: {
  kind: DialogKind | null;
  sub: Subscription;
  onClose: () => void;
  card?: string | null;
}) {
  switch (kind) {
    case "pause":
      return <PauseDialog sub={sub} onClose={onClose} />;
    case "resume":
      return <ResumeDialog sub={sub} onClose={onClose} card={card} />;
    case "cancel":
      return <CancelDialog sub={sub} onClose={onClose} />;
    case "activate":
      return <ActivateDialog sub={sub} onClose={onClose} card={card} />;
    case "remove_scheduled_change":
      return <RemoveScheduledChangeDialog sub={sub} onClose={onClose} />;
    case "items":
      return <ItemsDialog sub={sub} onClose={onClose} card={card} />;
    case "charge":
      return <ChargeDialog sub={sub} onClose={onClose} card={card} />;
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
