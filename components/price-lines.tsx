"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { TextField } from "@/components/form";
import { SearchInput } from "@/components/search-input";
import { LoadingBlock } from "@/components/states";
import { type ProductWithPrices, useProducts } from "@/lib/dashboard/catalogue";
import { billingCycleText, formatMoney } from "@/lib/dashboard/money";
import type { Price } from "@/lib/schemas/price";

/** A chosen catalogue price and how many. `quantity` is text while typed. */
export interface PriceLine {
  price: Price;
  productName: string;
  quantity: string;
}

/** How a price reads in a list: its description, amount and cycle. */
export function priceSummary(price: Price): string {
  return `${price.description} · ${formatMoney(price.unit_price.amount, price.unit_price.currency_code)} · ${billingCycleText(price.billing_cycle)}`;
}

/**
 * Catalogue prices chosen for a payment link or a new subscription: the chosen lines with their
 * quantities, and a product search to add more. `recurringOnly` offers only prices with a cycle.
 */
export function PriceLines({
  lines,
  onChange,
  errors = {},
  recurringOnly = false,
  legend = "Items",
}: {
  lines: PriceLine[];
  onChange: (lines: PriceLine[]) => void;
  /** Field errors by `items[i].quantity` / `items[i].price_id` / `items`. */
  errors?: Record<string, string>;
  recurringOnly?: boolean;
  legend?: string;
}) {
  const [term, setTerm] = useState("");
  const products = useProducts({ search: term, include: "prices", status: "active", type: "standard", per_page: 10 });
  const rows = (products.data?.data ?? []) as ProductWithPrices[];
  const chosen = new Set(lines.map((line) => line.price.id));
  const add = (price: Price, productName: string) =>
    onChange([...lines, { price, productName, quantity: String(price.quantity.minimum || 1) }]);
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {errors.items && (
        <p className="text-sm text-red-700" role="alert">
          {errors.items}
        </p>
      )}
      {lines.length === 0 ? (
        <p className="text-sm text-slate-600">No prices yet: add one from the catalogue below.</p>
      ) : (
        <ol aria-label="Chosen prices" className="space-y-2">
          {lines.map((line, index) => (
            <li key={line.price.id} className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 p-3">
              <div className="min-w-48 flex-1 text-sm">
                <p className="font-medium text-slate-900">{line.productName}</p>
                <p className="text-slate-600">{priceSummary(line.price)}</p>
                {errors[`items[${index}].price_id`] && (
                  <p className="text-red-700">{errors[`items[${index}].price_id`]}</p>
                )}
              </div>
              <TextField
                label={`Quantity of ${line.productName}`}
                labelHidden
                inputMode="numeric"
                value={line.quantity}
                onChange={(e) => onChange(lines.map((l, i) => (i === index ? { ...l, quantity: e.target.value } : l)))}
                error={errors[`items[${index}].quantity`]}
                className="w-24"
              />
              <Button
                variant="secondary"
                size="sm"
                onClick={() => onChange(lines.filter((_, i) => i !== index))}
                aria-label={`Remove ${line.productName}, ${line.price.description}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ol>
      )}
      <SearchInput label="Search catalogue products" placeholder="Search products" onSearch={setTerm} />
      {products.isLoading ? (
        <LoadingBlock label="Loading products…" lines={2} />
      ) : rows.length === 0 ? (
        <p role="status" className="text-sm text-slate-600">
          {term ? `No active product matches "${term}".` : "The catalogue has no active products."}
        </p>
      ) : (
        <ul aria-label="Catalogue products" className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {rows.map((product) => {
            const prices = (product.prices ?? []).filter(
              (p) => p.status === "active" && p.type === "standard" && (!recurringOnly || p.billing_cycle !== null),
            );
            return (
              <li key={product.id} className="px-3 py-2">
                <p className="text-sm font-medium text-slate-900">{product.name}</p>
                {prices.length === 0 ? (
                  <p className="text-xs text-slate-500">
                    {recurringOnly ? "No active recurring price." : "No active price."}
                  </p>
                ) : (
                  <ul className="mt-1 space-y-1">
                    {prices.map((price) => (
                      <li key={price.id} className="flex items-center justify-between gap-2 text-sm">
                        <span className="text-slate-700">{priceSummary(price)}</span>
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={chosen.has(price.id)}
                          onClick={() => add(price, product.name)}
                          aria-label={`Add ${product.name}, ${price.description}`}
                        >
                          {chosen.has(price.id) ? "Added" : "Add"}
                        </Button>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

/** The lines as the API's items; quantities that are not whole numbers are sent as typed, for the API to name. */
export function lineItems(lines: PriceLine[]): { price_id: string; quantity: number }[] {
  return lines.map((line) => ({ price_id: line.price.id, quantity: lineQuantity(line) }));
}

/** A line's quantity as the API's item takes it (NaN when the field is empty). */
export function lineQuantity(line: PriceLine): number {
  return Number(line.quantity.trim() || Number.NaN);
}
