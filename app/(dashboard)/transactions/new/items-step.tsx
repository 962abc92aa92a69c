"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { SelectField, TextField } from "@/components/form";
import { MoneyField } from "@/components/money-input";
import { SearchInput } from "@/components/search-input";
import { LoadingBlock } from "@/components/states";
import { unitPriceFor } from "@/lib/billing/totals";
import { type ProductWithPrices, useProducts } from "@/lib/dashboard/catalogue";
import {
  type CustomLine,
  type DraftLine,
  INVOICE_CURRENCIES,
  type InvoiceDraft,
  type LineProblems,
} from "@/lib/dashboard/invoice-draft";
import { billingCycleText, currencyName, formatMoney } from "@/lib/dashboard/money";
import type { Price, TaxMode } from "@/lib/schemas/price";

const TAX_MODE_LABELS: Record<TaxMode, string> = {
  account_setting: "As in settings",
  external: "Tax added on top",
  internal: "Tax included",
  location: "By country",
};

let lineSeq = 0;
function lineKey(): string {
  lineSeq += 1;
  return `line-${lineSeq}`;
}

/**
 * What a price costs the invoice's customer: the override for the customer's country in the
 * invoice's currency (as the totals engine prices it), else its own unit price; null when neither
 * is in the invoice's currency.
 */
function unitPriceIn(price: Price, countryCode: string | null, currency: string): Price["unit_price"] | null {
  const unit = unitPriceFor(price, countryCode, currency) as Price["unit_price"];
  return unit.currency_code === currency ? unit : null;
}

/** A catalogue line's unit price as the customer is charged it (unitPriceIn), or its own when none applies. */
function formatLineUnit(price: Price, countryCode: string | null, currency: string): string {
  const unit = unitPriceIn(price, countryCode, currency) ?? price.unit_price;
  return formatMoney(unit.amount, unit.currency_code);
}

/**
 * Catalogue products matching a search, each with its active prices in the invoice's currency —
 * its own, or an override for the customer's country (a German customer invoiced in EUR is offered
 * a USD price's Germany EUR override).
 */
function CataloguePicker({
  currency,
  countryCode,
  onAdd,
}: {
  currency: string;
  countryCode: string | null;
  onAdd: (price: Price, productName: string) => void;
}) {
  const [term, setTerm] = useState("");
  const products = useProducts({
    search: term,
    include: "prices",
    status: "active",
    // Catalogue products only: custom items of earlier invoices are products of type `custom`.
    type: "standard",
    per_page: 10,
  });
  const rows = (products.data?.data ?? []) as ProductWithPrices[];
  return (
    <div className="space-y-3">
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
            const prices = (product.prices ?? []).flatMap((p) => {
              const unit =
                p.status === "active" && p.type === "standard" ? unitPriceIn(p, countryCode, currency) : null;
              return unit ? [{ price: p, unit }] : [];
            });
            return (
              <li key={product.id} className="px-3 py-2">
                <p className="text-sm font-medium text-slate-900">{product.name}</p>
                {prices.length === 0 ? (
                  <p className="text-xs text-slate-500">No active price in {currency}.</p>
                ) : (
                  <ul className="mt-1 space-y-1">
                    {prices.map(({ price, unit }) => (
                      <li key={price.id} className="flex items-center justify-between gap-2 text-sm">
                        <span className="text-slate-700">
                          {price.description} · {formatMoney(unit.amount, currency)} ·{" "}
                          {billingCycleText(price.billing_cycle)}
                        </span>
                        <Button
                          size="sm"
                          variant="secondary"
                          onClick={() => onAdd(price, product.name)}
                          aria-label={`Add ${product.name}, ${price.description}`}
                        >
                          Add
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
    </div>
  );
}

function QuantityField({
  value,
  error,
  label,
  onChange,
}: {
  value: string;
  error?: string;
  label: React.ReactNode;
  onChange: (v: string) => void;
}) {
  return (
    <TextField
      label={label}
      inputMode="numeric"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      className="w-24"
    />
  );
}

/** The invoice's currency and lines: catalogue prices and custom items. */
export function ItemsStep({
  draft,
  problems,
  showProblems,
  onCurrency,
  onLines,
}: {
  draft: InvoiceDraft;
  problems: LineProblems;
  /** Line problems show once the user tried to go on (or the server named them). */
  showProblems: boolean;
  onCurrency: (currency: string) => void;
  onLines: (lines: DraftLine[]) => void;
}) {
  const lines = draft.lines;
  const update = (key: string, patch: Partial<CustomLine>) =>
    onLines(lines.map((line) => (line.key === key ? ({ ...line, ...patch } as DraftLine) : line)));
  const remove = (key: string) => onLines(lines.filter((line) => line.key !== key));
  const problem = (key: string, field: "name" | "amount" | "quantity" | "price") =>
    showProblems ? problems[key]?.[field] : undefined;

  return (
    <div className="space-y-6">
      <SelectField
        label="Currency"
        className="max-w-xs"
        value={draft.currency}
        onChange={(e) => onCurrency(e.target.value)}
        hint="Invoices can be issued in US dollars, euros or pounds sterling."
      >
        {INVOICE_CURRENCIES.map((code) => (
          <option key={code} value={code}>
            {code} · {currencyName(code)}
          </option>
        ))}
      </SelectField>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-700">Lines on the invoice</legend>
        {lines.length === 0 ? (
          <p className="text-sm text-slate-600">No items yet: add a catalogue price or a custom item below.</p>
        ) : (
          <ol className="space-y-3">
            {lines.map((line, index) => (
              <li key={line.key} className="rounded-md border border-slate-200 p-3">
                <div className="flex flex-wrap items-end gap-3">
                  {line.kind === "catalogue" ? (
                    <div className="min-w-48 flex-1 text-sm">
                      <p className="font-medium text-slate-900">
                        {index + 1}. {line.productName}
                      </p>
                      <p className="text-slate-600">
                        {line.price.description} ·{" "}
                        {formatLineUnit(line.price, draft.address?.country_code ?? null, draft.currency)}
                      </p>
                      {problem(line.key, "price") && (
                        <p className="mt-1 text-sm text-red-700">{problem(line.key, "price")}</p>
                      )}
                    </div>
                  ) : (
                    <>
                      <TextField
                        className="min-w-48 flex-1"
                        label={`Item ${index + 1} name`}
                        value={line.name}
                        onChange={(e) => update(line.key, { name: e.target.value })}
                        error={problem(line.key, "name")}
                      />
                      <MoneyField
                        className="w-40"
                        label="Unit price"
                        currency={draft.currency}
                        value={line.amount}
                        onValueChange={(amount) => update(line.key, { amount })}
                        error={problem(line.key, "amount")}
                        hint=""
                      />
                      <SelectField
                        className="w-44"
                        label="Tax"
                        value={line.taxMode}
                        onChange={(e) => update(line.key, { taxMode: e.target.value as TaxMode })}
                      >
                        {(Object.keys(TAX_MODE_LABELS) as TaxMode[]).map((mode) => (
                          <option key={mode} value={mode}>
                            {TAX_MODE_LABELS[mode]}
                          </option>
                        ))}
                      </SelectField>
                    </>
                  )}
                  <QuantityField
                    label={
                      line.kind === "catalogue" ? (
                        <>
                          Quantity<span className="sr-only"> of {line.productName}</span>
                        </>
                      ) : (
                        "Quantity"
                      )
                    }
                    value={line.quantity}
                    error={problem(line.key, "quantity")}
                    onChange={(quantity) => update(line.key, { quantity })}
                  />
                  <Button
                    variant="ghost"
                    onClick={() => remove(line.key)}
                    aria-label={`Remove line ${index + 1}`}
                    className="mb-0.5"
                  >
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ol>
        )}
        <Button
          variant="secondary"
          onClick={() =>
            onLines([
              ...lines,
              { key: lineKey(), kind: "custom", name: "", amount: "", taxMode: "account_setting", quantity: "1" },
            ])
          }
        >
          Add a custom item
        </Button>
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Add from the catalogue</legend>
        <CataloguePicker
          currency={draft.currency}
          countryCode={draft.address?.country_code ?? null}
          onAdd={(price, productName) =>
            onLines([...lines, { key: lineKey(), kind: "catalogue", price, productName, quantity: "1" }])
          }
        />
      </fieldset>
    </div>
  );
}
