"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { type Column, DataTable } from "@/components/data-table";
import { type DescriptionItem, DescriptionList, JsonBlock } from "@/components/description-list";
import { DetailLoader, EntityIdCopy } from "@/components/entity-detail";
import { EntityText } from "@/components/entity-text";
import { DateCell } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { useToast } from "@/components/toast";
import { countryName, formatDateTime, humanize } from "@/lib/dashboard/display";
import { invoicePreviewPath } from "@/lib/dashboard/documents";
import { currencyName, periodText } from "@/lib/dashboard/money";
import { partyName, transactionTitle } from "@/lib/dashboard/names";
import { Allowed } from "@/lib/dashboard/permissions";
import {
  canCancel,
  canIssueInvoice,
  type StatusChange,
  type TransactionLineItem,
  type TransactionWithIncludes,
  taxRateText,
  transactionKeys,
  useChangeTransactionStatus,
  useTransaction,
} from "@/lib/dashboard/transactions";
import { Amount, RefundBadge, TransactionStatusBadge } from "../transaction-parts";
import { AdjustmentsSection } from "./adjustments-section";
import { CheckoutLinkButtons } from "./checkout-link-buttons";
import { DownloadInvoiceButton } from "./download-invoice-button";
import { EventHistory } from "./event-history";
import { InvoiceLinkButton, InvoiceLinkField } from "./invoice-link-button";
import { TransactionOrigin } from "./transaction-origin";
import { TransactionPayments } from "./transaction-payments";

const BACK = { href: "/transactions", label: "Transactions" };

const dash = <span className="text-slate-500">—</span>;

export function TransactionDetail({ transactionId }: { transactionId: string }) {
  const transaction = useTransaction(transactionId);
  return (
    <DetailLoader query={transaction} noun="transaction" back={BACK} className="mx-auto max-w-6xl">
      {(data) => <TransactionPage transaction={data} />}
    </DetailLoader>
  );
}

/** What each action's confirmation says. */
const ACTIONS: Record<StatusChange, { title: string; description: string; confirm: string; done: string }> = {
  billed: {
    title: "Issue the invoice?",
    description:
      "The transaction is billed: it gets an invoice number and becomes a legal record that can no longer be changed, only canceled.",
    confirm: "Issue invoice",
    done: "Invoice issued.",
  },
  canceled: {
    title: "Cancel this transaction?",
    description: "A canceled transaction cannot be billed or paid, and cannot be reopened.",
    confirm: "Cancel transaction",
    done: "Transaction canceled.",
  },
};

function TransactionPage({ transaction: t }: { transaction: TransactionWithIncludes }) {
  const [confirming, setConfirming] = useState<StatusChange | null>(null);
  const [invoiceLink, setInvoiceLink] = useState<string | null>(null);
  const change = useChangeTransactionStatus(t.id);
  const toast = useToast();
  const client = useQueryClient();
  const action = confirming ? ACTIONS[confirming] : null;

  function ask(status: StatusChange) {
    change.reset();
    setConfirming(status);
  }

  async function confirm() {
    if (!confirming) return;
    try {
      await change.mutateAsync(confirming);
      toast.show(ACTIONS[confirming].done);
      setConfirming(null);
    } catch {
      // The dialog shows the API's reason and stays open; the page shows the status as it is now.
      void client.invalidateQueries({ queryKey: transactionKeys.detail(t.id) });
    }
  }

  const currency = t.currency_code;
  // An automatically-collected ready transaction is paid at its checkout: that comes first.
  const checkoutUrl = t.status === "ready" && t.collection_mode === "automatic" ? (t.checkout?.url ?? null) : null;
  const party = partyName({ customer: t.customer, business: t.business }, "");

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        back={BACK}
        title={transactionTitle(t, { customer: t.customer, business: t.business })}
        badges={
          <>
            <TransactionStatusBadge status={t.status} />
            <RefundBadge transaction={t} />
          </>
        }
        description={
          <>
            <p className="font-medium text-slate-800">
              <span data-testid="transaction-kind">
                {t.invoice_number ? `Invoice ${t.invoice_number}` : "Transaction"}
              </span>
              {party.secondary && <span className="font-normal text-slate-600"> · {party.secondary}</span>}
            </p>
            <EntityIdCopy id={t.id} noun="transaction" />
          </>
        }
        actions={
          <>
            {checkoutUrl && <CheckoutLinkButtons url={checkoutUrl} />}
            <DownloadInvoiceButton transaction={t} />
            <InvoiceLinkButton transaction={t} onLink={setInvoiceLink} />
            {canIssueInvoice(t) && (
              <Allowed permission="transaction.write" action="issue invoices">
                <Button variant={checkoutUrl ? "secondary" : "primary"} onClick={() => ask("billed")}>
                  Issue invoice
                </Button>
              </Allowed>
            )}
            {canCancel(t) && (
              <Allowed permission="transaction.write" action="cancel transactions">
                <Button variant="danger" onClick={() => ask("canceled")}>
                  Cancel transaction
                </Button>
              </Allowed>
            )}
          </>
        }
      />

      {invoiceLink && <InvoiceLinkField url={invoiceLink} />}

      <div className="space-y-6">
        <Section title="Details">
          <DescriptionList items={detailItems(t)} />
        </Section>

        <Section title="Line items">
          <DataTable
            caption="Line items"
            columns={lineItemColumns(t)}
            rows={t.details.line_items}
            rowKey={(item) => item.id}
            isLoading={false}
            empty={<EmptyState title="No line items" />}
          />
        </Section>

        <div className="grid items-start gap-6 lg:grid-cols-2">
          <Section title="Tax rates used">
            <DataTable
              caption="Tax rates used"
              columns={[
                { key: "rate", header: "Tax rate", cell: (r) => taxRateText(r.tax_rate) },
                ...(["subtotal", "discount", "tax", "total"] as const).map((field) => ({
                  key: field,
                  header: humanize(field),
                  className: "text-right",
                  cell: (r: { totals: Record<typeof field, string> }) => (
                    <Amount amount={r.totals[field]} currency={currency} />
                  ),
                })),
              ]}
              rows={t.details.tax_rates_used}
              rowKey={(r) => r.tax_rate}
              isLoading={false}
              empty={<EmptyState title="No tax" description="No tax applies to this transaction." />}
            />
          </Section>

          <Section title="Totals">
            <Totals transaction={t} />
          </Section>
        </div>

        <TransactionPayments transaction={t} />

        <AdjustmentsSection transaction={t} />

        <EventHistory transaction={t} />
      </div>

      <ConfirmDialog
        open={action !== null}
        title={action?.title ?? ""}
        description={action?.description}
        confirmLabel={action?.confirm ?? ""}
        cancelLabel="Go back"
        tone={confirming === "canceled" ? "danger" : "primary"}
        pending={change.isPending}
        error={change.error ? <EntityText text={change.error.message} /> : undefined}
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      >
        {confirming === "billed" && (
          <p className="text-sm text-slate-700">
            <a
              href={invoicePreviewPath(t.id)}
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-brand-700 underline"
            >
              Preview PDF
            </a>{" "}
            (opens in a new tab): the invoice as it would be issued now, marked DRAFT. No invoice number is taken.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}

function addressText(a: NonNullable<TransactionWithIncludes["address"]>): string {
  return [a.first_line, a.second_line, a.city, a.region, a.postal_code, countryName(a.country_code)]
    .filter((part) => part)
    .join(", ");
}

function detailItems(t: TransactionWithIncludes): DescriptionItem[] {
  const billing = t.billing_details;
  const items: DescriptionItem[] = [
    {
      term: "Status",
      value: (
        <span className="flex flex-wrap gap-1">
          <TransactionStatusBadge status={t.status} />
          <RefundBadge transaction={t} />
        </span>
      ),
    },
    { term: "Invoice number", value: t.invoice_number ?? dash },
    {
      term: "Customer",
      value: t.customer_id ? (
        <Link href={`/customers/${t.customer_id}`} className="text-brand-700 hover:underline">
          {t.customer ? `${t.customer.name ? `${t.customer.name} · ` : ""}${t.customer.email}` : t.customer_id}
        </Link>
      ) : (
        dash
      ),
    },
    { term: "Address", value: t.address ? addressText(t.address) : (t.address_id ?? dash) },
    { term: "Business", value: t.business ? t.business.name : (t.business_id ?? dash) },
    { term: "Currency", value: `${currencyName(t.currency_code)} (${t.currency_code})` },
    { term: "Collection mode", value: humanize(t.collection_mode) },
    { term: "Origin", value: <TransactionOrigin id={t.id} origin={t.origin} /> },
    { term: "Created", value: formatDateTime(t.created_at) },
    { term: "Billed", value: t.billed_at ? <DateCell value={t.billed_at} /> : dash },
  ];
  if (t.discount_id) {
    items.push({ term: "Discount", value: t.discount?.description ?? t.discount_id });
  }
  if (t.subscription_id)
    items.push({ term: "Subscription", value: <code className="font-mono">{t.subscription_id}</code> });
  if (t.billing_period) {
    items.push({
      term: "Billing period",
      value: `${formatDateTime(t.billing_period.starts_at)} – ${formatDateTime(t.billing_period.ends_at)}`,
    });
  }
  if (billing) {
    items.push(
      { term: "Payment terms", value: `Due in ${periodText(billing.payment_terms)}` },
      { term: "Purchase order", value: billing.purchase_order_number || dash },
      { term: "Checkout enabled", value: billing.enable_checkout ? "Yes" : "No" },
      { term: "Additional information", value: billing.additional_information ?? dash, wide: true },
    );
  }
  if (t.custom_data) items.push({ term: "Custom data", value: <JsonBlock value={t.custom_data} />, wide: true });
  return items;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function lineItemColumns(t: TransactionWithIncludes): Column<TransactionLineItem>[] {
  const currency = t.currency_code;
  const money = (pick: (item: TransactionLineItem) => string) => (item: TransactionLineItem) => (
    <Amount amount={pick(item)} currency={currency} />
  );
  const priceOf = (item: TransactionLineItem) => t.items.find((i) => i.price_id === item.price_id)?.price;
  return [
    {
      key: "product",
      header: "Product",
      cell: (item) => <span className="font-medium text-slate-900">{text(item.product.name) ?? dash}</span>,
    },
    {
      key: "price",
      header: "Price",
      cell: (item) => text(priceOf(item)?.description) ?? <code className="font-mono text-xs">{item.price_id}</code>,
    },
    { key: "quantity", header: "Qty", className: "text-right tabular-nums", cell: (item) => item.quantity },
    { key: "unit", header: "Unit price", className: "text-right", cell: money((i) => i.unit_totals.subtotal) },
    { key: "rate", header: "Tax rate", className: "text-right", cell: (item) => taxRateText(item.tax_rate) },
    { key: "subtotal", header: "Subtotal", className: "text-right", cell: money((i) => i.totals.subtotal) },
    { key: "discount", header: "Discount", className: "text-right", cell: money((i) => i.totals.discount) },
    { key: "tax", header: "Tax", className: "text-right", cell: money((i) => i.totals.tax) },
    { key: "total", header: "Total", className: "text-right font-medium", cell: money((i) => i.totals.total) },
  ];
}

function Totals({ transaction: t }: { transaction: TransactionWithIncludes }) {
  const totals = t.details.totals;
  const rows: [string, string][] = [
    ["Subtotal", totals.subtotal],
    ["Discount", totals.discount],
    ["Tax", totals.tax],
    ["Total", totals.total],
    ["Credit", totals.credit],
    ["Balance", totals.balance],
  ];
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([term, amount]) => (
        <div key={term} className="flex justify-between gap-4 py-2">
          <dt className="text-slate-600">{term}</dt>
          <dd className="text-slate-900">
            <Amount amount={amount} currency={totals.currency_code} />
          </dd>
        </div>
      ))}
      <div className="flex justify-between gap-4 pt-3 text-base font-semibold">
        <dt>Grand total</dt>
        <dd>
          <Amount amount={totals.grand_total} currency={totals.currency_code} />
        </dd>
      </div>
    </dl>
  );
}
