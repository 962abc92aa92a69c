"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/button";
import { type Column, DataTable } from "@/components/data-table";
import { useFocusReturn } from "@/components/focus";
import { PageHeader } from "@/components/page-header";
import { PaginationControls, useCursorPagination } from "@/components/pagination";
import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { StatusFilter } from "@/components/status-filter";
import { useToast } from "@/components/toast";
import { formatDate, formatDateTime } from "@/lib/client/format";
import { type Customer, NEWEST_FIRST, useCreateCustomer, useCustomers } from "@/lib/client/hooks";
import { CustomerForm } from "./customer-form";

const PER_PAGE = 25;

const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "active,archived", label: "All" },
] as const;

const COLUMNS: Column<Customer>[] = [
  {
    key: "email",
    header: "Email",
    cell: (c) => (
      <Link href={`/customers/${c.id}`} className="font-medium text-brand-700 hover:underline">
        {c.email}
      </Link>
    ),
  },
  { key: "name", header: "Name", cell: (c) => c.name ?? <span className="text-slate-400">—</span> },
  { key: "status", header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
  {
    key: "created",
    header: "Created",
    className: "whitespace-nowrap",
    cell: (c) => (
      <time dateTime={c.created_at} title={formatDateTime(c.created_at)}>
        {formatDate(c.created_at)}
      </time>
    ),
  },
];

export function CustomersView() {
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("active");
  const [creating, setCreating] = useState(false);
  const pagination = useCursorPagination();
  const toast = useToast();
  const create = useCreateCustomer();
  const formId = useId();
  const [opener, restoreFocus] = useFocusReturn();

  const list = useCustomers({ search, status, after: pagination.after, per_page: PER_PAGE, order_by: NEWEST_FIRST });
  const rows = list.data?.data;
  const filtered = search !== "" || status !== "active";

  const newCustomerButton = (withRef: boolean) => (
    <Button
      ref={withRef ? opener : undefined}
      onClick={() => setCreating(true)}
      aria-expanded={creating}
      aria-controls={formId}
      disabled={creating}
    >
      New customer
    </Button>
  );

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Customers"
        description="The people and companies you bill. Customers hold addresses and businesses used on transactions."
        actions={newCustomerButton(true)}
      />

      {creating && (
        <section
          id={formId}
          aria-labelledby={`${formId}-title`}
          className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id={`${formId}-title`} className="mb-4 text-base font-semibold">
            New customer
          </h2>
          <CustomerForm
            mode="create"
            onSubmit={(body) => create.mutateAsync(body)}
            onSaved={(customer) => {
              setCreating(false);
              restoreFocus();
              pagination.reset();
              if (customer) {
                toast.show(
                  <>
                    Customer{" "}
                    <Link href={`/customers/${customer.id}`} className="font-medium underline">
                      {customer.email}
                    </Link>{" "}
                    created.
                  </>,
                );
              }
            }}
            onCancel={() => {
              setCreating(false);
              restoreFocus();
            }}
          />
        </section>
      )}

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <SearchInput
          label="Search customers"
          placeholder="Search by email, name or ID"
          onSearch={(term) => {
            setSearch(term);
            pagination.reset();
          }}
        />
        <StatusFilter
          value={status}
          options={STATUS_OPTIONS}
          onChange={(value) => {
            setStatus(value);
            pagination.reset();
          }}
        />
      </div>

      <DataTable
        caption="Customers"
        columns={COLUMNS}
        rows={rows}
        rowKey={(c) => c.id}
        isLoading={list.isLoading}
        isRefreshing={list.isPlaceholderData}
        error={list.error}
        onRetry={() => list.refetch()}
        empty={
          filtered ? (
            <EmptyState
              title="No customers match"
              description={search ? `Nothing matches “${search}” with this status.` : "No customers have this status."}
            />
          ) : (
            <EmptyState
              title="No customers yet"
              description="Create a customer here, or through the API with POST /customers."
              action={!creating && newCustomerButton(false)}
            />
          )
        }
        footer={
          <PaginationControls
            label="Customers pages"
            pagination={pagination}
            meta={list.data?.meta.pagination}
            shown={rows?.length ?? 0}
            disabled={list.isFetching}
          />
        }
      />
    </div>
  );
}
