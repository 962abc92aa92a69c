"use client";

import { useId, useMemo, useState } from "react";
import { Button } from "@/components/button";
import { ErrorState, LoadingBlock } from "@/components/states";
import { type ProductWithPrices, useCatalogue } from "@/lib/dashboard/catalogue";
import { billingCycleText, formatMoney } from "@/lib/dashboard/money";
import { catalogueNames, restrictionName } from "./discount-text";

function matches(product: ProductWithPrices, needle: string): boolean {
  if (!needle) return true;
  const texts = [product.name, product.id, ...product.prices.flatMap((p) => [p.description, p.name ?? "", p.id])];
  return texts.some((text) => text.toLowerCase().includes(needle));
}

/**
 * What a discount applies to: every product, or the products and prices ticked in a searchable
 * checklist of the active catalogue (products with their prices, from /api/products?include=prices).
 * A ticked product covers all its prices, so its prices show as included. IDs chosen earlier that
 * the list does not show (archived since, or on a page not loaded yet) stay listed and removable.
 */
export function RestrictionPicker({
  restricted,
  onRestrictedChange,
  selected,
  onChange,
  error,
}: {
  restricted: boolean;
  onRestrictedChange: (restricted: boolean) => void;
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  error?: string | null;
}) {
  const id = useId();
  const [search, setSearch] = useState("");
  const catalogue = useCatalogue("active", restricted);
  const products = useMemo(() => catalogue.data?.pages.flatMap((page) => page.data) ?? [], [catalogue.data]);
  const names = useMemo(() => catalogueNames(products), [products]);
  const chosen = new Set(selected);
  const needle = search.trim().toLowerCase();
  const shown = products.filter((product) => matches(product, needle));
  const unseen = selected.filter((ref) => !names.products.has(ref) && !names.prices.has(ref));
  const errorId = error ? `${id}-error` : undefined;

  function toggleProduct(product: ProductWithPrices, checked: boolean) {
    const priceIds = new Set(product.prices.map((p) => p.id));
    // A product covers its prices: they leave the list when it is ticked.
    const rest = selected.filter((ref) => ref !== product.id && !priceIds.has(ref));
    onChange(checked ? [...rest, product.id] : rest);
  }

  function togglePrice(priceId: string, checked: boolean) {
    onChange(checked ? [...selected, priceId] : selected.filter((ref) => ref !== priceId));
  }

  return (
    <fieldset aria-describedby={errorId}>
      <legend className="text-sm font-medium text-slate-700">Applies to</legend>
      <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={!restricted}
            onChange={() => onRestrictedChange(false)}
            className="h-4 w-4 accent-brand-600"
          />
          All products and prices
        </label>
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={restricted}
            onChange={() => onRestrictedChange(true)}
            className="h-4 w-4 accent-brand-600"
          />
          Only the products and prices I choose
        </label>
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}

      {restricted && (
        <div className={`mt-3 rounded-md border bg-white ${error ? "border-red-500" : "border-slate-200"}`}>
          <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 bg-slate-50 px-3 py-2">
            <div className="w-full max-w-xs">
              <label htmlFor={`${id}-search`} className="sr-only">
                Search the catalogue
              </label>
              <input
                id={`${id}-search`}
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                onKeyDown={(event) => {
                  // Enter filters; it must not submit the discount form.
                  if (event.key === "Enter") event.preventDefault();
                }}
                placeholder="Search products and prices"
                className="block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm placeholder:text-slate-500 focus:border-brand-500"
              />
            </div>
            <div className="flex items-center gap-2 text-xs text-slate-600">
              <span aria-live="polite">
                {selected.length === 0 ? "Nothing chosen yet" : `${selected.length} chosen`}
              </span>
              {selected.length > 0 && (
                <Button variant="ghost" size="sm" onClick={() => onChange([])}>
                  Clear
                </Button>
              )}
            </div>
          </div>

          {unseen.length > 0 && (
            <div className="border-b border-slate-200 px-3 py-2">
              <p className="text-xs font-medium text-slate-600">Also chosen (not in the active catalogue below)</p>
              <ul className="mt-1 flex flex-wrap gap-1.5">
                {unseen.map((ref) => (
                  <li
                    key={ref}
                    className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-2.5 font-mono text-xs text-slate-700"
                  >
                    {restrictionName(ref, names)}
                    <button
                      type="button"
                      onClick={() => onChange(selected.filter((s) => s !== ref))}
                      aria-label={`Remove ${ref}`}
                      className="rounded-full px-1 hover:bg-slate-200"
                    >
                      <span aria-hidden="true">×</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}

          <div className="max-h-80 overflow-y-auto px-3 py-2">
            {catalogue.isLoading ? (
              <LoadingBlock label="Loading the catalogue…" lines={3} />
            ) : catalogue.error && products.length === 0 ? (
              <ErrorState
                error={catalogue.error}
                title="Could not load the catalogue"
                onRetry={() => catalogue.refetch()}
              />
            ) : products.length === 0 ? (
              <p className="py-4 text-center text-sm text-slate-600">
                The catalogue has no active products yet. Create products first, or apply the discount to everything.
              </p>
            ) : shown.length === 0 ? (
              <p className="py-4 text-center text-sm text-slate-600" role="status">
                Nothing matches “{search.trim()}”{catalogue.hasNextPage ? " in the products loaded so far" : ""}.
              </p>
            ) : (
              <ul className="divide-y divide-slate-100" aria-label="Products and their prices">
                {shown.map((product) => {
                  const productChecked = chosen.has(product.id);
                  const activePrices = product.prices.filter((p) => p.status === "active");
                  const hintId = `${id}-${product.id}-hint`;
                  return (
                    <li key={product.id} className="py-2">
                      <div className="flex items-start gap-2">
                        <input
                          id={`${id}-${product.id}`}
                          type="checkbox"
                          checked={productChecked}
                          onChange={(event) => toggleProduct(product, event.target.checked)}
                          aria-describedby={hintId}
                          className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600"
                        />
                        <div>
                          <label
                            htmlFor={`${id}-${product.id}`}
                            className="cursor-pointer text-sm font-medium text-slate-900"
                          >
                            {product.name}
                          </label>
                          <p id={hintId} className="text-xs text-slate-500">
                            The whole product:{" "}
                            {activePrices.length === 0
                              ? "no active prices yet, and any added later"
                              : activePrices.length === 1
                                ? "its price, and any added later"
                                : `all ${activePrices.length} prices, and any added later`}
                          </p>
                        </div>
                      </div>
                      {activePrices.length > 0 && (
                        <ul className="mt-1.5 ml-6 space-y-1">
                          {activePrices.map((price) => (
                            <li key={price.id}>
                              <label
                                className={`inline-flex items-center gap-2 text-sm ${productChecked ? "text-slate-500" : "cursor-pointer text-slate-700"}`}
                              >
                                <input
                                  type="checkbox"
                                  checked={productChecked || chosen.has(price.id)}
                                  disabled={productChecked}
                                  onChange={(event) => togglePrice(price.id, event.target.checked)}
                                  className="h-4 w-4 rounded border-slate-300 accent-brand-600"
                                />
                                <span>
                                  {price.description}{" "}
                                  <span className="text-slate-500">
                                    · {formatMoney(price.unit_price.amount, price.unit_price.currency_code)}{" "}
                                    {billingCycleText(price.billing_cycle).toLowerCase()}
                                  </span>
                                  {productChecked && <span className="sr-only"> (included with the product)</span>}
                                </span>
                              </label>
                            </li>
                          ))}
                        </ul>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
          {catalogue.hasNextPage && (
            <div className="border-t border-slate-200 px-3 py-2">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => catalogue.fetchNextPage()}
                pending={catalogue.isFetchingNextPage}
                pendingLabel="Loading…"
              >
                Load more products
              </Button>
            </div>
          )}
        </div>
      )}
    </fieldset>
  );
}
