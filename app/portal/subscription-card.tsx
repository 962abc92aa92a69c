/** One subscription on the overview: what it is, what it costs, when it is next paid, and its actions. */
import Link from "next/link";
import { billingCycleText, formatMoney, periodText } from "@/lib/dashboard/money";
import type { PortalSubscription } from "@/lib/services/portal/data";
import { subscriptionPagePath } from "@/lib/services/portal/links";
import { Card, cardText, dateText, STATUS_TEXT } from "./ui";

const TONES: Record<string, string> = {
  active: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  trialing: "bg-sky-50 text-sky-800 ring-sky-600/20",
  past_due: "bg-red-50 text-red-800 ring-red-600/20",
  paused: "bg-amber-50 text-amber-800 ring-amber-600/20",
  canceled: "bg-slate-100 text-slate-700 ring-slate-500/20",
};

export function subscriptionName(s: PortalSubscription["subscription"]): string {
  return s.items.map((item) => String((item.product as { name?: string })?.name ?? "Subscription")).join(", ");
}

export function StatusPill({ status }: { status: string }) {
  return (
    <span
      data-testid="subscription-status"
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[status] ?? TONES.canceled}`}
    >
      {STATUS_TEXT[status] ?? status}
    </span>
  );
}

export function SubscriptionCard({ row, canChangePlan = false }: { row: PortalSubscription; canChangePlan?: boolean }) {
  const s = row.subscription;
  const money = (amount: string) => formatMoney(amount, s.currency_code);
  const cancelAt = s.scheduled_change?.action === "cancel" ? s.scheduled_change.effective_at : null;
  const live = s.status !== "canceled";
  const automatic = s.collection_mode === "automatic";
  const headingId = `sub-${s.id}`;
  return (
    <Card aria-labelledby={headingId} data-testid="subscription-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            {subscriptionName(s)}
          </h2>
          {row.recurring_total !== null && (
            <p className="mt-0.5 text-sm text-slate-600">
              {money(row.recurring_total)} {billingCycleText(s.billing_cycle).toLowerCase()}
            </p>
          )}
        </div>
        <StatusPill status={s.status} />
      </div>

      {s.status === "past_due" && (
        <div role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">
            Your last payment{row.past_due_amount ? ` of ${money(row.past_due_amount)}` : ""} failed.
          </p>
          <p>Update your card to pay it and keep your subscription.</p>
        </div>
      )}
      {cancelAt && (
        <p
          className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="cancel-scheduled"
        >
          Canceled: you keep access until <strong>{dateText(cancelAt)}</strong>. Nothing more will be charged.
        </p>
      )}

      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-600">
            {s.status === "past_due" ? "Due now" : s.status === "trialing" ? "First payment" : "Next payment"}
          </dt>
          <dd className="font-medium text-slate-900" data-testid="next-payment">
            {s.status === "past_due" && row.past_due_amount
              ? money(row.past_due_amount)
              : row.next_payment
                ? `${money(row.next_payment.amount)} on ${dateText(row.next_payment.at)}`
                : s.status === "canceled"
                  ? `Ended ${dateText(s.canceled_at)}`
                  : cancelAt
                    ? "None"
                    : s.status === "paused"
                      ? "Paused"
                      : "—"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Payment method</dt>
          <dd className="font-medium text-slate-900" data-testid="payment-method">
            {automatic ? cardText(row.card) : "Paid by invoice"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{s.status === "trialing" ? "Free trial" : "Billing period"}</dt>
          <dd className="font-medium text-slate-900">
            {s.current_billing_period
              ? `${dateText(s.current_billing_period.starts_at)} – ${dateText(s.current_billing_period.ends_at)}`
              : `Every ${periodText(s.billing_cycle)}`}
          </dd>
        </div>
      </dl>

      {live && (
        <div className="mt-5 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
          {automatic && (
            <Link
              href={subscriptionPagePath(s.id, "update-payment-method")}
              className={`rounded-md px-3 py-2 text-sm font-medium ${
                s.status === "past_due"
                  ? "bg-brand-600 text-white hover:bg-brand-700"
                  : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50"
              }`}
            >
              {s.status === "past_due" ? "Update card and pay" : "Update payment method"}
            </Link>
          )}
          {canChangePlan && (
            <Link
              href={subscriptionPagePath(s.id, "change-plan")}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Change plan
            </Link>
          )}
          {!cancelAt && (
            <Link
              href={subscriptionPagePath(s.id, "cancel")}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Cancel subscription
            </Link>
          )}
        </div>
      )}
    </Card>
  );
}
