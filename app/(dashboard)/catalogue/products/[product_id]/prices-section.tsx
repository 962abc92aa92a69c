"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { type Column, DataTable } from "@/components/data-table";
import { EntityId } from "@/components/entity-text";
import { useFocusReturn } from "@/components/focus";
import { Section } from "@/components/page-header";
import { PaginationControls, useCursorPagination } from "@/components/pagination";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { StatusFilter } from "@/components/status-filter";
import { useToast } from "@/components/toast";
import { type Price, type Product, useCreatePrice, usePrices, useUpdatePrice } from "@/lib/client/catalogue";
import { countryName, pluralize } from "@/lib/client/format";
import { NEWEST_FIRST } from "@/lib/client/hooks";
import { billingCycleText, formatMoney, trialText } from "@/lib/client/money";
import { PriceForm } from "./price-form";

const PER_PAGE = 10;
const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "active,archived", label: "All" },
] as const;

const TAX_MODE_SHORT: Record<string, string> = {
  account_setting: "Account setting",
  external: "Tax added",
  internal: "Tax included",
};

/** How a price is named in buttons and dialogs. */
function priceLabel(price: Price): string {
  return price.name ?? price.description;
}

function overridesText(price: Price): string {
  return price.unit_price_overrides
    .map(
      (o) =>
        `${o.country_codes.map((c) => countryName(c)).join(", ")}: ${formatMoney(o.unit_price.amount, o.unit_price.currency_code)}`,
    )
    .join("\n");
}

/** The product's prices: a table with a status filter, and add, edit, archive and unarchive. */
export function PricesSection({ product }: { product: Product }) {
  const [status, setStatus] = useState("active");
  const [editing, setEditing] = useState<Price | "new" | null>(null);
  const [archiving, setArchiving] = useState<Price | null>(null);
  const pagination = useCursorPagination();
  const [opener, restoreFocus] = useFocusReturn();
  const list = usePrices({
    product_id: product.id,
    status,
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: NEWEST_FIRST,
  });
  const create = useCreatePrice();
  const update = useUpdatePrice();
  const statusChange = useUpdatePrice();
  const toast = useToast();
  const rows = list.data?.data;
  const productArchived = product.status === "archived";

  async function setPriceStatus(price: Price, next: "active" | "archived") {
    try {
      await statusChange.mutateAsync({ id: price.id, input: { status: next } });
      setArchiving(null);
      toast.show(next === "archived" ? "Price archived." : "Price unarchived.");
    } catch (error) {
      if (next === "active") {
        toast.show(error instanceof Error ? error.message : "Could not unarchive the price.", "error");
      }
    }
  }

  const columns: Column<Price>[] = [
    {
      key: "price",
      header: "Price",
      cell: (p) => (
        <div className="max-w-64">
          <p className="font-medium text-slate-900">{p.description}</p>
          {p.name && <p className="text-xs text-slate-600">Shown as “{p.name}”</p>}
          <EntityId id={p.id} />
        </div>
      ),
    },
    {
      key: "amount",
      header: "Amount",
      className: "whitespace-nowrap",
      cell: (p) => (
        <div>
          <p className="font-medium text-slate-900 tabular-nums">
            {formatMoney(p.unit_price.amount, p.unit_price.currency_code)}
          </p>
          {p.unit_price_overrides.length > 0 && (
            <p className="text-xs text-slate-500" title={overridesText(p)}>
              + {pluralize(p.unit_price_overrides.length, "country price")}
            </p>
          )}
        </div>
      ),
    },
    {
      key: "billing",
      header: "Billing",
      className: "whitespace-nowrap",
      cell: (p) => (
        <div>
          <p>{billingCycleText(p.billing_cycle)}</p>
          {p.trial_period && <p className="text-xs text-slate-500">{trialText(p.trial_period)}</p>}
        </div>
      ),
    },
    {
      key: "quantity",
      header: "Quantity",
      className: "whitespace-nowrap tabular-nums",
      cell: (p) => `${p.quantity.minimum.toLocaleString()}–${p.quantity.maximum.toLocaleString()}`,
    },
    { key: "tax_mode", header: "Tax", cell: (p) => TAX_MODE_SHORT[p.tax_mode] ?? p.tax_mode },
    { key: "status", header: "Status", cell: (p) => <StatusBadge status={p.status} /> },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right whitespace-nowrap",
      cell: (p) =>
        productArchived ? null : (
          <div className="flex justify-end gap-1">
            {p.status === "active" ? (
              <>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setEditing(p)}
                  disabled={editing !== null}
                  aria-label={`Edit ${priceLabel(p)}`}
                >
                  Edit
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-700 hover:bg-red-50"
                  onClick={() => {
                    statusChange.reset();
                    setArchiving(p);
                  }}
                  aria-label={`Archive ${priceLabel(p)}`}
                >
                  Archive
                </Button>
              </>
            ) : (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setPriceStatus(p, "active")}
                aria-label={`Unarchive ${priceLabel(p)}`}
              >
                Unarchive
              </Button>
            )}
          </div>
        ),
    },
  ];

  const close = () => {
    setEditing(null);
    restoreFocus();
  };

  return (
    <Section
      id="prices"
      title="Prices"
      description={
        productArchived
          ? "This product is archived: unarchive it to add or change prices."
          : "What customers pay for this product: one-time or recurring, with prices per country."
      }
      actions={
        <>
          <StatusFilter
            label="Status"
            context="Price"
            value={status}
            options={STATUS_OPTIONS}
            onChange={(value) => {
              setStatus(value);
              pagination.reset();
            }}
          />
          {!productArchived && (
            <Button ref={opener} onClick={() => setEditing("new")} disabled={editing !== null}>
              Add price
            </Button>
          )}
        </>
      }
    >
      {editing && (
        <div className="mb-5 rounded-md border border-slate-200 bg-slate-50 p-4">
          <h3 className="mb-3 text-sm font-semibold text-slate-900">
            {editing === "new" ? "New price" : `Edit ${priceLabel(editing)}`}
          </h3>
          {editing === "new" ? (
            <PriceForm
              productId={product.id}
              onSubmit={(body) => create.mutateAsync(body)}
              onSaved={() => {
                close();
                pagination.reset();
                toast.show("Price added.");
              }}
              onCancel={close}
            />
          ) : (
            <PriceForm
              key={editing.id}
              productId={product.id}
              price={editing}
              onSubmit={(input) => update.mutateAsync({ id: editing.id, input })}
              onSaved={(saved) => {
                close();
                toast.show(saved ? "Price saved." : "Nothing changed.", saved ? "success" : "info");
              }}
              onCancel={close}
            />
          )}
        </div>
      )}
      <DataTable
        caption="Prices"
        columns={columns}
        rows={rows}
        rowKey={(p) => p.id}
        isLoading={list.isLoading}
        isRefreshing={list.isPlaceholderData}
        error={list.error}
        onRetry={() => list.refetch()}
        skeletonRows={2}
        empty={
          status === "active" ? (
            <EmptyState
              title="No prices"
              description={
                productArchived
                  ? "This product has no active prices."
                  : "Add a price so customers can buy this product."
              }
              action={
                !productArchived &&
                editing === null && (
                  <Button variant="secondary" onClick={() => setEditing("new")}>
                    Add the first price
                  </Button>
                )
              }
            />
          ) : (
            <EmptyState title="No prices with this status" />
          )
        }
        footer={
          <PaginationControls
            label="Prices pages"
            pagination={pagination}
            meta={list.data?.meta.pagination}
            shown={rows?.length ?? 0}
            disabled={list.isFetching}
          />
        }
      />
      <ConfirmDialog
        open={archiving !== null}
        title="Archive this price?"
        description={
          archiving && (
            <>
              <strong>{priceLabel(archiving)}</strong> can no longer be used on new checkouts, transactions or
              subscriptions. Existing subscriptions keep it. You can unarchive it later.
            </>
          )
        }
        confirmLabel="Archive price"
        pending={statusChange.isPending}
        error={statusChange.error?.message}
        onConfirm={() => archiving && setPriceStatus(archiving, "archived")}
        onCancel={() => setArchiving(null)}
      />
    </Section>
  );
}
