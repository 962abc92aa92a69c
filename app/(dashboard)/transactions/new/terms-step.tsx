"use client";

import { SelectField, TextAreaField, TextField } from "@/components/form";
import { type InvoiceDraft, TERM_PRESETS, type TermPreset } from "@/lib/dashboard/invoice-draft";
import { INTERVALS, type Interval } from "@/lib/schemas/price";
import { ADDITIONAL_INFORMATION_MAX, PURCHASE_ORDER_NUMBER_MAX } from "@/lib/schemas/transaction";

export type TermsField = "payment_terms" | "purchase_order_number" | "additional_information";

/** Payment terms (net 7, 14, 30, 60 days or custom), purchase order number and a note. */
export function TermsStep({
  draft,
  errors,
  onChange,
}: {
  draft: InvoiceDraft;
  errors: Partial<Record<TermsField, string>>;
  onChange: (patch: Partial<InvoiceDraft>) => void;
}) {
  const terms = draft.terms;
  const setTerms = (patch: Partial<InvoiceDraft["terms"]>) => onChange({ terms: { ...terms, ...patch } });
  const options: { value: TermPreset; label: string }[] = [
    ...TERM_PRESETS.map((days) => ({ value: days, label: `Net ${days} days` })),
    { value: "custom", label: "Custom" },
  ];
  return (
    <div className="space-y-5">
      <fieldset aria-describedby={errors.payment_terms ? "terms-error" : undefined}>
        <legend className="text-sm font-medium text-slate-700">Payment terms</legend>
        <p className="text-xs text-slate-500">How long the customer has to pay once the invoice is issued.</p>
        <div className="mt-2 flex flex-wrap gap-2">
          {options.map((option) => (
            <label
              key={option.value}
              className={`flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm ${
                terms.preset === option.value ? "border-brand-500 bg-brand-50" : "border-slate-200 hover:bg-slate-50"
              }`}
            >
              <input
                type="radio"
                name="payment-terms"
                checked={terms.preset === option.value}
                onChange={() => setTerms({ preset: option.value })}
                className="accent-brand-600"
              />
              {option.label}
            </label>
          ))}
        </div>
        {terms.preset === "custom" && (
          <div className="mt-3 flex flex-wrap items-start gap-3">
            <TextField
              className="w-28"
              label="Due in"
              inputMode="numeric"
              value={terms.frequency}
              onChange={(e) => setTerms({ frequency: e.target.value })}
            />
            <SelectField
              className="w-36"
              label="Unit"
              value={terms.interval}
              onChange={(e) => setTerms({ interval: e.target.value as Interval })}
            >
              {INTERVALS.map((interval) => (
                <option key={interval} value={interval}>
                  {interval}s
                </option>
              ))}
            </SelectField>
          </div>
        )}
        {errors.payment_terms && (
          <p id="terms-error" className="mt-1 text-sm text-red-700">
            {errors.payment_terms}
          </p>
        )}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Purchase order number (optional)"
          value={draft.purchaseOrderNumber}
          onChange={(e) => onChange({ purchaseOrderNumber: e.target.value })}
          error={errors.purchase_order_number}
          hint={`Up to ${PURCHASE_ORDER_NUMBER_MAX} characters.`}
        />
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={draft.acceptCards}
          onChange={(e) => onChange({ acceptCards: e.target.checked })}
          className="mt-0.5 accent-brand-600"
        />
        <span>
          Let the customer pay by card
          <span className="block text-xs text-slate-600">
            The hosted invoice page offers &ldquo;Pay by card&rdquo; besides your bank-transfer instructions.
          </span>
        </span>
      </label>
      <TextAreaField
        label="Additional information (optional)"
        mono={false}
        rows={3}
        value={draft.additionalInformation}
        onChange={(e) => onChange({ additionalInformation: e.target.value })}
        error={errors.additional_information}
        hint={`Printed on the invoice, up to ${ADDITIONAL_INFORMATION_MAX} characters.`}
      />
    </div>
  );
}
