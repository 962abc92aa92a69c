"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/button";
import { FormActions, FormError, TextAreaField, TextField, useFocusOnError } from "@/components/form";
import { useToast } from "@/components/toast";
import { type FormErrorState, formErrors, textOrNull } from "@/lib/client/form";
import { Allowed } from "@/lib/client/permissions";
import { type AccountSettings, useUpdateAccountSettings } from "@/lib/client/settings";
import {
  ACCOUNT_TAX_MODES,
  type AccountTaxModeSetting,
  DEFAULT_MERCHANT_NAME,
  MERCHANT_ADDRESS_MAX,
  MERCHANT_TAX_NUMBER_MAX,
  type UpdateAccountSettingsInput,
} from "@/lib/schemas/account-settings";

const FIELDS = ["merchant_name", "merchant_address", "merchant_tax_number", "merchant_email", "tax_mode"] as const;

const TAX_MODE_TEXT: Record<AccountTaxModeSetting, { label: string; hint: string }> = {
  external: { label: "Prices exclude tax", hint: "Tax is added on top of the price (usual for business customers)." },
  internal: {
    label: "Prices include tax",
    hint: "The price already contains the tax (usual for consumers in Europe).",
  },
};

interface Values {
  merchant_name: string;
  merchant_address: string;
  merchant_tax_number: string;
  merchant_email: string;
  tax_mode: AccountTaxModeSetting;
}

function valuesOf(settings: AccountSettings): Values {
  return {
    merchant_name: settings.merchant_name,
    merchant_address: settings.merchant_address ?? "",
    merchant_tax_number: settings.merchant_tax_number ?? "",
    merchant_email: settings.merchant_email ?? "",
    tax_mode: settings.tax_mode,
  };
}

/** The merchant details and the tax mode. Sends only what changed; server errors sit beside their fields. */
export function MerchantForm({ settings }: { settings: AccountSettings }) {
  const [values, setValues] = useState<Values>(() => valuesOf(settings));
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const save = useUpdateAccountSettings();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);

  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const saved = valuesOf(settings);
    const body: UpdateAccountSettingsInput = {};
    if (values.merchant_name !== saved.merchant_name) body.merchant_name = values.merchant_name;
    for (const field of ["merchant_address", "merchant_tax_number", "merchant_email"] as const) {
      if (values[field] !== saved[field]) body[field] = textOrNull(values[field]);
    }
    if (values.tax_mode !== saved.tax_mode) body.tax_mode = values.tax_mode;
    setErrors(null);
    if (Object.keys(body).length === 0) {
      toast.show("Nothing to save.", "info");
      return;
    }
    try {
      const updated = await save.mutateAsync(body);
      setValues(valuesOf(updated));
      toast.show("Settings saved.");
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    }
  }

  const fieldError = (field: (typeof FIELDS)[number]) => errors?.fields[field];
  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label="Business details" className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Business name"
          name="merchant_name"
          required
          value={values.merchant_name}
          onChange={set("merchant_name")}
          error={fieldError("merchant_name")}
          hint={`As shown on invoices. Leave as "${DEFAULT_MERCHANT_NAME}" until you set yours.`}
        />
        <TextField
          label="Billing email"
          name="merchant_email"
          type="email"
          value={values.merchant_email}
          onChange={set("merchant_email")}
          error={fieldError("merchant_email")}
          hint="Where customers reply about invoices."
        />
        <TextAreaField
          label="Address"
          name="merchant_address"
          mono={false}
          rows={4}
          value={values.merchant_address}
          onChange={set("merchant_address")}
          error={fieldError("merchant_address")}
          hint={`One line per line of the address, up to ${MERCHANT_ADDRESS_MAX} characters.`}
        />
        <TextField
          label="Tax number"
          name="merchant_tax_number"
          value={values.merchant_tax_number}
          onChange={set("merchant_tax_number")}
          error={fieldError("merchant_tax_number")}
          hint={`Your VAT or GST registration number (up to ${MERCHANT_TAX_NUMBER_MAX} characters).`}
        />
      </div>
      <fieldset aria-describedby={fieldError("tax_mode") ? "tax-mode-error" : undefined}>
        <legend className="text-sm font-medium text-slate-700">Tax mode</legend>
        <p className="text-xs text-slate-500">
          For prices whose tax mode is &ldquo;account setting&rdquo;. Existing transactions keep their totals.
        </p>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {ACCOUNT_TAX_MODES.map((mode) => (
            <label
              key={mode}
              className={`flex cursor-pointer gap-2 rounded-md border px-3 py-2 text-sm ${
                values.tax_mode === mode ? "border-brand-500 bg-brand-50" : "border-slate-300"
              }`}
            >
              <input
                type="radio"
                name="tax_mode"
                value={mode}
                checked={values.tax_mode === mode}
                onChange={() => setValues((v) => ({ ...v, tax_mode: mode }))}
                aria-invalid={fieldError("tax_mode") ? true : undefined}
                className="mt-0.5 accent-brand-600"
              />
              <span>
                <span className="block font-medium text-slate-900">{TAX_MODE_TEXT[mode].label}</span>
                <span className="block text-xs text-slate-600">{TAX_MODE_TEXT[mode].hint}</span>
              </span>
            </label>
          ))}
        </div>
        {fieldError("tax_mode") && (
          <p id="tax-mode-error" className="mt-1 text-sm text-red-700">
            {fieldError("tax_mode")}
          </p>
        )}
      </fieldset>
      <FormError message={errors?.message ?? null} other={errors?.other} requestId={errors?.requestId} />
      <FormActions>
        <Allowed permission="settings.write" action="change settings">
          <Button type="submit" pending={save.isPending} pendingLabel="Saving…">
            Save settings
          </Button>
        </Allowed>
      </FormActions>
    </form>
  );
}
