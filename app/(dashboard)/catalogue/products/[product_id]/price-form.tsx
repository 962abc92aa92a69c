"use client";

import { useRef } from "react";
import { Button } from "@/components/button";
import { CountryListPicker } from "@/components/country-list-picker";
import { CurrencySelectField } from "@/components/currency-select";
import {
  type CustomData,
  CustomDataField,
  customData,
  customDataProblem,
  customDataValue,
} from "@/components/custom-data-field";
import { changes, EntityForm, type EntityFormProps, useEntityForm, withoutNulls } from "@/components/entity-form";
import { SelectField, TextField } from "@/components/form";
import { MoneyField } from "@/components/money-input";
import {
  BillingCyclePicker,
  type PeriodErrors,
  type PeriodValue,
  periodBody,
  TrialPicker,
} from "@/components/period-picker";
import type { Price } from "@/lib/dashboard/catalogue";
import { textOrNull } from "@/lib/dashboard/form";
import { moneyText, readMoney } from "@/lib/dashboard/money";
import { usePreselectCurrency } from "@/lib/dashboard/settings";
import {
  type CreatePriceInput,
  createPriceBody,
  DEFAULT_QUANTITY,
  MAX_UNIT_PRICE_OVERRIDES,
  PRICE_DESCRIPTION_MAX,
  PRICE_NAME_MAX,
  TAX_MODES,
  type TaxMode,
  trialPeriodProblem,
  type UpdatePriceInput,
  updatePriceBody,
} from "@/lib/schemas/price";

const TAX_MODE_LABELS: Record<TaxMode, string> = {
  account_setting: "Account setting",
  external: "Tax added on top of the price (external)",
  internal: "Tax included in the price (internal)",
  location: "By the customer's country: included where prices customarily include tax (location)",
};

interface OverrideRow {
  key: number;
  countries: string[];
  currency: string;
  amount: string;
}

interface Values {
  description: string;
  name: string;
  currency: string;
  amount: string;
  recurring: boolean;
  cycle: PeriodValue;
  trial: boolean;
  trialPeriod: PeriodValue;
  tax_mode: string;
  minimum: string;
  maximum: string;
  custom_data: CustomData;
  overrides: OverrideRow[];
}

let nextKey = 1;

function initialValues(price?: Price): Values {
  const currency = price?.unit_price.currency_code ?? "USD";
  return {
    description: price?.description ?? "",
    name: price?.name ?? "",
    currency,
    amount: moneyText(price?.unit_price.amount, currency),
    recurring: price ? price.billing_cycle !== null : false,
    cycle: price?.billing_cycle
      ? { frequency: String(price.billing_cycle.frequency), interval: price.billing_cycle.interval }
      : { frequency: "1", interval: "month" },
    trial: Boolean(price?.trial_period),
    trialPeriod: price?.trial_period
      ? { frequency: String(price.trial_period.frequency), interval: price.trial_period.interval }
      : { frequency: "14", interval: "day" },
    tax_mode: price?.tax_mode ?? "account_setting",
    minimum: String(price?.quantity.minimum ?? DEFAULT_QUANTITY.minimum),
    maximum: String(price?.quantity.maximum ?? DEFAULT_QUANTITY.maximum),
    custom_data: customData(price?.custom_data),
    overrides: (price?.unit_price_overrides ?? []).map((override) => ({
      key: nextKey++,
      countries: [...override.country_codes],
      currency: override.unit_price.currency_code,
      amount: moneyText(override.unit_price.amount, override.unit_price.currency_code),
    })),
  };
}

/** "12" → 12; anything that is not a whole number → NaN, which the schema refuses with its message. */
function wholeNumber(text: string): number {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The API names a repeated country by its path; the form says which override holds it. */
function readable(message: string): string {
  return message.replace(/unit_price_overrides\[(\d+)\]\.country_codes\[\d+\]/g, (_, i) => `override ${Number(i) + 1}`);
}

const BASE_FIELDS = [
  "description",
  "name",
  "unit_price",
  "unit_price.amount",
  "unit_price.currency_code",
  "billing_cycle",
  "billing_cycle.frequency",
  "billing_cycle.interval",
  "trial_period",
  "trial_period.frequency",
  "trial_period.interval",
  "tax_mode",
  "quantity",
  "quantity.minimum",
  "quantity.maximum",
  "unit_price_overrides",
  "custom_data",
];

type Props = EntityFormProps<Price, CreatePriceInput, UpdatePriceInput> & { productId: string };

/**
 * Creates or edits a price: amounts typed in the currency's major unit and sent in minor units, a
 * billing cycle (one-time or every N intervals), an optional trial for recurring prices, the tax
 * mode, quantity limits and prices per country. The API's schema checks the body first; field
 * errors (the form's or the server's) appear beside their inputs, and nothing typed is lost.
 */
export function PriceForm(props: Props) {
  const price = props.entity;
  const state = useEntityForm<Price, CreatePriceInput, UpdatePriceInput, Values>(props, () => initialValues(price));
  const { values, set, bind, clear } = state;
  const { overrides } = values;
  const currencyChosen = useRef(Boolean(price));
  usePreselectCurrency(
    (code) => set("currency", code),
    () => currencyChosen.current,
  );
  const setOverrides = (list: OverrideRow[]) => set("overrides", list);
  const setOverride = (key: number, change: Partial<OverrideRow>) =>
    setOverrides(overrides.map((row) => (row.key === key ? { ...row, ...change } : row)));

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const fields = [
      ...BASE_FIELDS,
      ...overrides.flatMap((_, i) => [
        `unit_price_overrides[${i}]`,
        `unit_price_overrides[${i}].country_codes`,
        `unit_price_overrides[${i}].unit_price`,
        `unit_price_overrides[${i}].unit_price.amount`,
        `unit_price_overrides[${i}].unit_price.currency_code`,
      ]),
    ];
    // A repeated country is reported per position; its row's countries field shows it.
    const rename = (field: string) => field.replace(/^(unit_price_overrides\[\d+\]\.country_codes)\[\d+\]$/, "$1");

    // Amounts: the text typed in the major unit becomes minor units, or a message of this form's own.
    const local: Record<string, string> = {};
    const unitAmount = readMoney(values.amount, values.currency);
    if (!unitAmount.ok) local["unit_price.amount"] = unitAmount.message;
    else if (unitAmount.value === null) local["unit_price.amount"] = "Enter the price, such as 10.50.";
    const sentOverrides = overrides.map((row, i) => {
      const amount = readMoney(row.amount, row.currency);
      const field = `unit_price_overrides[${i}].unit_price.amount`;
      if (!amount.ok) local[field] = amount.message;
      else if (amount.value === null) local[field] = "Enter this override's price.";
      if (row.countries.length === 0) local[`unit_price_overrides[${i}].country_codes`] = "Add at least one country.";
      return {
        country_codes: row.countries,
        unit_price: { amount: amount.ok && amount.value !== null ? amount.value : "0", currency_code: row.currency },
      };
    });
    const customDataError = customDataProblem(values.custom_data);
    if (customDataError) local.custom_data = customDataError;

    const full = {
      description: values.description.trim(),
      name: textOrNull(values.name),
      unit_price: {
        amount: unitAmount.ok && unitAmount.value !== null ? unitAmount.value : "0",
        currency_code: values.currency,
      },
      billing_cycle: values.recurring ? periodBody(values.cycle) : null,
      trial_period: values.recurring && values.trial ? periodBody(values.trialPeriod) : null,
      tax_mode: values.tax_mode,
      quantity: { minimum: wholeNumber(values.minimum), maximum: wholeNumber(values.maximum) },
      unit_price_overrides: sentOverrides,
      custom_data: customDataValue(values.custom_data),
    };

    if (props.entity) {
      const trial = trialPeriodProblem(full.billing_cycle, full.trial_period);
      if (trial) local.trial_period = trial;
    }
    return state.submit(event, {
      fields,
      rename,
      local,
      schemas: { create: createPriceBody, update: updatePriceBody },
      create: () => {
        const { name, custom_data, ...rest } = full;
        return { product_id: props.productId, ...rest, ...withoutNulls({ name, custom_data }) } as CreatePriceInput;
      },
      update: (current) => changes(full, current) as UpdatePriceInput | null,
    });
  }

  const error = (field: string) => {
    const message = state.error(field);
    return message ? readable(message) : undefined;
  };
  const periodErrors = (prefix: "billing_cycle" | "trial_period"): PeriodErrors => ({
    period: error(prefix),
    frequency: error(`${prefix}.frequency`),
    interval: error(`${prefix}.interval`),
  });
  /** Where each country already is, for the other rows' pickers. */
  const takenBy = (key: number) => {
    const taken = new Map<string, string>();
    overrides.forEach((row, i) => {
      if (row.key !== key) for (const code of row.countries) taken.set(code, `override ${i + 1}`);
    });
    return taken;
  };

  return (
    <EntityForm
      noun="price"
      editing={Boolean(price)}
      state={state}
      onSubmit={onSubmit}
      onCancel={props.onCancel}
      spacing="space-y-5"
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Description"
          required
          autoComplete="off"
          maxLength={PRICE_DESCRIPTION_MAX}
          {...bind("description")}
          hint="Internal, for you and your team: not shown to customers."
        />
        <TextField
          label="Name"
          autoComplete="off"
          maxLength={PRICE_NAME_MAX}
          {...bind("name")}
          hint="Optional. Shown to customers at checkout, such as Monthly plan."
        />
      </div>

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <CurrencySelectField
          label="Currency"
          required
          value={values.currency}
          onChange={(event) => {
            currencyChosen.current = true;
            set("currency", event.target.value);
          }}
          error={error("unit_price.currency_code")}
        />
        <MoneyField
          label="Unit price"
          required
          currency={values.currency}
          value={values.amount}
          onValueChange={(value) => {
            set("amount", value);
            clear("unit_price.amount", "unit_price");
          }}
          error={error("unit_price.amount") ?? error("unit_price")}
        />
      </div>

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <BillingCyclePicker
          recurring={values.recurring}
          onRecurringChange={(recurring) => set("recurring", recurring)}
          value={values.cycle}
          onChange={(cycle) => set("cycle", cycle)}
          errors={periodErrors("billing_cycle")}
        />
        {values.recurring ? (
          <TrialPicker
            enabled={values.trial}
            onEnabledChange={(trial) => set("trial", trial)}
            value={values.trialPeriod}
            onChange={(trialPeriod) => set("trialPeriod", trialPeriod)}
            errors={periodErrors("trial_period")}
          />
        ) : (
          <div>
            <p className="text-sm font-medium text-slate-700">Trial period</p>
            <p className="mt-2 text-sm text-slate-500">Only recurring prices can start with a trial.</p>
            {error("trial_period") && <p className="mt-1 text-sm text-red-700">{error("trial_period")}</p>}
          </div>
        )}
      </div>

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-4">
        <SelectField
          label="Tax mode"
          {...bind("tax_mode")}
          className="sm:col-span-2"
          hint="Whether tax is added to this price or already included in it."
        >
          {TAX_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {TAX_MODE_LABELS[mode]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Minimum quantity"
          type="number"
          inputMode="numeric"
          min={1}
          {...bind("minimum")}
          error={error("quantity.minimum") ?? error("quantity")}
        />
        <TextField
          label="Maximum quantity"
          type="number"
          inputMode="numeric"
          min={1}
          {...bind("maximum")}
          error={error("quantity.maximum")}
          hint="1 to 999,999,999 per line."
        />
      </div>

      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Prices per country</legend>
        <p className="text-xs text-slate-500">
          Customers in these countries pay this amount instead of the unit price. A country can be in one override only.
        </p>
        {error("unit_price_overrides") && <p className="mt-1 text-sm text-red-700">{error("unit_price_overrides")}</p>}
        {overrides.length > 0 && (
          <ol className="mt-3 space-y-3">
            {overrides.map((row, i) => {
              const at = `unit_price_overrides[${i}]`;
              return (
                <li key={row.key} className="rounded-md border border-slate-200 bg-white p-3">
                  <div className="flex items-start justify-between gap-3">
                    <p className="text-sm font-semibold text-slate-800">Override {i + 1}</p>
                    <Button
                      variant="danger"
                      size="sm"
                      onClick={() => setOverrides(overrides.filter((r) => r.key !== row.key))}
                      aria-label={`Remove override ${i + 1}`}
                    >
                      Remove
                    </Button>
                  </div>
                  {error(at) && <p className="mt-1 text-sm text-red-700">{error(at)}</p>}
                  <div className="mt-2 grid grid-cols-1 gap-4 md:grid-cols-[3fr_2fr_2fr]">
                    <CountryListPicker
                      label="Countries"
                      context={`Override ${i + 1}`}
                      values={row.countries}
                      onChange={(countries) => setOverride(row.key, { countries })}
                      error={error(`${at}.country_codes`)}
                      taken={takenBy(row.key)}
                    />
                    <CurrencySelectField
                      label={
                        <>
                          <span className="sr-only">Override {i + 1} </span>Currency
                        </>
                      }
                      value={row.currency}
                      onChange={(event) => setOverride(row.key, { currency: event.target.value })}
                      error={error(`${at}.unit_price.currency_code`)}
                    />
                    <MoneyField
                      label={
                        <>
                          <span className="sr-only">Override {i + 1} </span>Price
                        </>
                      }
                      currency={row.currency}
                      value={row.amount}
                      onValueChange={(amount) => {
                        setOverride(row.key, { amount });
                        clear(`${at}.unit_price.amount`, `${at}.unit_price`);
                      }}
                      error={error(`${at}.unit_price.amount`) ?? error(`${at}.unit_price`)}
                    />
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          disabled={overrides.length >= MAX_UNIT_PRICE_OVERRIDES}
          onClick={() =>
            setOverrides([...overrides, { key: nextKey++, countries: [], currency: values.currency, amount: "" }])
          }
        >
          Add country price
        </Button>
      </fieldset>

      <CustomDataField
        value={values.custom_data}
        onChange={(value) => set("custom_data", value)}
        error={error("custom_data")}
        hint="Optional. Your own data, returned with the price."
      />
    </EntityForm>
  );
}
