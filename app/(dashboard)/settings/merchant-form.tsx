"use client";

import { useId, useMemo } from "react";
import { CurrencySelectField } from "@/components/currency-select";
import { changes, FormShell, useForm } from "@/components/entity-form";
import { SelectField, TextAreaField, TextField } from "@/components/form";
import { useToast } from "@/components/toast";
import { textOrNull } from "@/lib/dashboard/form";
import { type AccountSettings, useUpdateAccountSettings } from "@/lib/dashboard/settings";
import {
  ACCOUNT_TAX_MODES,
  type AccountTaxModeSetting,
  BANK_TRANSFER_INSTRUCTIONS_MAX,
  DEFAULT_MERCHANT_NAME,
  MERCHANT_ADDRESS_MAX,
  MERCHANT_TAX_NUMBER_MAX,
  timeZoneChoices,
  type UpdateAccountSettingsInput,
} from "@/lib/schemas/account-settings";

const FIELDS = [
  "merchant_name",
  "merchant_address",
  "merchant_tax_number",
  "merchant_email",
  "bank_transfer_instructions",
  "tax_mode",
  "default_currency_code",
  "timezone",
] as const;

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
  bank_transfer_instructions: string;
  tax_mode: AccountTaxModeSetting;
  default_currency_code: string;
  timezone: string;
}

function valuesOf(settings: AccountSettings): Values {
  return {
    merchant_name: settings.merchant_name,
    merchant_address: settings.merchant_address ?? "",
    merchant_tax_number: settings.merchant_tax_number ?? "",
    merchant_email: settings.merchant_email ?? "",
    bank_transfer_instructions: settings.bank_transfer_instructions ?? "",
    tax_mode: settings.tax_mode,
    default_currency_code: settings.default_currency_code,
    timezone: settings.timezone,
  };
}

/** "14:05, Tue 24 Nov": the time now in `zone`, so the merchant sees they picked the right one. */
function nowIn(zone: string): string {
  try {
    return new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hour: "2-digit",
      minute: "2-digit",
      weekday: "short",
      day: "numeric",
      month: "short",
    }).format(new Date());
  } catch {
    return "";
  }
}

/** The merchant details and the tax mode. Sends only what changed; server errors sit beside their fields. */
export function MerchantForm({ settings }: { settings: AccountSettings }) {
  const state = useForm(() => valuesOf(settings), { autoFocus: false });
  const { values, bind, error } = state;
  const save = useUpdateAccountSettings();
  const toast = useToast();
  const taxModeErrorId = useId();
  const zones = useMemo(() => {
    const list = timeZoneChoices();
    return list.includes(settings.timezone) ? list : [settings.timezone, ...list];
  }, [settings.timezone]);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const full = {
      merchant_name: values.merchant_name,
      merchant_address: textOrNull(values.merchant_address),
      merchant_tax_number: textOrNull(values.merchant_tax_number),
      merchant_email: textOrNull(values.merchant_email),
      bank_transfer_instructions: textOrNull(values.bank_transfer_instructions),
      tax_mode: values.tax_mode,
      default_currency_code: values.default_currency_code,
      timezone: values.timezone,
    };
    return state.run({
      fields: FIELDS,
      body: changes(full, settings) as UpdateAccountSettingsInput | null,
      onUnchanged: () => toast.show("Nothing to save.", "info"),
      send: async (body) => {
        state.reset(valuesOf(await save.mutateAsync(body)));
        toast.show("Settings saved.");
      },
    });
  }

  return (
    <FormShell
      label="Business details"
      submitLabel="Save settings"
      state={state}
      onSubmit={onSubmit}
      showDirty
      allowed={{ permission: "settings.write", action: "change settings" }}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Business name"
          name="merchant_name"
          required
          {...bind("merchant_name")}
          hint={`As shown on invoices. Leave as "${DEFAULT_MERCHANT_NAME}" until you set yours.`}
        />
        <TextField
          label="Billing email"
          name="merchant_email"
          type="email"
          {...bind("merchant_email")}
          hint="Where customers reply about invoices."
        />
        <TextAreaField
          label="Address"
          name="merchant_address"
          mono={false}
          rows={4}
          {...bind("merchant_address")}
          hint={`One line per line of the address, up to ${MERCHANT_ADDRESS_MAX} characters.`}
        />
        <TextField
          label="Tax number"
          name="merchant_tax_number"
          {...bind("merchant_tax_number")}
          hint={`Your VAT or GST registration number (up to ${MERCHANT_TAX_NUMBER_MAX} characters).`}
        />
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <CurrencySelectField
          label="Default currency"
          name="default_currency_code"
          {...bind("default_currency_code")}
          hint="Preselected for new prices and invoices and on Home."
        />
        <SelectField
          label="Time zone"
          name="timezone"
          {...bind("timezone")}
          hint={`Dates on invoices and emails are days in this zone. Now there: ${nowIn(values.timezone)}.`}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll("_", " ")}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField
        label="Bank transfer instructions"
        name="bank_transfer_instructions"
        mono={false}
        rows={4}
        {...bind("bank_transfer_instructions")}
        hint={`Shown on the hosted invoice page: bank, IBAN or account number, what to quote (up to ${BANK_TRANSFER_INSTRUCTIONS_MAX} characters).`}
      />
      <fieldset aria-describedby={error("tax_mode") ? taxModeErrorId : undefined}>
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
                onChange={() => state.set("tax_mode", mode)}
                aria-invalid={error("tax_mode") ? true : undefined}
                className="mt-0.5 accent-brand-600"
              />
              <span>
                <span className="block font-medium text-slate-900">{TAX_MODE_TEXT[mode].label}</span>
                <span className="block text-xs text-slate-600">{TAX_MODE_TEXT[mode].hint}</span>
              </span>
            </label>
          ))}
        </div>
        {error("tax_mode") && (
          <p id={taxModeErrorId} className="mt-1 text-sm text-red-700">
            {error("tax_mode")}
          </p>
        )}
      </fieldset>
    </FormShell>
  );
}
