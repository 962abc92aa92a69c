"use client";

import { useDebounced } from "@/components/debounce";
import { FormError } from "@/components/form";
import { SummaryList, SummaryRow } from "@/components/summary-rows";
import { formatDate, formatDateTime } from "@/lib/dashboard/display";
import { formErrors } from "@/lib/dashboard/form";
import { formatMoney } from "@/lib/dashboard/money";
import { type Subscription, type SubscriptionPreview, usePreview } from "@/lib/dashboard/subscriptions";
import { chargedTo } from "./dialog-kit";

type PreviewKind = Parameters<typeof usePreview>[0];

/**
 * The API's preview of the dialog's `body` once typing pauses (`delay` ms). `ready` says the
 * preview shown is the one of the body as it is now: the confirm button waits for it, so the
 * amount shown is the one charged.
 */
export function useLivePreview<K extends PreviewKind>(
  kind: K,
  id: string,
  body: Parameters<typeof usePreview<K>>[2],
  delay?: number,
) {
  const debounced = useDebounced(body, delay);
  const preview = usePreview(kind, id, debounced);
  const current = body !== null && JSON.stringify(body) === JSON.stringify(debounced);
  return {
    /** What PreviewSummary shows: the preview, or "Calculating…" while the body is newer than it. */
    query: current ? preview : { error: null, isFetching: body !== null },
    ready: current && Boolean(preview.data) && !preview.isFetching,
  };
}

/**
 * What confirming does, from the API's preview of the same request: what is charged now (amount,
 * date and card), then the next payment, and the change's charge and credit.
 */
export function PreviewSummary({
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
  const refusal = query.error ? formErrors(query.error, [], undefined, { listPlaced: true }) : null;
  return (
    <section aria-label="Preview" aria-busy={query.isFetching || undefined} className="rounded-md bg-slate-50 p-3">
      <h3 className="text-sm font-semibold text-slate-900">What happens</h3>
      {refusal ? (
        <div className="mt-2">
          <FormError message={refusal.message} other={refusal.other} requestId={refusal.requestId} />
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
