"use client";

import Link from "next/link";
import { useState } from "react";
import { ButtonLink } from "@/components/button";
import type { Column } from "@/components/data-table";
import { DateRange } from "@/components/date-range";
import { createdColumn, ListFilters, PagedTable, PER_PAGE, useListFilters } from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusFilter } from "@/components/status-filter";
import { humanize } from "@/lib/client/format";
import { type Customer, keys, NEWEST_FIRST, useList } from "@/lib/client/hooks";
import {
  COLLECTION_MODES,
  isCustomerId,
  startOfDayIso,
  startOfNextDayIso,
  TRANSACTION_STATUSES,
  type TransactionWithIncludes,
  useTransactions,
} from "@/lib/client/transactions";
import { Amount, TransactionStatusBadge, transactionPath } from "./transaction-parts";

const STATUS_OPTIONS = [
  { value: "", label: "All" },
  ...TRANSACTION_STATUSES.map((status) => ({ value: status, label: humanize(status) })),
];

const MODE_OPTIONS = [
  { value: "", label: "All" },
  ...COLLECTION_MODES.map((mode) => ({ value: mode, label: humanize(mode) })),
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
    cell: (t) =>
      t.customer_id ? (
        <Link href={`/customers/${t.customer_id}`} className="hover:underline">
          {t.customer?.email ?? <span className="font-mono text-xs">{t.customer_id}</span>}
        </Link>
      ) : (
        dash
      ),
  },
  { key: "status", header: "Status", cell: (t) => <TransactionStatusBadge status={t.status} /> },
  { key: "mode", header: "Collection", cell: (t) => humanize(t.collection_mode) },
  {
    key: "total",
    header: "Grand total",
    className: "text-right",
    cell: (t) => <Amount amount={t.details.totals.grand_total} currency={t.currency_code} />,
  },
  createdColumn(),
];

export function TransactionsView() {
  const { search: customer, setSearch: setCustomer, status, setStatus, pagination } = useListFilters("");
  const [mode, setModeValue] = useState("");
  const [range, setRangeValue] = useState({ from: "", to: "" });
  const setMode = (value: string) => {
    setModeValue(value);
    pagination.reset();
  };
  const setRange = (value: { from: string; to: string }) => {
    setRangeValue(value);
    pagination.reset();
  };
  // The customer filter takes an ID, or an email (or part of one, or a name): the customers that
  // match it (GET /customers?search=, at most a page of them) and then their transactions.
  const byId = customer === "" || isCustomerId(customer);
  const matching = useList<Customer>(keys.customerLists, "/customers", { search: customer, per_page: 50 }, !byId);
  const matchingIds = byId ? [] : (matching.data?.data.map((c) => c.id) ?? []);
  const searching = !byId && (matching.isLoading || matching.isPlaceholderData);
  const noCustomerMatches = !byId && !searching && matchingIds.length === 0;

  const list = useTransactions(
    {
      status,
      collection_mode: mode,
      customer_id: byId ? customer : matchingIds.join(","),
      "created_at[GTE]": range.from ? startOfDayIso(range.from) : undefined,
      "created_at[LT]": range.to ? startOfNextDayIso(range.to) : undefined,
      after: pagination.after,
      per_page: PER_PAGE,
      order_by: NEWEST_FIRST,
    },
    !searching && !noCustomerMatches,
  );
  const filtered = status !== "" || mode !== "" || customer !== "" || range.from !== "" || range.to !== "";

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Transactions"
        description="Charges to customers: checkouts, invoices and subscription renewals. Create invoices here, or any transaction through the API with POST /transactions."
        actions={<ButtonLink href="/transactions/new">New invoice</ButtonLink>}
      />

      <ListFilters
        search={{
          label: "Filter by customer ID or email",
          placeholder: "Customer ID (ctm_…) or email",
          maxLength: 100,
          onSearch: setCustomer,
        }}
        status={status}
        options={STATUS_OPTIONS}
        onStatus={setStatus}
        filters={
          <>
            <DateRange label="Created" from={range.from} to={range.to} onChange={setRange} />
            <StatusFilter label="Collection" value={mode} options={MODE_OPTIONS} onChange={setMode} />
          </>
        }
      />
      {noCustomerMatches ? (
        <div role="status" className="rounded-md border border-dashed border-slate-300">
          <EmptyState
            title="No customer matches"
            description={`No customer's email or name contains "${customer}". Enter an email, part of one, or a customer ID.`}
          />
        </div>
      ) : (
        <PagedTable
          caption="Transactions"
          columns={COLUMNS}
          rowKey={(t) => t.id}
          list={list}
          pagination={pagination}
          empty={
            filtered ? (
              <EmptyState
                title="No transactions match"
                description="Try another status, collection mode, customer or date range."
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
