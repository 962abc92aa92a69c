"use client";

import Link from "next/link";
import { createContext, use } from "react";
import { ChildEntitySection } from "@/components/child-entity-section";
import type { Column } from "@/components/data-table";
import type { EntityFormProps } from "@/components/entity-form";
import { EntityId } from "@/components/entity-text";
import { StatusBadge } from "@/components/status-badge";
import { type Price, type Product, useCreatePrice, usePrices, useUpdatePrice } from "@/lib/dashboard/catalogue";
import { countryName, pluralize } from "@/lib/dashboard/display";
import type { ListParams } from "@/lib/dashboard/hooks";
import { billingCycleText, formatMoney, trialText } from "@/lib/dashboard/money";
import { usePermissions } from "@/lib/dashboard/permissions";
import type { CreatePriceInput, UpdatePriceInput } from "@/lib/schemas/price";
import { PriceForm } from "./price-form";

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

const COLUMNS: Column<Price>[] = [
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
    sortField: "unit_price.amount",
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
  {
    key: "tax_mode",
    header: "Tax",
    sortField: "tax_mode",
    sortAscendingFirst: true,
    cell: (p) => TAX_MODE_SHORT[p.tax_mode] ?? p.tax_mode,
  },
  {
    key: "status",
    header: "Status",
    sortField: "status",
    sortAscendingFirst: true,
    cell: (p) => <StatusBadge status={p.status} />,
  },
];

/** A link to the Payment links page's create panel, started with this price (active prices only). */
const PAYMENT_LINK_COLUMN: Column<Price> = {
  key: "payment_link",
  header: "",
  srHeader: "Payment link",
  className: "whitespace-nowrap",
  cell: (p) =>
    p.status === "active" ? (
      <Link
        href={`/catalogue/payment-links?new=${p.id}`}
        className="text-sm font-medium text-brand-700 hover:underline"
        aria-label={`Create payment link for ${p.description}`}
      >
        Create payment link
      </Link>
    ) : null,
};

const usePriceList = (productId: string, params: ListParams) => usePrices({ product_id: productId, ...params });

/** The product whose prices the section shows, for the price form. */
const ProductIdContext = createContext("");

/** The price form as ChildEntitySection renders it: for the product of the section. */
function ProductPriceForm(props: EntityFormProps<Price, CreatePriceInput, UpdatePriceInput>) {
  return <PriceForm productId={use(ProductIdContext)} {...props} />;
}

/** The product's prices: a table with a status filter, and add, edit, archive and unarchive. */
export function PricesSection({ product }: { product: Product }) {
  const productArchived = product.status === "archived";
  const { can } = usePermissions();
  return (
    <ProductIdContext value={product.id}>
      <ChildEntitySection<Price, CreatePriceInput, UpdatePriceInput>
        parentId={product.id}
        noun={{ one: "price", many: "prices" }}
        description={
          productArchived
            ? "This product is archived: unarchive it to add or change prices."
            : "What customers pay for this product: one-time or recurring, with prices per country."
        }
        emptyDescription={
          productArchived ? "This product has no active prices." : "Add a price so customers can buy this product."
        }
        addLabel="Add price"
        restoreVerb="Unarchive"
        archiveText="can no longer be used on new checkouts, transactions or subscriptions. Existing subscriptions keep it. You can unarchive it later."
        readOnly={productArchived || !can("price.write")}
        editActiveOnly
        label={priceLabel}
        columns={can("payment_link.write") && !productArchived ? [...COLUMNS, PAYMENT_LINK_COLUMN] : COLUMNS}
        Form={ProductPriceForm}
        useList={usePriceList}
        useCreate={useCreatePrice}
        useUpdate={useUpdatePrice}
      />
    </ProductIdContext>
  );
}
