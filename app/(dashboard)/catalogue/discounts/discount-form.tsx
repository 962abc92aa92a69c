"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/button";
import { CurrencySelectField } from "@/components/currency-select";
import { CustomDataField, customData, customDataProblem, customDataValue } from "@/components/custom-data-field";
import { changes, EntityForm, type EntityFormProps, useEntityForm, withoutNulls } from "@/components/entity-form";
import { EntityText } from "@/components/entity-text";
import { CheckboxField, Field, SelectField, TextField } from "@/components/form";
import { MoneyField, moneyHint } from "@/components/money-input";
import { InlineMessage } from "@/components/toast";
import { ApiClientError } from "@/lib/dashboard/api";
import { type Discount, useDiscountGroups } from "@/lib/dashboard/catalogue";
import { dateInputValue, endOfDayIso, todayInputValue } from "@/lib/dashboard/display";
import { moneyText, readMoney } from "@/lib/dashboard/money";
import {
  amountProblem,
  type CreateDiscountInput,
  createDiscountBody,
  DISCOUNT_TYPES,
  type DiscountType,
  type UpdateDiscountInput,
  updateDiscountBody,
} from "@/lib/schemas/discount";
import { DISCOUNT_TYPE_LABELS } from "./discount-text";
import { RestrictionPicker } from "./restriction-picker";

const FIELDS = [
  "description",
  "type",
  "amount",
  "currency_code",
  "code",
  "enabled_for_checkout",
  "recur",
  "maximum_recurring_intervals",
  "usage_limit",
  "expires_at",
  "discount_group_id",
  "restrict_to",
  "custom_data",
] as const;

/** `restrict_to[2]` errors name one entry; the checklist shows them as one field. */
const rename = (field: string) => field.replace(/^restrict_to\[\d+\]$/, "restrict_to");

function initialValues(discount?: Discount) {
  const currency = discount?.currency_code ?? "USD";
  const percentage = !discount || discount.type === "percentage";
  return {
    description: discount?.description ?? "",
    type: (discount?.type ?? "percentage") as DiscountType,
    percent: discount && percentage ? discount.amount : "",
    currency,
    money: discount && !percentage ? moneyText(discount.amount, currency) : "",
    code: discount?.code ?? "",
    enabled_for_checkout: discount?.enabled_for_checkout ?? true,
    recur: discount?.recur ?? false,
    maximum_recurring_intervals: discount?.maximum_recurring_intervals?.toString() ?? "",
    usage_limit: discount?.usage_limit?.toString() ?? "",
    expires_on: dateInputValue(discount?.expires_at),
    discount_group_id: discount?.discount_group_id ?? "",
    restricted: Boolean(discount?.restrict_to?.length),
    restrict_to: discount?.restrict_to ?? [],
    custom_data: customData(discount?.custom_data),
  };
}

/** "" → null; "12" → 12; anything else → NaN, which the schema refuses ("must be a whole number"). */
function countOrNull(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** A 409 about the revision (not the code): someone saved the discount after this form loaded it. */
export function isStaleRevision(error: unknown): boolean {
  return (
    error instanceof ApiClientError &&
    error.status === 409 &&
    !error.errors.some((e) => e.field === "code") &&
    /revision/i.test(error.message)
  );
}

function PercentField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <Field label="Amount" required error={error} hint="A percentage from 0.01 to 100, such as 15 or 12.5.">
      {(control) => (
        <div
          className={`flex items-stretch overflow-hidden rounded-md border bg-white shadow-sm focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-500 ${
            error ? "border-red-500" : "border-slate-300"
          }`}
        >
          <input
            type="text"
            inputMode="decimal"
            autoComplete="off"
            {...control}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            className="block w-full min-w-0 border-0 bg-transparent px-3 py-2 text-right font-mono text-sm text-slate-900 tabular-nums focus:outline-none"
          />
          <span
            aria-hidden="true"
            className="flex items-center border-l border-slate-200 bg-slate-50 px-3 text-sm text-slate-600"
          >
            %
          </span>
        </div>
      )}
    </Field>
  );
}

type Props = EntityFormProps<Discount, CreateDiscountInput, UpdateDiscountInput> & {
  /** Loads the discount as it is now (after a stale-revision refusal); editing sends the change as of its revision. */
  onReload?: () => void;
};

/**
 * Creates or edits a discount of any type: the amount is a percentage or money in the chosen
 * currency, recurring discounts can stop after N payments, and the restriction is picked from the
 * catalogue. The API's schema checks the body first; field errors (the form's or the server's)
 * sit beside the fields and nothing typed is lost. An edit names the revision it was loaded with,
 * so a change someone saved meanwhile is never overwritten: the form says so and offers a reload.
 */
export function DiscountForm(props: Props) {
  const discount = props.entity;
  const state = useEntityForm<Discount, CreateDiscountInput, UpdateDiscountInput, ReturnType<typeof initialValues>>(
    props,
    () => initialValues(discount),
  );
  const { values, set, bind, error, clear } = state;
  const [stale, setStale] = useState(false);
  const staleRef = useRef<HTMLDivElement>(null);
  const typeName = useId();
  const groups = useDiscountGroups({ status: "active", per_page: 200, order_by: "id[ASC]" });
  useEffect(() => {
    if (stale) staleRef.current?.focus();
  }, [stale]);
  const percentage = values.type === "percentage";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const local: Record<string, string> = {};
    let amount = values.percent.trim();
    if (!percentage) {
      const money = readMoney(values.money, values.currency);
      if (!money.ok) local.amount = money.message;
      else if (money.value === null) local.amount = "Enter the amount of the discount, such as 5.00.";
      amount = money.ok && money.value !== null ? money.value : "1";
    } else if (amount === "") {
      local.amount = "Enter the percentage, such as 15.";
      amount = "1";
    }
    if (values.restricted && values.restrict_to.length === 0) {
      local.restrict_to = "Choose at least one product or price, or apply the discount to all products.";
    }
    const customDataError = customDataProblem(values.custom_data);
    if (customDataError) local.custom_data = customDataError;

    const full = {
      description: values.description.trim(),
      type: values.type,
      amount,
      currency_code: percentage ? null : values.currency,
      code: values.code.trim() === "" ? null : values.code.trim(),
      enabled_for_checkout: values.enabled_for_checkout,
      recur: values.recur,
      maximum_recurring_intervals: values.recur ? countOrNull(values.maximum_recurring_intervals) : null,
      usage_limit: countOrNull(values.usage_limit),
      restrict_to: values.restricted ? values.restrict_to : null,
      expires_at: values.expires_on ? endOfDayIso(values.expires_on) : null,
      discount_group_id: values.discount_group_id || null,
      custom_data: customDataValue(values.custom_data),
    };

    return state.submit(event, {
      fields: FIELDS,
      rename,
      local,
      schemas: { create: createDiscountBody, update: updateDiscountBody },
      handle: (caught) => {
        if (isStaleRevision(caught)) setStale(true);
        return isStaleRevision(caught);
      },
      create: () => withoutNulls(full) as CreateDiscountInput,
      update: (current) => {
        const body: Record<string, unknown> = {
          ...changes(full, { ...current, restrict_to: current.restrict_to?.length ? current.restrict_to : null }),
        };
        // Type, amount and currency are read together by the rules, so a change to one sends all three.
        if ("type" in body || "amount" in body || "currency_code" in body) {
          Object.assign(body, { type: full.type, amount: full.amount, currency_code: full.currency_code });
        }
        if ("recur" in body || "maximum_recurring_intervals" in body) {
          Object.assign(body, { recur: full.recur, maximum_recurring_intervals: full.maximum_recurring_intervals });
        }
        // An untouched date is not sent again (an expired discount keeps its past expiry).
        if (values.expires_on === initialValues(current).expires_on) delete body.expires_at;
        else body.expires_at = full.expires_at;
        return body as UpdateDiscountInput;
      },
    });
  }

  const groupOptions = [...(groups.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const currentGroup = discount?.discount_group_id;
  return (
    <EntityForm
      noun="discount"
      editing={Boolean(discount)}
      submitLabel={{ add: "Create discount", save: "Save discount" }}
      submitDisabled={stale}
      state={state}
      onSubmit={onSubmit}
      onCancel={props.onCancel}
      renderDetail={(detail) => <EntityText text={detail} />}
      spacing="space-y-5"
    >
      {stale && props.onReload && (
        <div ref={staleRef} tabIndex={-1}>
          <InlineMessage tone="warning" title="Someone changed this discount since you opened it">
            <p>
              Your changes were not saved, so theirs are not overwritten. Reload the discount to see the current
              version, then make your changes again.
            </p>
            <Button variant="secondary" size="sm" className="mt-2" onClick={props.onReload}>
              Reload discount
            </Button>
          </InlineMessage>
        </div>
      )}

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Description"
          required
          autoComplete="off"
          maxLength={500}
          {...bind("description")}
          hint="Internal, for you and your team: customers never see it (invoices show the code, or just “Discount”)."
          className="sm:col-span-2"
        />
      </div>

      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Type</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {DISCOUNT_TYPES.map((type) => (
            <label key={type} className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={typeName}
                value={type}
                checked={values.type === type}
                onChange={() => set("type", type)}
                className="h-4 w-4 accent-brand-600"
              />
              {DISCOUNT_TYPE_LABELS[type]}
            </label>
          ))}
        </div>
        {error("type") && <p className="mt-1 text-sm text-red-700">{error("type")}</p>}
      </fieldset>

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {percentage ? (
          <PercentField
            value={values.percent}
            onChange={(value) => {
              set("percent", value);
              clear("amount");
            }}
            error={
              error("amount") ??
              // Once changed after a refusal, the percentage is checked as typed (the schema's own rule).
              (state.isCleared("amount") && values.percent.trim() !== ""
                ? (amountProblem("percentage", values.percent.trim()) ?? undefined)
                : undefined)
            }
          />
        ) : (
          <>
            <CurrencySelectField
              label="Currency"
              required
              value={values.currency}
              onChange={(event) => set("currency", event.target.value)}
              error={error("currency_code")}
            />
            <MoneyField
              label="Amount"
              required
              currency={values.currency}
              value={values.money}
              onValueChange={(value) => {
                set("money", value);
                clear("amount");
              }}
              error={error("amount")}
              hint={`${
                values.type === "flat_per_seat"
                  ? "Taken off once for each unit (seat) of the discounted items."
                  : "Taken off the total of the discounted items."
              } ${moneyHint(values.currency)}`}
            />
          </>
        )}
      </div>

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div className="space-y-3">
          <CheckboxField
            label="Customers can redeem it at checkout"
            checked={values.enabled_for_checkout}
            onChange={(event) => set("enabled_for_checkout", event.target.checked)}
            error={error("enabled_for_checkout")}
          />
          <TextField
            label="Code"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            {...bind("code")}
            placeholder="SUMMER15"
            hint={
              values.enabled_for_checkout
                ? "Letters and digits, such as SUMMER15. Left empty, a code is generated for checkout. Customers see it on their invoices."
                : "Optional. Letters and digits, unique without regard to case. Customers see it on their invoices."
            }
          />
        </div>
        <div className="space-y-3">
          <CheckboxField
            label="Recurring: applies to renewals too"
            checked={values.recur}
            onChange={(event) => set("recur", event.target.checked)}
            error={error("recur")}
          />
          {values.recur ? (
            <TextField
              label="Number of payments"
              type="number"
              inputMode="numeric"
              min={1}
              {...bind("maximum_recurring_intervals")}
              hint="How many billing periods it applies to. Empty: every payment, for as long as the subscription lasts."
            />
          ) : (
            <p className="ml-6 text-xs text-slate-500">Applies to the first payment only.</p>
          )}
          {!values.recur && error("maximum_recurring_intervals") && (
            <p className="ml-6 text-sm text-red-700">{error("maximum_recurring_intervals")}</p>
          )}
        </div>
      </div>

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <TextField
          label="Usage limit"
          type="number"
          inputMode="numeric"
          min={1}
          {...bind("usage_limit")}
          hint={`Redemptions in total, by all customers. Empty: unlimited.${discount ? ` Used ${discount.times_used} times so far.` : ""}`}
        />
        <TextField
          label="Expires on"
          type="date"
          min={todayInputValue()}
          {...bind("expires_on", "expires_at")}
          hint="It can be redeemed until the end of this day. Empty: never expires."
        />
        <SelectField
          label="Discount group"
          {...bind("discount_group_id")}
          hint={
            groups.error ? "Could not load the discount groups." : "Optional. Groups keep related discounts together."
          }
        >
          <option value="">No group</option>
          {currentGroup && !groupOptions.some((g) => g.id === currentGroup) && (
            <option value={currentGroup}>{discount?.discount_group?.name ?? currentGroup} (archived)</option>
          )}
          {groupOptions.map((group) => (
            <option key={group.id} value={group.id}>
              {group.name}
            </option>
          ))}
        </SelectField>
      </div>

      <RestrictionPicker
        restricted={values.restricted}
        onRestrictedChange={(restricted) => set("restricted", restricted)}
        selected={values.restrict_to}
        onChange={(ids) => set("restrict_to", ids)}
        error={error("restrict_to")}
      />

      <CustomDataField
        value={values.custom_data}
        onChange={(value) => set("custom_data", value)}
        error={error("custom_data")}
        hint="Optional. Your own data, returned with the discount."
      />
    </EntityForm>
  );
}
