"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/button";
import { type Column, DataTable } from "@/components/data-table";
import { useFocusReturn } from "@/components/focus";
import { PageHeader } from "@/components/page-header";
import { PaginationControls, useCursorPagination } from "@/components/pagination";
import { ProductImage } from "@/components/product-image";
import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { StatusFilter } from "@/components/status-filter";
import { useToast } from "@/components/toast";
import { type ProductWithPrices, useCreateProduct, useProducts } from "@/lib/client/catalogue";
import { formatDate, formatDateTime, pluralize, taxCategoryLabel } from "@/lib/client/format";
import { NEWEST_FIRST } from "@/lib/client/hooks";
import { billingCycleText, formatMoney } from "@/lib/client/money";
import { ProductForm } from "./product-form";

const PER_PAGE = 25;

const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "active,archived", label: "All" },
] as const;

/** "$10.50 / month", the first active price, and how many more. */
function pricesSummary(product: ProductWithPrices) {
  const active = product.prices.filter((p) => p.status === "active");
  if (active.length === 0) return <span className="text-slate-400">No active prices</span>;
  const first = active[0];
  return (
    <span>
      {formatMoney(first.unit_price.amount, first.unit_price.currency_code)}{" "}
      <span className="text-slate-500">{billingCycleText(first.billing_cycle).toLowerCase()}</span>
      {active.length > 1 && (
        <span className="block text-xs text-slate-500">and {pluralize(active.length - 1, "more price")}</span>
      )}
    </span>
  );
}

const COLUMNS: Column<ProductWithPrices>[] = [
  {
    key: "name",
    header: "Product",
    cell: (p) => (
      <div className="flex items-center gap-3">
        <ProductImage url={p.image_url} alt="" />
        <div className="min-w-0">
          <Link href={`/catalogue/products/${p.id}`} className="font-medium text-brand-700 hover:underline">
            {p.name}
          </Link>
          {p.description && (
            <p className="max-w-80 truncate text-xs text-slate-500" title={p.description}>
              {p.description}
            </p>
          )}
        </div>
      </div>
    ),
  },
  { key: "prices", header: "Prices", cell: pricesSummary },
  { key: "tax_category", header: "Tax category", cell: (p) => taxCategoryLabel(p.tax_category) },
  { key: "type", header: "Type", cell: (p) => (p.type === "standard" ? "Standard" : "Custom") },
  { key: "status", header: "Status", cell: (p) => <StatusBadge status={p.status} /> },
  {
    key: "created",
    header: "Created",
    className: "whitespace-nowrap",
    cell: (p) => (
      <time dateTime={p.created_at} title={formatDateTime(p.created_at)}>
        {formatDate(p.created_at)}
      </time>
    ),
  },
];

export function ProductsView() {
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("active");
  const [creating, setCreating] = useState(false);
  const pagination = useCursorPagination();
  const toast = useToast();
  const create = useCreateProduct();
  const formId = useId();
  const [opener, restoreFocus] = useFocusReturn();

  const list = useProducts({
    status,
    search: search || undefined,
    include: "prices",
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: NEWEST_FIRST,
  });
  const rows = list.data?.data;
  const filtered = search !== "" || status !== "active";

  const newProductButton = (withRef: boolean) => (
    <Button
      ref={withRef ? opener : undefined}
      onClick={() => setCreating(true)}
      aria-expanded={creating}
      aria-controls={formId}
      disabled={creating}
    >
      New product
    </Button>
  );

  return (
    <div>
      <PageHeader
        title="Products"
        description="What you sell. Each product has prices: one-time or recurring, in any currency, with prices per country."
        actions={newProductButton(true)}
      />

      {creating && (
        <section
          id={formId}
          aria-labelledby={`${formId}-title`}
          className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id={`${formId}-title`} className="mb-4 text-base font-semibold">
            New product
          </h2>
          <ProductForm
            mode="create"
            onSubmit={(body) => create.mutateAsync(body)}
            onSaved={(product) => {
              setCreating(false);
              restoreFocus();
              pagination.reset();
              if (product) {
                toast.show(
                  <>
                    Product{" "}
                    <Link href={`/catalogue/products/${product.id}`} className="font-medium underline">
                      {product.name}
                    </Link>{" "}
                    created. Add its prices on its page.
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
          label="Search products"
          placeholder="Name, description or product ID"
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
        caption="Products"
        columns={COLUMNS}
        rows={rows}
        rowKey={(p) => p.id}
        isLoading={list.isLoading}
        isRefreshing={list.isPlaceholderData}
        error={list.error}
        onRetry={() => list.refetch()}
        empty={
          filtered ? (
            <EmptyState
              title="No products match"
              description={
                search
                  ? `Nothing matches “${search}” with this status.`
                  : status === "archived"
                    ? "No products are archived."
                    : "No products have this status."
              }
            />
          ) : (
            <EmptyState
              title="No products yet"
              description="Create a product, then give it prices. Or use the API: POST /products."
              action={!creating && newProductButton(false)}
            />
          )
        }
        footer={
          <PaginationControls
            label="Products pages"
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
