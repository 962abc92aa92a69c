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
import { countryName } from "@/lib/client/format";
import { type Address, NEWEST_FIRST, useAddresses, useCreateAddress, useUpdateAddress } from "@/lib/client/hooks";
import { AddressForm } from "./address-form";

const PER_PAGE = 10;
const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "active,archived", label: "All" },
] as const;

/** How an address is named in buttons and dialogs. */
function addressLabel(address: Address): string {
  return address.description ?? address.first_line ?? `${countryName(address.country_code)} address`;
}

export function AddressesSection({ customerId }: { customerId: string }) {
  const [status, setStatus] = useState("active");
  const [editing, setEditing] = useState<Address | "new" | null>(null);
  const [archiving, setArchiving] = useState<Address | null>(null);
  const pagination = useCursorPagination();
  const [opener, restoreFocus] = useFocusReturn();
  const list = useAddresses(customerId, {
    status,
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: NEWEST_FIRST,
  });
  const create = useCreateAddress(customerId);
  const update = useUpdateAddress(customerId);
  const statusChange = useUpdateAddress(customerId);
  const toast = useToast();
  const rows = list.data?.data;

  async function setAddressStatus(address: Address, next: "active" | "archived") {
    try {
      await statusChange.mutateAsync({ id: address.id, input: { status: next } });
      setArchiving(null);
      toast.show(next === "archived" ? "Address archived." : "Address restored.");
    } catch (error) {
      if (next === "active")
        toast.show(error instanceof Error ? error.message : "Could not restore the address.", "error");
    }
  }

  const columns: Column<Address>[] = [
    {
      key: "address",
      header: "Address",
      cell: (a) => (
        <div>
          {a.description && <p className="font-medium text-slate-900">{a.description}</p>}
          <p>
            {[a.first_line, a.second_line].filter(Boolean).join(", ") || (
              <span className="text-slate-400">No street address</span>
            )}
          </p>
          <p className="text-slate-500">{[a.city, a.region].filter(Boolean).join(", ")}</p>
        </div>
      ),
    },
    {
      key: "postal_code",
      header: "Postal code",
      cell: (a) => a.postal_code ?? <span className="text-slate-400">—</span>,
    },
    { key: "country", header: "Country", cell: (a) => `${countryName(a.country_code)} (${a.country_code})` },
    { key: "status", header: "Status", cell: (a) => <StatusBadge status={a.status} /> },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right whitespace-nowrap",
      cell: (a) => (
        <div className="flex justify-end gap-1">
          <Button variant="ghost" size="sm" onClick={() => setEditing(a)} aria-label={`Edit ${addressLabel(a)}`}>
            Edit
          </Button>
          {a.status === "active" ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700 hover:bg-red-50"
              onClick={() => {
                statusChange.reset();
                setArchiving(a);
              }}
              aria-label={`Archive ${addressLabel(a)}`}
            >
              Archive
            </Button>
          ) : (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setAddressStatus(a, "active")}
              aria-label={`Restore ${addressLabel(a)}`}
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
      id="addresses"
      title="Addresses"
      description="Where the customer is, for tax calculation and invoices."
      actions={
        <>
          <StatusFilter
            label="Status"
            context="Address"
            value={status}
            options={STATUS_OPTIONS}
            onChange={(value) => {
              setStatus(value);
              pagination.reset();
            }}
          />
          <Button ref={opener} onClick={() => setEditing("new")} disabled={editing !== null}>
            New address
          </Button>
        </>
      }
    >
      {editing && (
        <div className="mb-5 rounded-md border border-slate-200 bg-slate-50 p-4">
          <h3 className="mb-3 text-sm font-semibold text-slate-900">
            {editing === "new" ? "New address" : `Edit ${addressLabel(editing)}`}
          </h3>
          {editing === "new" ? (
            <AddressForm
              onSubmit={(body) => create.mutateAsync(body)}
              onSaved={() => {
                setEditing(null);
                restoreFocus();
                pagination.reset();
                toast.show("Address added.");
              }}
              onCancel={() => {
                setEditing(null);
                restoreFocus();
              }}
            />
          ) : (
            <AddressForm
              key={editing.id}
              address={editing}
              onSubmit={(input) => update.mutateAsync({ id: editing.id, input })}
              onSaved={(saved) => {
                setEditing(null);
                restoreFocus();
                toast.show(saved ? "Address saved." : "Nothing changed.", saved ? "success" : "info");
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
        caption="Addresses"
        columns={columns}
        rows={rows}
        rowKey={(a) => a.id}
        isLoading={list.isLoading}
        isRefreshing={list.isPlaceholderData}
        error={list.error}
        onRetry={() => list.refetch()}
        skeletonRows={2}
        empty={
          status === "active" ? (
            <EmptyState
              title="No addresses"
              description="Add an address to calculate tax on this customer's transactions."
              action={
                editing === null && (
                  <Button variant="secondary" onClick={() => setEditing("new")}>
                    Add the first address
                  </Button>
                )
              }
            />
          ) : (
            <EmptyState title="No addresses with this status" />
          )
        }
        footer={
          <PaginationControls
            label="Addresses pages"
            pagination={pagination}
            meta={list.data?.meta.pagination}
            shown={rows?.length ?? 0}
            disabled={list.isFetching}
          />
        }
      />
      <ConfirmDialog
        open={archiving !== null}
        title="Archive this address?"
        description={
          archiving && (
            <>
              <strong>{addressLabel(archiving)}</strong> will no longer be offered for new transactions. You can restore
              it later.
            </>
          )
        }
        confirmLabel="Archive address"
        pending={statusChange.isPending}
        error={statusChange.error?.message}
        onConfirm={() => archiving && setAddressStatus(archiving, "archived")}
        onCancel={() => setArchiving(null)}
      />
    </Section>
  );
}
