"use client";

import { useState } from "react";
import { Button, buttonClasses } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { type Column, DataTable } from "@/components/data-table";
import { SelectField, TextField } from "@/components/form";
import { Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { dueDate, type TermsInterval } from "@/lib/billing/payments";
import { canMarkPaid, canPayAtCheckout } from "@/lib/billing/transaction-states";
import { formatDateTime } from "@/lib/dashboard/display";
import {
  attemptKindText,
  MARK_PAID_METHOD_LABELS,
  type MarkPaidMethod,
  type Payment,
  type PaymentAttemptView,
  paymentErrorText,
  paymentMethodText,
  useMarkPaid,
  usePaymentAttempts,
} from "@/lib/dashboard/payments";
import { Allowed } from "@/lib/dashboard/permissions";
import type { Transaction } from "@/lib/dashboard/transactions";
import { Amount } from "../transaction-parts";

const dash = <span className="text-slate-500">—</span>;

/**
 * The transaction's payments (newest first, as the API returns them) with what can be done about
 * paying it: open the hosted checkout (new tab) while it can take a payment, or record a manual
 * invoice as paid (offline or by wire transfer) behind a confirmation.
 */
export function TransactionPayments({ transaction: t }: { transaction: Transaction }) {
  const [confirming, setConfirming] = useState(false);
  const [method, setMethod] = useState<MarkPaidMethod>("offline");
  const [reference, setReference] = useState("");
  const markPaid = useMarkPaid(t.id);
  const toast = useToast();
  const checkoutUrl = t.checkout?.url ?? null;
  const payments = t.payments as unknown as Payment[];

  function ask() {
    markPaid.reset();
    setMethod("offline");
    setReference("");
    setConfirming(true);
  }

  async function confirm() {
    try {
      await markPaid.mutateAsync({ method, reference: reference.trim() || null });
      toast.show("Invoice marked as paid.");
      setConfirming(false);
    } catch {
      // The dialog shows the API's reason and stays open.
    }
  }

  const due =
    t.billed_at && t.billing_details && (t.status === "billed" || t.status === "past_due")
      ? dueDate(new Date(t.billed_at), {
          interval: t.billing_details.payment_terms.interval as TermsInterval,
          frequency: t.billing_details.payment_terms.frequency,
        })
      : null;

  return (
    <Section
      title="Payments"
      description={due ? `Due ${formatDateTime(due.toISOString())}` : undefined}
      actions={
        <>
          {/* A ready automatically-collected transaction has it in the page's header (checkout first). */}
          {checkoutUrl && canPayAtCheckout(t) && !(t.status === "ready" && t.collection_mode === "automatic") && (
            <a href={checkoutUrl} target="_blank" rel="noreferrer" className={buttonClasses("secondary", "sm")}>
              Open checkout<span className="sr-only"> (opens in a new tab)</span>
              <span aria-hidden="true">↗</span>
            </a>
          )}
          {canMarkPaid(t) && (
            <Allowed permission="transaction.write" action="mark invoices as paid">
              <Button size="sm" onClick={ask}>
                Mark as paid
              </Button>
            </Allowed>
          )}
        </>
      }
    >
      <DataTable
        caption="Payments"
        columns={columns(t.currency_code)}
        rows={payments}
        rowKey={(p) => p.payment_attempt_id}
        isLoading={false}
        empty={
          <EmptyState
            title="No payments yet"
            description={
              t.collection_mode === "manual"
                ? "Payments against the invoice appear here."
                : "Payments made at checkout appear here."
            }
          />
        }
      />
      {t.details.totals.fee !== null && t.details.totals.earnings !== null && (
        <dl aria-label="Payout" className="mt-3 flex flex-wrap justify-end gap-x-6 gap-y-1 text-sm">
          <div className="flex gap-2">
            <dt className="text-slate-600">Fee</dt>
            <dd>
              <Amount amount={t.details.totals.fee} currency={t.currency_code} />
            </dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-slate-600">Earnings</dt>
            <dd className="font-medium text-slate-900">
              <Amount amount={t.details.totals.earnings} currency={t.currency_code} />
            </dd>
          </div>
        </dl>
      )}
      <ProcessorAttempts transaction={t} />
      <ConfirmDialog
        open={confirming}
        title="Mark this invoice as paid?"
        description={
          <div className="space-y-3">
            <p>
              Records a payment of <Amount amount={t.details.totals.balance} currency={t.currency_code} /> received
              outside the checkout. The transaction is completed; this cannot be undone (record refunds with
              adjustments).
            </p>
            <SelectField
              label="Paid by"
              value={method}
              onChange={(event) => setMethod(event.target.value as MarkPaidMethod)}
            >
              {(Object.keys(MARK_PAID_METHOD_LABELS) as MarkPaidMethod[]).map((value) => (
                <option key={value} value={value}>
                  {MARK_PAID_METHOD_LABELS[value]}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Reference"
              hint="Optional: the bank's or your own reference for the payment."
              maxLength={200}
              value={reference}
              onChange={(event) => setReference(event.target.value)}
            />
          </div>
        }
        confirmLabel="Mark as paid"
        cancelLabel="Go back"
        tone="primary"
        pending={markPaid.isPending}
        error={markPaid.error ? markPaid.error.message : undefined}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      />
    </Section>
  );
}

function columns(currency: string): Column<Payment>[] {
  return [
    {
      key: "status",
      header: "Status",
      cell: (p) => <StatusBadge status={p.status} tone={p.status === "captured" ? "green" : "red"} />,
    },
    { key: "method", header: "Method", cell: (p) => paymentMethodText(p) },
    {
      key: "amount",
      header: "Amount",
      className: "text-right",
      cell: (p) => (p.amount ? <Amount amount={p.amount} currency={currency} /> : dash),
    },
    {
      key: "time",
      header: "Time",
      cell: (p) => (p.created_at ? <span className="whitespace-nowrap">{formatDateTime(p.created_at)}</span> : dash),
    },
    {
      key: "error",
      header: "Error",
      cell: (p) => {
        const error = paymentErrorText(p);
        return error ? <span className="text-red-700">{error}</span> : dash;
      },
    },
  ];
}

/**
 * The transaction's payments at Stripe, each linked to Stripe's dashboard, with why it failed in
 * plain words (Stripe's decline code translated). Shown only once there is any.
 */
function ProcessorAttempts({ transaction: t }: { transaction: Transaction }) {
  const attempts = usePaymentAttempts(t.id);
  const rows = attempts.data ?? [];
  if (rows.length === 0) return null;
  return (
    <div className="mt-4">
      <DataTable
        caption="At Stripe"
        columns={attemptColumns(t.currency_code)}
        rows={rows}
        rowKey={(a) => a.id}
        isLoading={attempts.isLoading}
        empty={null}
      />
    </div>
  );
}

const ATTEMPT_TONES: Record<PaymentAttemptView["status"], "green" | "red" | "amber" | "slate"> = {
  succeeded: "green",
  failed: "red",
  canceled: "slate",
  requires_action: "amber",
  processing: "amber",
  started: "slate",
};

function attemptColumns(currency: string): Column<PaymentAttemptView>[] {
  return [
    {
      key: "status",
      header: "Status",
      cell: (a) => <StatusBadge status={a.status} tone={ATTEMPT_TONES[a.status]} />,
    },
    { key: "kind", header: "Kind", cell: (a) => attemptKindText(a.kind) },
    {
      key: "amount",
      header: "Amount",
      className: "text-right",
      cell: (a) => <Amount amount={a.amount} currency={a.currency_code || currency} />,
    },
    {
      key: "time",
      header: "Time",
      cell: (a) => <span className="whitespace-nowrap">{formatDateTime(a.created_at)}</span>,
    },
    {
      key: "reason",
      header: "Reason",
      cell: (a) => (a.error_message ? <span className="text-red-700">{a.error_message}</span> : dash),
    },
    {
      key: "stripe",
      header: "Stripe",
      cell: (a) =>
        a.dashboard_url ? (
          <a href={a.dashboard_url} target="_blank" rel="noreferrer" className="text-indigo-700 underline">
            {a.processor_reference}
            <span className="sr-only"> in Stripe's dashboard (opens in a new tab)</span>
            <span aria-hidden="true"> ↗</span>
          </a>
        ) : (
          dash
        ),
    },
  ];
}
