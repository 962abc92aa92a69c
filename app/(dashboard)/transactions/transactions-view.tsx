"use client";

import Link from "next/link";
import { ButtonLink } from "@/components/button";
import type { Column } from "@/components/data-table";
import { DateRange } from "@/components/date-range";
import { ExportLink } from "@/components/export-link";
import { createdColumn, DateCell, ListFilters, PagedTable, PER_PAGE, useListFilters } from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusFilter } from "@/components/status-filter";
import { humanize } from "@/lib/dashboard/display";
import { partyName } from "@/lib/dashboard/names";
import { Allowed } from "@/lib/dashboard/permissions";
import {
  COLLECTION_MODE_OPTIONS,
  isCustomerId,
  PAYMENT_OPTIONS,
  refundLabel,
  startOfDayIso,
  startOfNextDayIso,
  TRANSACTION_STATUSES,
  type TransactionWithIncludes,
  useCustomerMatch,
  useTransactions,
} from "@/lib/dashboard/transactions";
import { Amount, TransactionStatusBadge, transactionPath } from "./transaction-parts";

const STATUS_OPTIONS = [
  { value: "", label: "All" },
  ...TRANSACTION_STATUSES.map((status) => ({ value: status, label: humanize(status) })),
];

const dash = <span className="text-slate-500">—</span>;

const COLUMNS: Column<TransactionWithIncludes>[] = [
  {
    key: "id",
    header: "Transaction",
    cell: (t) => (
      <div className="flex flex-col">
        <Link href={transactionPath(t.id)} className="font-medium text-brand-700 hover:underline">
          {t.invoice_number ?? <span className="font-mono text-xs">{t.id}</span>}
        </Link>
        {t.invoice_number && <span className="font-mono text-xs text-slate-500">{t.id}</span>}
      </div>
    ),
  },
  {
    key: "customer",
    header: "Customer",
    cell: (t) => {
      if (!t.customer_id) return dash;
      const party = partyName({ customer: t.customer, business: t.business }, t.customer_id);
      return (
        <div className="flex flex-col">
          <Link href={`/customers/${t.customer_id}`} className="font-medium hover:underline">
            {party.name}
          </Link>
          {party.secondary && <span className="text-xs text-slate-500">{party.secondary}</span>}
        </div>
      );
    },
  },
  {
    key: "status",
    header: "Status",
    cell: (t) => (
      <div className="flex flex-col items-start gap-1">
        <TransactionStatusBadge status={t.status} />
        {refundLabel(t) && <span className="text-xs text-slate-600">{refundLabel(t)}</span>}
      </div>
    ),
  },
  { key: "mode", header: "Collection", cell: (t) => humanize(t.collection_mode) },
  {
    key: "total",
    header: "Grand total",
    className: "whitespace-nowrap text-right",
    cell: (t) =>
      refundLabel(t) ? (
        <div className="flex flex-col items-end">
          <Amount amount={t.details.adjusted_totals.grand_total} currency={t.currency_code} />
          <span className="text-xs text-slate-500 line-through">
            <span className="sr-only">was </span>
            <Amount amount={t.details.totals.grand_total} currency={t.currency_code} />
          </span>
        </div>
      ) : (
        <Amount amount={t.details.totals.grand_total} currency={t.currency_code} />
      ),
  },
  {
    key: "billed",
    header: "Billed",
    sortField: "billed_at",
    className: "whitespace-nowrap",
    cell: (t) => (t.billed_at ? <DateCell value={t.billed_at} /> : dash),
  },
  createdColumn(),
];

/** What the search box holds: an ID, an invoice number (letters, digits, no spaces or "@"), or a customer. */
function searchTarget(term: string): { kind: "transaction" | "customer_id" | "invoice" | "customer"; term: string } {
  if (term.startsWith("txn_")) return { kind: "transaction", term };
  if (isCustomerId(term)) return { kind: "customer_id", term };
  if (/\d/.test(term) && !/[\s@]/.test(term)) return { kind: "invoice", term };
  return { kind: "customer", term };
}

export function TransactionsView() {
  const { search, setSearch, status, setStatus, orderBy, order, params, choice, setFilters, pagination } =
    useListFilters("");
  const mode = choice("collection_mode", COLLECTION_MODE_OPTIONS);
  const payment = choice("payment", PAYMENT_OPTIONS);
  const setPayment = (value: string) => setFilters({ payment: value || undefined });
  const range = { from: params.get("from") ?? "", to: params.get("to") ?? "" };
  const setMode = (value: string) => setFilters({ collection_mode: value || undefined });
  const setRange = (value: { from: string; to: string }) =>
    setFilters({ from: value.from || undefined, to: value.to || undefined });
  // The search box takes a transaction ID, an invoice number, a customer ID, or an email (or part
  // of one, or a name): the customers that match it (GET /customers?search=, at most a page of
  // them) and then their transactions.
  const target = searchTarget(search);
  const customer = target.kind === "customer" ? target.term : "";
  const matched = useCustomerMatch(target.kind === "customer" || target.kind === "customer_id" ? target.term : null);
  const { searching, noMatches: noCustomerMatches } = matched;

  const listParams = {
    status,
    collection_mode: mode,
    payment_failed: payment === "failed" ? "true" : undefined,
    id: target.kind === "transaction" ? target.term : undefined,
    invoice_number: target.kind === "invoice" ? target.term : undefined,
    customer_id: matched.customerId,
    "created_at[GTE]": range.from ? startOfDayIso(range.from) : undefined,
    "created_at[LT]": range.to ? startOfNextDayIso(range.to) : undefined,
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: orderBy,
  };
  const list = useTransactions(listParams, !searching && !noCustomerMatches);
  const filtered =
    status !== "" || mode !== "" || payment !== "" || search !== "" || range.from !== "" || range.to !== "";

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Transactions"
        description="Charges to customers: checkouts, invoices and subscription renewals. Create invoices here, or any transaction through the API with POST /transactions."
        actions={
          <>
            <ExportLink list="transactions" params={{ ...listParams, include: "customer,business" }} lineItems />
            <Allowed permission="transaction.write" action="create invoices">
              <ButtonLink href="/transactions/new">New invoice</ButtonLink>
            </Allowed>
          </>
        }
      />

      <ListFilters
        search={{
          label: "Search transactions",
          placeholder: "Invoice number, transaction ID, customer or email",
          maxLength: 100,
          initialValue: search,
          onSearch: setSearch,
        }}
        status={status}
        options={STATUS_OPTIONS}
        onStatus={setStatus}
        filters={
          <>
            <DateRange label="Created" from={range.from} to={range.to} onChange={setRange} />
            <StatusFilter label="Collection" value={mode} options={COLLECTION_MODE_OPTIONS} onChange={setMode} />
            <StatusFilter label="Payment" value={payment} options={PAYMENT_OPTIONS} onChange={setPayment} />
          </>
        }
      />
      {noCustomerMatches ? (
        <div role="status" className="rounded-md border border-dashed border-slate-300">
          <EmptyState
            title="No customer matches"
            description={`No customer's email or name contains "${customer}". Enter an email, part of one, a customer ID or an invoice number.`}
          />
        </div>
      ) : (
        <PagedTable
          caption="Transactions"
          columns={COLUMNS}
          rowKey={(t) => t.id}
          list={list}
          pagination={pagination}
          order={order}
          empty={
            filtered ? (
              <EmptyState
                title="No transactions match"
                description="Try another status, collection mode, payment, customer or date range."
              />
            ) : (
              <EmptyState
                title="No transactions yet"
                description="Transactions appear here once they are created through the API with POST /transactions, or by checkouts and subscriptions."
              />
            )
          }
        />
      )}
    </div>
  );
}
