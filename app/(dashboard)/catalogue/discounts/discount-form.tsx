"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/button";
import { CurrencySelectField } from "@/components/currency-select";
import { EntityText } from "@/components/entity-text";
import {
  CheckboxField,
  Field,
  FormActions,
  FormError,
  SelectField,
  TextAreaField,
  TextField,
  useFocusOnError,
} from "@/components/form";
import { MoneyField, moneyHint } from "@/components/money-input";
import { InlineMessage } from "@/components/toast";
import { ApiClientError } from "@/lib/client/api";
import { type Discount, useDiscountGroups } from "@/lib/client/catalogue";
import { checkBody, type FormErrorState, formErrors, parseJsonField } from "@/lib/client/form";
import { dateInputValue, endOfDayIso, jsonText, todayInputValue } from "@/lib/client/format";
import { moneyText, readMoney } from "@/lib/client/money";
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

interface Values {
  description: string;
  type: DiscountType;
  percent: string;
  currency: string;
  money: string;
  code: string;
  enabled_for_checkout: boolean;
  recur: boolean;
  maximum_recurring_intervals: string;
  usage_limit: string;
  expires_on: string;
  discount_group_id: string;
  restricted: boolean;
  restrict_to: string[];
  custom_data: string;
}

function initialValues(discount?: Discount): Values {
  const currency = discount?.currency_code ?? "USD";
  const percentage = !discount || discount.type === "percentage";
  return {
    description: discount?.description ?? "",
    type: discount?.type ?? "percentage",
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
    custom_data: jsonText(discount?.custom_data),
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

type Props =
  | { discount?: undefined; onSubmit: (body: CreateDiscountInput) => Promise<Discount> }
  | {
      discount: Discount;
      /** Sends the change as of `discount.revision_id`. */
      onSubmit: (body: UpdateDiscountInput) => Promise<Discount>;
      /** Loads the discount as it is now (after a stale-revision refusal). */
      onReload: () => void;
    };

/**
 * Creates or edits a discount of any type: the amount is a percentage or money in the chosen
 * currency, recurring discounts can stop after N payments, and the restriction is picked from the
 * catalogue. The API's schema checks the body first; field errors (the form's or the server's)
 * sit beside the fields and nothing typed is lost. An edit names the revision it was loaded with,
 * so a change someone saved meanwhile is never overwritten: the form says so and offers a reload.
 */
export function DiscountForm(props: Props & { onSaved: (discount: Discount | null) => void; onCancel: () => void }) {
  const { discount, onSaved, onCancel } = props;
  const [values, setValues] = useState<Values>(() => initialValues(discount));
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const [stale, setStale] = useState(false);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const staleRef = useRef<HTMLDivElement>(null);
  const typeName = useId();
  const groups = useDiscountGroups({ status: "active", per_page: 200, order_by: "id[ASC]" });
  useFocusOnError(form, errors);
  useEffect(() => form.current?.querySelector<HTMLInputElement>("input")?.focus(), []);
  useEffect(() => {
    if (stale) staleRef.current?.focus();
  }, [stale]);

  const set = <K extends keyof Values>(field: K, value: Values[K]) => setValues((v) => ({ ...v, [field]: value }));
  /**
   * Fields whose message of the last submit gives way once changed (the amount, which the money
   * input checks as it changes). Kept apart from `errors`, whose change moves focus.
   */
  const [cleared, setCleared] = useState<ReadonlySet<string>>(new Set());
  const clearError = (field: string) =>
    setCleared((current) => (current.has(field) ? current : new Set([...current, field])));
  const text =
    (
      field:
        | "description"
        | "code"
        | "maximum_recurring_intervals"
        | "usage_limit"
        | "expires_on"
        | "discount_group_id"
        | "custom_data",
    ) =>
    (event: { target: { value: string } }) =>
      set(field, event.target.value);
  const percentage = values.type === "percentage";

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setCleared(new Set());
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
    const customData = parseJsonField(values.custom_data);
    if (!customData.ok) local.custom_data = customData.message;

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
      custom_data: customData.ok ? customData.value : null,
    };

    let body: Record<string, unknown>;
    let checked: ReturnType<typeof checkBody>;
    if (!props.discount) {
      body = Object.fromEntries(Object.entries(full).filter(([, value]) => value !== null));
      checked = checkBody(createDiscountBody, body, FIELDS, rename);
    } else {
      const current = props.discount;
      const initial = initialValues(current);
      body = {};
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      if (full.description !== current.description) body.description = full.description;
      // Type, amount and currency are read together by the rules, so a change to one sends all three.
      if (
        full.type !== current.type ||
        full.amount !== current.amount ||
        full.currency_code !== current.currency_code
      ) {
        body.type = full.type;
        body.amount = full.amount;
        body.currency_code = full.currency_code;
      }
      if (full.code !== current.code) body.code = full.code;
      if (full.enabled_for_checkout !== current.enabled_for_checkout) {
        body.enabled_for_checkout = full.enabled_for_checkout;
      }
      if (full.recur !== current.recur || full.maximum_recurring_intervals !== current.maximum_recurring_intervals) {
        body.recur = full.recur;
        body.maximum_recurring_intervals = full.maximum_recurring_intervals;
      }
      if (full.usage_limit !== current.usage_limit) body.usage_limit = full.usage_limit;
      if (!same(full.restrict_to, current.restrict_to?.length ? current.restrict_to : null)) {
        body.restrict_to = full.restrict_to;
      }
      // An untouched date is not sent again (an expired discount keeps its past expiry).
      if (values.expires_on !== initial.expires_on) body.expires_at = full.expires_at;
      if (full.discount_group_id !== current.discount_group_id) body.discount_group_id = full.discount_group_id;
      if (!same(full.custom_data, current.custom_data)) body.custom_data = full.custom_data;
      if (Object.keys(body).length === 0 && Object.keys(local).length === 0) return onSaved(null);
      checked = checkBody(updateDiscountBody, body, FIELDS, rename);
    }

    if (!checked.ok || Object.keys(local).length > 0) {
      const schemaErrors = checked.ok ? { fields: {}, message: null, other: [] } : checked.errors;
      setErrors({
        ...schemaErrors,
        fields: { ...schemaErrors.fields, ...local },
        message: schemaErrors.other.length > 0 ? "Some fields need attention." : null,
      });
      return;
    }

    setPending(true);
    setErrors(null);
    try {
      onSaved(
        props.discount
          ? await props.onSubmit(body as UpdateDiscountInput)
          : await props.onSubmit(body as CreateDiscountInput),
      );
    } catch (error) {
      if (isStaleRevision(error)) setStale(true);
      else setErrors(formErrors(error, FIELDS, rename));
    } finally {
      setPending(false);
    }
  }

  const error = (field: (typeof FIELDS)[number]) => (cleared.has(field) ? undefined : errors?.fields[field]);
  const groupOptions = [...(groups.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const currentGroup = discount?.discount_group_id;
  const title = discount ? "Edit discount" : "New discount";
  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label={title} className="space-y-5">
      {stale && props.discount && (
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
          value={values.description}
          onChange={text("description")}
          error={error("description")}
          hint="Internal, for you and your team: customers do not see it."
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
              clearError("amount");
            }}
            error={
              error("amount") ??
              // Once changed after a refusal, the percentage is checked as typed (the schema's own rule).
              (cleared.has("amount") && values.percent.trim() !== ""
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
                clearError("amount");
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
            value={values.code}
            onChange={text("code")}
            error={error("code")}
            placeholder="SUMMER15"
            hint={
              values.enabled_for_checkout
                ? "Letters and digits, such as SUMMER15. Left empty, a code is generated for checkout."
                : "Optional. Letters and digits, unique without regard to case."
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
              value={values.maximum_recurring_intervals}
              onChange={text("maximum_recurring_intervals")}
              error={error("maximum_recurring_intervals")}
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
          value={values.usage_limit}
          onChange={text("usage_limit")}
          error={error("usage_limit")}
          hint={`Redemptions in total, by all customers. Empty: unlimited.${discount ? ` Used ${discount.times_used} times so far.` : ""}`}
        />
        <TextField
          label="Expires on"
          type="date"
          min={todayInputValue()}
          value={values.expires_on}
          onChange={text("expires_on")}
          error={error("expires_at")}
          hint="It can be redeemed until the end of this day. Empty: never expires."
        />
        <SelectField
          label="Discount group"
          value={values.discount_group_id}
          onChange={text("discount_group_id")}
          error={error("discount_group_id")}
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

      <TextAreaField
        label="Custom data"
        value={values.custom_data}
        onChange={text("custom_data")}
        error={error("custom_data")}
        placeholder='{"campaign": "summer"}'
        hint="Optional. A JSON object of your own data, returned with the discount."
        rows={2}
        spellCheck={false}
      />

      {errors && (
        <FormError
          message={errors.message}
          other={errors.other}
          requestId={errors.requestId}
          renderDetail={(detail) => <EntityText text={detail} />}
        />
      )}
      <FormActions>
        <Button type="submit" pending={pending} pendingLabel="Saving…" disabled={stale}>
          {discount ? "Save discount" : "Create discount"}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
