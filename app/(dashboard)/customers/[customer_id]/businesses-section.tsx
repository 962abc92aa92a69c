"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { type Column, DataTable } from "@/components/data-table";
import { useFocusReturn } from "@/components/focus";
import { Section } from "@/components/page-header";
import { PaginationControls, useCursorPagination } from "@/components/pagination";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { StatusFilter } from "@/components/status-filter";
import { useToast } from "@/components/toast";
import { pluralize } from "@/lib/client/format";
import { type Business, NEWEST_FIRST, useBusinesses, useCreateBusiness, useUpdateBusiness } from "@/lib/client/hooks";
import { BusinessForm } from "./business-form";

const PER_PAGE = 10;
const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "active,archived", label: "All" },
] as const;

const dash = <span className="text-slate-400">—</span>;

export function BusinessesSection({ customerId }: { customerId: string }) {
  const [status, setStatus] = useState("active");
  const [editing, setEditing] = useState<Business | "new" | null>(null);
  const [archiving, setArchiving] = useState<Business | null>(null);
  const pagination = useCursorPagination();
  const [opener, restoreFocus] = useFocusReturn();
  const list = useBusinesses(customerId, {
    status,
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: NEWEST_FIRST,
  });
  const create = useCreateBusiness(customerId);
  const update = useUpdateBusiness(customerId);
  const statusChange = useUpdateBusiness(customerId);
  const toast = useToast();
  const rows = list.data?.data;

  async function setBusinessStatus(business: Business, next: "active" | "archived") {
    try {
      await statusChange.mutateAsync({ id: business.id, input: { status: next } });
      setArchiving(null);
      toast.show(next === "archived" ? "Business archived." : "Business restored.");
    } catch (error) {
      if (next === "active")
        toast.show(error instanceof Error ? error.message : "Could not restore the business.", "error");
    }
  }

  const columns: Column<Business>[] = [
    { key: "name", header: "Name", cell: (b) => <span className="font-medium text-slate-900">{b.name}</span> },
    { key: "company_number", header: "Company number", cell: (b) => b.company_number ?? dash },
    { key: "tax_identifier", header: "Tax identifier", cell: (b) => b.tax_identifier ?? dash },
    {
      key: "contacts",
      header: "Contacts",
      cell: (b) =>
        b.contacts.length === 0 ? (
          dash
        ) : (
          <div>
            <p>{pluralize(b.contacts.length, "contact")}</p>
            <p className="max-w-56 truncate text-slate-500" title={b.contacts.map((c) => c.email).join(", ")}>
              {b.contacts.map((c) => c.email).join(", ")}
            </p>
          </div>
        ),
    },
    { key: "status", header: "Status", cell: (b) => <StatusBadge status={b.status} /> },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right whitespace-nowrap",
      cell: (b) => (
        <div className="flex justify-end gap-1">
          <Button variant="ghost" size="sm" onClick={() => setEditing(b)} aria-label={`Edit ${b.name}`}>
            Edit
          </Button>
          {b.status === "active" ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700 hover:bg-red-50"
              onClick={() => {
                statusChange.reset();
                setArchiving(b);
              }}
              aria-label={`Archive ${b.name}`}
            >
              Archive
            </Button>
          ) : (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setBusinessStatus(b, "active")}
              aria-label={`Restore ${b.name}`}
            >
              Restore
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <Section
      id="businesses"
      title="Businesses"
      description="Companies the customer buys for: their names and tax numbers appear on invoices."
      actions={
        <>
          <StatusFilter
            label="Status"
            context="Business"
            value={status}
            options={STATUS_OPTIONS}
            onChange={(value) => {
              setStatus(value);
              pagination.reset();
            }}
          />
          <Button ref={opener} onClick={() => setEditing("new")} disabled={editing !== null}>
            New business
          </Button>
        </>
      }
    >
      {editing && (
        <div className="mb-5 rounded-md border border-slate-200 bg-slate-50 p-4">
          <h3 className="mb-3 text-sm font-semibold text-slate-900">
            {editing === "new" ? "New business" : `Edit ${editing.name}`}
          </h3>
          {editing === "new" ? (
            <BusinessForm
              onSubmit={(body) => create.mutateAsync(body)}
              onSaved={() => {
                setEditing(null);
                restoreFocus();
                pagination.reset();
                toast.show("Business added.");
              }}
              onCancel={() => {
                setEditing(null);
                restoreFocus();
              }}
            />
          ) : (
            <BusinessForm
              key={editing.id}
              business={editing}
              onSubmit={(input) => update.mutateAsync({ id: editing.id, input })}
              onSaved={(saved) => {
                setEditing(null);
                restoreFocus();
                toast.show(saved ? "Business saved." : "Nothing changed.", saved ? "success" : "info");
              }}
              onCancel={() => {
                setEditing(null);
                restoreFocus();
              }}
            />
          )}
        </div>
      )}
      <DataTable
        caption="Businesses"
        columns={columns}
        rows={rows}
        rowKey={(b) => b.id}
        isLoading={list.isLoading}
        isRefreshing={list.isPlaceholderData}
        error={list.error}
        onRetry={() => list.refetch()}
        skeletonRows={2}
        empty={
          status === "active" ? (
            <EmptyState
              title="No businesses"
              description="Add a business when this customer buys on behalf of a company."
              action={
                editing === null && (
                  <Button variant="secondary" onClick={() => setEditing("new")}>
                    Add the first business
                  </Button>
                )
              }
            />
          ) : (
            <EmptyState title="No businesses with this status" />
          )
        }
        footer={
          <PaginationControls
            label="Businesses pages"
            pagination={pagination}
            meta={list.data?.meta.pagination}
            shown={rows?.length ?? 0}
            disabled={list.isFetching}
          />
        }
      />
      <ConfirmDialog
        open={archiving !== null}
        title="Archive this business?"
        description={
          archiving && (
            <>
              <strong>{archiving.name}</strong> will no longer be offered for new transactions. You can restore it
              later.
            </>
          )
        }
        confirmLabel="Archive business"
        pending={statusChange.isPending}
        error={statusChange.error?.message}
        onConfirm={() => archiving && setBusinessStatus(archiving, "archived")}
        onCancel={() => setArchiving(null)}
      />
    </Section>
  );
}
