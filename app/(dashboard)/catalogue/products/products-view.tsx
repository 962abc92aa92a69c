"use client";

import Link from "next/link";
import type { Column } from "@/components/data-table";
import { ExportLink } from "@/components/export-link";
import {
  ACTIVE_ARCHIVED_OPTIONS,
  createdColumn,
  createdToast,
  ListFilters,
  PagedTable,
  PanelSection,
  PER_PAGE,
  useListFilters,
  usePanel,
} from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { ProductImage } from "@/components/product-image";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { type ProductWithPrices, useCreateProduct, useProducts } from "@/lib/dashboard/catalogue";
import { pluralize, taxCategoryLabel } from "@/lib/dashboard/display";
import { billingCycleText, formatMoney } from "@/lib/dashboard/money";
import { Allowed } from "@/lib/dashboard/permissions";
import { ProductForm } from "./product-form";

/** "$10.50 / month", the first active price, and how many more. */
function pricesSummary(product: ProductWithPrices) {
  const active = product.prices.filter((p) => p.status === "active");
  const [first] = active;
  if (!first) return <span className="text-slate-500">No active prices</span>;
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
    sortField: "name",
    sortAscendingFirst: true,
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
  {
    key: "tax_category",
    header: "Tax category",
    sortField: "tax_category",
    sortAscendingFirst: true,
    cell: (p) => taxCategoryLabel(p.tax_category),
  },
  { key: "type", header: "Type", cell: (p) => (p.type === "standard" ? "Standard" : "Custom") },
  {
    key: "status",
    header: "Status",
    sortField: "status",
    sortAscendingFirst: true,
    cell: (p) => <StatusBadge status={p.status} />,
  },
  createdColumn(),
];

export function ProductsView() {
  const { search, setSearch, status, setStatus, orderBy, order, pagination } = useListFilters();
  const panel = usePanel();
  const toast = useToast();
  const create = useCreateProduct();
  const listParams = {
    status,
    search: search || undefined,
    include: "prices",
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: orderBy,
  };
  const list = useProducts(listParams);
  const filtered = search !== "" || status !== "active";

  return (
    <div>
      <PageHeader
        title="Products"
        description="What you sell. Each product has prices: one-time or recurring, in any currency, with prices per country."
        actions={
          <>
            <ExportLink list="products" params={listParams} />
            {
              <Allowed permission="product.write" action="create products">
                {panel.newButton("New product", true)}
              </Allowed>
            }
          </>
        }
      />

      {panel.editing && (
        <PanelSection id={panel.id} title="New product">
          <ProductForm
            onSubmit={(body) => create.mutateAsync(body)}
            onSaved={(product) => {
              panel.close();
              pagination.reset();
              if (product) {
                toast.show(
                  createdToast(
                    "Product",
                    `/catalogue/products/${product.id}`,
                    product.name,
                    " Add its prices on its page.",
                  ),
                );
              }
            }}
            onCancel={panel.close}
          />
        </PanelSection>
      )}

      <ListFilters
        search={{
          label: "Search products",
          placeholder: "Name, description or product ID",
          initialValue: search,
          onSearch: setSearch,
        }}
        status={status}
        options={ACTIVE_ARCHIVED_OPTIONS}
        onStatus={setStatus}
      />

      <PagedTable
        caption="Products"
        columns={COLUMNS}
        rowKey={(p) => p.id}
        list={list}
        pagination={pagination}
        order={order}
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
              action={
                !panel.editing && (
                  <Allowed permission="product.write" action="create products">
                    {panel.newButton("New product", false)}
                  </Allowed>
                )
              }
            />
          )
        }
      />
    </div>
  );
}
