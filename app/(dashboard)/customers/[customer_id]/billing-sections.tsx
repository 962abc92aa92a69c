"use client";

import Link from "next/link";
import { type ComponentProps, type ReactNode, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { type Column, DataTable } from "@/components/data-table";
import { EntityText } from "@/components/entity-text";
import { createdColumn, DateCell, PagedTable } from "@/components/list-page";
import { Section } from "@/components/page-header";
import { useCursorPagination } from "@/components/pagination";
import { EmptyState } from "@/components/states";
import { useToast } from "@/components/toast";
import { formatDate, humanize } from "@/lib/dashboard/display";
import { type ListParams, NEWEST_FIRST } from "@/lib/dashboard/hooks";
import { billingCycleText } from "@/lib/dashboard/money";
import {
  type CreditBalance,
  type PaymentMethod,
  type Subscription,
  useCreditBalances,
  useDeletePaymentMethod,
  usePaymentMethods,
  useSubscriptions,
} from "@/lib/dashboard/subscriptions";
import { type TransactionWithIncludes, useTransactions } from "@/lib/dashboard/transactions";
import {
  itemsSummary,
  SubscriptionStatusBadge,
  scheduledChangeText,
  subscriptionPath,
} from "../../subscriptions/subscription-parts";
import { Amount, TransactionStatusBadge, transactionPath } from "../../transactions/transaction-parts";

const PER_PAGE = 10;
const dash = <span className="text-slate-500">—</span>;

const SUBSCRIPTION_COLUMNS: Column<Subscription>[] = [
  {
    key: "subscription",
    header: "Subscription",
    cell: (s) => (
      <div className="flex flex-col">
        <Link href={subscriptionPath(s.id)} className="font-medium text-brand-700 hover:underline">
          {itemsSummary(s)}
        </Link>
        <span className="font-mono text-xs text-slate-500">{s.id}</span>
      </div>
    ),
  },
  {
    key: "status",
    header: "Status",
    cell: (s) => (
      <div className="flex flex-col items-start gap-1">
        <SubscriptionStatusBadge status={s.status} />
        {s.scheduled_change && (
          <span className="text-xs whitespace-nowrap text-amber-800">{scheduledChangeText(s.scheduled_change)}</span>
        )}
      </div>
    ),
  },
  { key: "cycle", header: "Billed", cell: (s) => billingCycleText(s.billing_cycle) },
  {
    key: "next",
    header: "Next billing",
    className: "whitespace-nowrap",
    cell: (s) => (s.next_billed_at ? <DateCell value={s.next_billed_at} /> : dash),
  },
  createdColumn(),
];

/**
 * One page at a time of a list that belongs to the customer, newest first: their subscriptions and
 * their transactions are the same section over a different list.
 */
function CustomerListSection<T extends { id: string }>({
  customerId,
  title,
  noun,
  useCustomerList,
  columns,
  empty,
  actions,
  children,
}: {
  customerId: string;
  title: string;
  /** Buttons beside the title, and what they open above the table. */
  actions?: ReactNode;
  children?: ReactNode;
  /** Lower case and plural: "subscriptions". */
  noun: string;
  /** The list hook; a module-level function, so the hooks run in the same order on every render. */
  useCustomerList: (params: ListParams) => ComponentProps<typeof PagedTable<T>>["list"];
  columns: Column<T>[];
  empty: ReactNode;
}) {
  const pagination = useCursorPagination();
  const list = useCustomerList({
    customer_id: customerId,
    per_page: PER_PAGE,
    after: pagination.after,
    order_by: NEWEST_FIRST,
  });
  return (
    <Section title={title} description={`The customer's ${noun}, newest first.`} actions={actions}>
      {children}
      <PagedTable
        caption={title}
        columns={columns}
        rowKey={(row) => row.id}
        list={list}
        pagination={pagination}
        skeletonRows={2}
        empty={empty}
      />
    </Section>
  );
}

export function CustomerSubscriptionsSection({
  customerId,
  actions,
  children,
}: {
  customerId: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <CustomerListSection
      customerId={customerId}
      actions={actions}
      title="Subscriptions"
      noun="subscriptions"
      useCustomerList={useSubscriptions}
      columns={SUBSCRIPTION_COLUMNS}
      empty={
        <EmptyState
          title="No subscriptions"
          description="A subscription starts when the customer pays for recurring prices."
        />
      }
    >
      {children}
    </CustomerListSection>
  );
}

function cardText(method: PaymentMethod): string {
  if (!method.card) return humanize(method.type);
  const scheme = method.card.type
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
  return `${scheme === "Unknown" ? "Card" : scheme} •••• ${method.card.last4}`;
}

export function PaymentMethodsSection({ customerId, write }: { customerId: string; write: boolean }) {
  const list = usePaymentMethods(customerId);
  const remove = useDeletePaymentMethod(customerId);
  const toast = useToast();
  const [deleting, setDeleting] = useState<PaymentMethod | null>(null);
  const columns: Column<PaymentMethod>[] = [
    {
      key: "method",
      header: "Payment method",
      cell: (m) => (
        <div className="flex flex-col">
          <span className="font-medium text-slate-900">{cardText(m)}</span>
          {m.card?.cardholder_name && <span className="text-xs text-slate-500">{m.card.cardholder_name}</span>}
        </div>
      ),
    },
    {
      key: "expires",
      header: "Expires",
      cell: (m) => (m.card ? `${String(m.card.expiry_month).padStart(2, "0")}/${m.card.expiry_year}` : dash),
    },
    { key: "origin", header: "Saved", cell: (m) => `${humanize(m.origin)}, ${formatDate(m.saved_at)}` },
    ...(write
      ? [
          {
            key: "actions",
            header: "",
            srHeader: "Actions",
            className: "text-right",
            cell: (m: PaymentMethod) => (
              <Button
                variant="danger"
                size="sm"
                onClick={() => {
                  remove.reset();
                  setDeleting(m);
                }}
              >
                Delete
                <span className="sr-only"> {cardText(m)}</span>
              </Button>
            ),
          },
        ]
      : []),
  ];

  async function confirm() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.show(`${cardText(deleting)} deleted.`);
      setDeleting(null);
    } catch {
      // The dialog shows the API's reason and stays open.
    }
  }

  return (
    <Section title="Payment methods" description="Cards the customer saved at checkout; subscriptions renew on them.">
      <DataTable
        caption="Payment methods"
        columns={columns}
        rows={list.data?.data}
        rowKey={(m) => m.id}
        isLoading={list.isLoading}
        error={list.error}
        onRetry={() => list.refetch()}
        skeletonRows={1}
        empty={<EmptyState title="No saved payment methods" />}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this payment method?"
        description={
          deleting && (
            <p>
              {cardText(deleting)} is deleted for good. Subscriptions that renew on it can no longer be charged
              automatically until the customer adds another card.
            </p>
          )
        }
        confirmLabel="Delete payment method"
        pending={remove.isPending}
        error={remove.error ? <EntityText text={remove.error.message} /> : undefined}
        onConfirm={confirm}
        onCancel={() => setDeleting(null)}
      />
    </Section>
  );
}

const BALANCE_COLUMNS: Column<CreditBalance>[] = [
  { key: "currency", header: "Currency", cell: (b) => b.currency_code },
  ...(["available", "reserved", "used"] as const).map((field) => ({
    key: field,
    header: humanize(field),
    className: "text-right",
    cell: (b: CreditBalance) => <Amount amount={b.balance[field]} currency={b.currency_code} />,
  })),
];

export function CreditBalancesSection({ customerId }: { customerId: string }) {
  const balances = useCreditBalances(customerId);
  return (
    <Section
      title="Credit balance"
      description="Credit from subscription changes (downgrades), used up by the customer's next transactions."
    >
      <DataTable
        caption="Credit balances"
        columns={BALANCE_COLUMNS}
        rows={balances.data}
        rowKey={(b) => b.currency_code}
        isLoading={balances.isLoading}
        error={balances.error}
        onRetry={() => balances.refetch()}
        skeletonRows={1}
        empty={<EmptyState title="No credit" description="The customer has no credit in any currency." />}
      />
    </Section>
  );
}

const TRANSACTION_COLUMNS: Column<TransactionWithIncludes>[] = [
  {
    key: "id",
    header: "Transaction",
    cell: (t) => (
      <Link href={transactionPath(t.id)} className="font-medium text-brand-700 hover:underline">
        {t.invoice_number ?? <span className="font-mono text-xs">{t.id}</span>}
      </Link>
    ),
  },
  { key: "status", header: "Status", cell: (t) => <TransactionStatusBadge status={t.status} /> },
  { key: "origin", header: "Origin", cell: (t) => humanize(t.origin) },
  {
    key: "total",
    header: "Grand total",
    className: "text-right",
    cell: (t) => <Amount amount={t.details.totals.grand_total} currency={t.currency_code} />,
  },
  {
    key: "due",
    header: "Amount due",
    className: "text-right",
    cell: (t) =>
      t.status === "billed" || t.status === "past_due" ? (
        <Amount amount={t.details.totals.balance} currency={t.currency_code} />
      ) : (
        <span className="text-slate-500">—</span>
      ),
  },
  createdColumn(),
];

export function CustomerTransactionsSection({ customerId }: { customerId: string }) {
  return (
    <CustomerListSection
      customerId={customerId}
      title="Transactions"
      noun="transactions"
      useCustomerList={useTransactions}
      columns={TRANSACTION_COLUMNS}
      empty={<EmptyState title="No transactions" />}
    />
  );
}
