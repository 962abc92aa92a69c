"use client";

/** The subscription page's sections beside its details: the next payment, the discount, the billing details. */
import Link from "next/link";
import { Button } from "@/components/button";
import { DescriptionList } from "@/components/description-list";
import { Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { useDiscount } from "@/lib/dashboard/catalogue";
import { formatDate, formatDateTime } from "@/lib/dashboard/display";
import { periodText } from "@/lib/dashboard/money";
import type { Subscription, TransactionPreview } from "@/lib/dashboard/subscriptions";
import { taxRateText } from "@/lib/dashboard/transactions";
import { Amount } from "../../transactions/transaction-parts";
import type { DialogKind } from "./dialogs/action-dialog";

const dash = <span className="text-slate-500">—</span>;

/** The `next_transaction` preview: when, the lines, tax and total. */
export function NextPayment({ sub }: { sub: Subscription }) {
  const next = sub.next_transaction;
  return (
    <Section title="Next payment" description={next ? undefined : undefined}>
      {!next ? (
        <EmptyState
          title="No next payment"
          description={
            sub.status === "canceled"
              ? "The subscription is canceled."
              : sub.scheduled_change
                ? `The subscription is scheduled to ${sub.scheduled_change.action} before it renews.`
                : sub.status === "paused"
                  ? "The subscription is paused: it bills again when it resumes."
                  : "Nothing is due."
          }
        />
      ) : (
        <NextPaymentBody next={next} sub={sub} />
      )}
    </Section>
  );
}

function NextPaymentBody({ next, sub }: { next: TransactionPreview; sub: Subscription }) {
  const totals = next.details.totals;
  const currency = sub.currency_code;
  return (
    <div className="text-sm">
      <p className="text-slate-700">
        On <strong>{formatDateTime(next.billing_period.starts_at)}</strong>, for the period to{" "}
        {formatDateTime(next.billing_period.ends_at)}
      </p>
      <ul aria-label="Next payment lines" className="mt-3 divide-y divide-slate-100">
        {next.details.line_items.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: preview lines have no id
          <li key={index} className="flex justify-between gap-4 py-1.5">
            <span>
              {String((line.product as { name?: unknown }).name ?? "Item")} × {line.quantity}
              {line.proration ? <span className="ml-1 text-xs text-slate-500">(prorated)</span> : null}
              <span className="ml-1 text-xs text-slate-500">tax {taxRateText(line.tax_rate)}</span>
            </span>
            <Amount amount={line.totals.total} currency={currency} />
          </li>
        ))}
      </ul>
      <dl className="mt-2 border-t border-slate-200 pt-2">
        {(
          [
            ["Subtotal", totals.subtotal],
            ["Discount", totals.discount],
            ["Tax", totals.tax],
          ] as const
        ).map(([term, amount]) => (
          <div key={term} className="flex justify-between gap-4 py-0.5">
            <dt className="text-slate-600">{term}</dt>
            <dd>
              <Amount amount={amount} currency={currency} />
            </dd>
          </div>
        ))}
        {totals.credit !== "0" ? (
          <div className="flex justify-between gap-4 py-0.5">
            <dt className="text-slate-600">Paid from credit balance</dt>
            <dd>
              <Amount amount={`-${totals.credit}`} currency={currency} />
            </dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4 pt-1 text-base font-semibold">
          <dt>Total due</dt>
          <dd>
            <Amount amount={totals.grand_total} currency={currency} />
          </dd>
        </div>
      </dl>
    </div>
  );
}

export function DiscountSection({
  sub,
  write,
  onAction,
}: {
  sub: Subscription;
  write: boolean;
  onAction: (kind: DialogKind) => void;
}) {
  return (
    <Section
      title="Discount"
      actions={
        write && (
          <>
            <Button variant="secondary" size="sm" onClick={() => onAction("discount")}>
              {sub.discount ? "Replace" : "Apply discount"}
            </Button>
            {sub.discount && (
              <Button variant="secondary" size="sm" onClick={() => onAction("remove_discount")}>
                Remove
                <span className="sr-only"> discount</span>
              </Button>
            )}
          </>
        )
      }
    >
      {sub.discount ? <DiscountText discount={sub.discount} /> : <p className="text-sm text-slate-600">No discount.</p>}
    </Section>
  );
}

function DiscountText({ discount }: { discount: NonNullable<Subscription["discount"]> }) {
  const details = useDiscount(discount.id);
  return (
    <div className="text-sm">
      <p className="font-medium text-slate-900">
        <Link href={`/catalogue/discounts/${discount.id}`} className="text-brand-700 hover:underline">
          {details.data?.description ?? discount.id}
        </Link>
      </p>
      <p className="text-slate-600">
        {discount.starts_at ? `From ${formatDate(discount.starts_at)}` : "From the start"}
        {discount.ends_at ? `, until ${formatDate(discount.ends_at)}` : ", for every renewal"}
      </p>
    </div>
  );
}

export function BillingDetailsSection({
  sub,
  write,
  onEdit,
}: {
  sub: Subscription;
  write: boolean;
  onEdit: () => void;
}) {
  const billing = sub.billing_details;
  return (
    <Section
      title="Billing details"
      actions={
        write && (
          <Button variant="secondary" size="sm" onClick={onEdit}>
            Edit billing details
          </Button>
        )
      }
    >
      {billing ? (
        <DescriptionList
          items={[
            { term: "Payment terms", value: `Due in ${periodText(billing.payment_terms)}` },
            { term: "Purchase order", value: billing.purchase_order_number || dash },
            { term: "Checkout enabled", value: billing.enable_checkout ? "Yes" : "No" },
            { term: "Additional information", value: billing.additional_information ?? dash, wide: true },
          ]}
        />
      ) : (
        <p className="text-sm text-slate-600">No billing details.</p>
      )}
    </Section>
  );
}
