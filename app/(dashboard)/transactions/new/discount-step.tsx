"use client";

import { useState } from "react";
import { TextField } from "@/components/form";
import { MoneyField } from "@/components/money-input";
import { SearchInput } from "@/components/search-input";
import { LoadingBlock } from "@/components/states";
import { type Discount, useDiscounts } from "@/lib/dashboard/catalogue";
import type { DiscountField, DraftDiscount, InvoiceDraft } from "@/lib/dashboard/invoice-draft";
import { formatMoney, percentText } from "@/lib/dashboard/money";
import { ChoiceList } from "./step-frame";

function discountAmountText(d: Discount): string {
  if (d.type === "percentage") return `${percentText(d.amount)} off`;
  return `${d.currency_code ? formatMoney(d.amount, d.currency_code) : d.amount} off${d.type === "flat_per_seat" ? " per seat" : ""}`;
}

const KINDS: { kind: DraftDiscount["kind"]; label: string }[] = [
  { kind: "none", label: "No discount" },
  { kind: "catalogue", label: "A discount from the catalogue" },
  { kind: "custom", label: "A custom discount for this invoice" },
];

function CatalogueDiscounts({
  selected,
  onSelect,
}: {
  selected: Discount | null;
  onSelect: (discount: Discount) => void;
}) {
  const [term, setTerm] = useState("");
  const list = useDiscounts({ search: term, status: "active", per_page: 10 });
  const found = list.data?.data ?? [];
  const choices = selected && !found.some((d) => d.id === selected.id) ? [selected, ...found] : found;
  return (
    <div className="space-y-3">
      <SearchInput
        label="Search discounts by code or description"
        placeholder="Code or description"
        onSearch={setTerm}
      />
      {list.isLoading ? (
        <LoadingBlock label="Loading discounts…" lines={2} />
      ) : choices.length === 0 ? (
        <p role="status" className="text-sm text-slate-600">
          {term ? `No active discount matches "${term}".` : "The catalogue has no active discounts."}
        </p>
      ) : (
        <ChoiceList
          legend="Catalogue discount"
          name="catalogue-discount"
          items={choices}
          selectedId={selected?.id ?? null}
          idOf={(d) => d.id}
          render={(d) => (
            <>
              <span className="block font-medium text-slate-900">
                {d.description}
                {d.code && <code className="ml-2 font-mono text-xs text-slate-600">{d.code}</code>}
              </span>
              <span className="block text-slate-600">{discountAmountText(d)}</span>
            </>
          )}
          onSelect={onSelect}
        />
      )}
    </div>
  );
}

/** No discount, one from the catalogue, or a custom one (a percentage or a flat amount). */
export function DiscountStep({
  draft,
  error,
  onChange,
}: {
  draft: InvoiceDraft;
  /** The problem with the custom discount's amount or description. */
  error: { field: DiscountField; message: string } | null;
  onChange: (discount: DraftDiscount) => void;
}) {
  const d = draft.discount;
  const choose = (kind: DraftDiscount["kind"]) => {
    if (kind === d.kind) return;
    if (kind === "none") onChange({ kind: "none" });
    else if (kind === "custom") onChange({ kind: "custom", type: "percentage", amount: "", description: "" });
    else onChange({ kind: "catalogue", discount: null });
  };
  return (
    <div className="space-y-5">
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Discount</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {KINDS.map(({ kind, label }) => (
            <label
              key={kind}
              className={`flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm ${
                d.kind === kind ? "border-brand-500 bg-brand-50" : "border-slate-200 hover:bg-slate-50"
              }`}
            >
              <input
                type="radio"
                name="discount-kind"
                checked={d.kind === kind}
                onChange={() => choose(kind)}
                className="accent-brand-600"
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>

      {d.kind === "catalogue" && (
        <CatalogueDiscounts
          selected={d.discount ?? null}
          onSelect={(discount) => onChange({ kind: "catalogue", discount })}
        />
      )}

      {d.kind === "custom" && (
        <div className="space-y-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Type</legend>
            <div className="mt-2 flex gap-4 text-sm">
              {(["percentage", "flat"] as const).map((type) => (
                <label key={type} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="custom-discount-type"
                    checked={d.type === type}
                    onChange={() => onChange({ ...d, type, amount: "" })}
                    className="accent-brand-600"
                  />
                  {type === "percentage" ? "Percentage off" : "Amount off"}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            {d.type === "percentage" ? (
              <TextField
                label="Percentage off (%)"
                inputMode="decimal"
                value={d.amount}
                onChange={(e) => onChange({ ...d, amount: e.target.value })}
                error={error?.field === "amount" ? error.message : undefined}
                hint="From 0.01 to 100, such as 10 for 10% off."
              />
            ) : (
              <MoneyField
                label="Amount off"
                currency={draft.currency}
                value={d.amount}
                onValueChange={(amount) => onChange({ ...d, amount })}
                error={error?.field === "amount" ? error.message : undefined}
              />
            )}
            <TextField
              label="Description (optional)"
              value={d.description}
              onChange={(e) => onChange({ ...d, description: e.target.value })}
              error={error?.field === "description" ? error.message : undefined}
              hint="Shown on the invoice. Left blank, the amount is used."
            />
          </div>
        </div>
      )}
    </div>
  );
}
