/**
 * Discounts (spec: Discount, PATCH /discounts/{discount_id}): request bodies, queries, path
 * parameters and the response shape. Client-safe: the dashboard's discount forms use these schemas
 * too, so the rules that tie fields together (the amount depends on the type, flat discounts need a
 * currency, ...) live here, in `discountRuleProblems`, and give the form and the API the same field
 * errors. The service applies the same function to the discount a PATCH would produce.
 */
import { z } from "zod";
import { CURRENCY_CODES, type CurrencyCode } from "../billing/currencies.ts";
import { csv, customData, dateTime, entityId, includeParam, listQuery, statusEnum } from "./common.ts";
import { discountGroupSchema } from "./discount-group.ts";

export const DISCOUNT_TYPES = ["percentage", "flat", "flat_per_seat"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const DISCOUNT_MODES = ["standard", "custom"] as const;
export type DiscountMode = (typeof DISCOUNT_MODES)[number];

/**
 * `status` as the API reports it. Stored are `active` and `archived` (the only values a PATCH may
 * send); an active discount is reported `expired` once `expires_at` has passed and `used` once
 * `times_used` has reached `usage_limit`, as in the API family.
 */
export const DISCOUNT_STATUSES = ["active", "archived", "expired", "used"] as const;
export type DiscountStatus = (typeof DISCOUNT_STATUSES)[number];

/** The largest `maximum_recurring_intervals` and `usage_limit` (the columns are 32-bit integers). */
export const MAX_DISCOUNT_COUNT = 2_147_483_647;

/** Flat amounts are integers of the currency's minor unit with at most this many digits. */
export const MAX_FLAT_AMOUNT_DIGITS = 18;

/**
 * Values a create takes when the body leaves them out, as in the API family. `enabled_for_checkout`
 * defaults to true there, and a discount enabled for checkout without a code gets a generated one
 * (10 random letters and digits) instead of being refused.
 */
export const DISCOUNT_DEFAULTS = {
  enabled_for_checkout: true,
  mode: "standard",
  recur: false,
} as const satisfies { enabled_for_checkout: boolean; mode: DiscountMode; recur: boolean };

/**
 * The discount as the API returns it (spec: Discount). `include=discount_group` adds the group,
 * `include=revision` our extension `revision_id` (lib/db/entities/discount.ts).
 */
export const discountSchema = z.object({
  id: z.string(),
  status: z.enum(DISCOUNT_STATUSES),
  description: z.string(),
  enabled_for_checkout: z.boolean(),
  code: z.string().nullable(),
  type: z.enum(DISCOUNT_TYPES),
  mode: z.enum(DISCOUNT_MODES),
  amount: z.string(),
  currency_code: z.string().nullable(),
  recur: z.boolean(),
  maximum_recurring_intervals: z.number().int().nullable(),
  usage_limit: z.number().int().nullable(),
  restrict_to: z.array(z.string()).nullable(),
  expires_at: z.string().nullable(),
  times_used: z.number().int(),
  discount_group_id: z.string().nullable(),
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  import_meta: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Only with `include=discount_group`. */
  discount_group: discountGroupSchema.nullable().optional(),
  /**
   * Only with `include=revision` (ours): the current `dscrev_` revision; send `dsc_…@dscrev_…` to
   * PATCH only that revision. GET and PATCH /discounts/{discount_id} send it in the
   * `Service-Revision-Id` header too.
   */
  revision_id: z.string().optional(),
});
export type Discount = z.infer<typeof discountSchema>;

const discountType = z.enum(DISCOUNT_TYPES, { error: "must be percentage, flat or flat_per_seat" });
const discountMode = z.enum(DISCOUNT_MODES, { error: "must be standard or custom" });
const discountStatus = z.enum(DISCOUNT_STATUSES, { error: "must be active, archived, expired or used" });

/** A discount code: letters and digits only, 1-32 characters; unique without regard to case. */
export const discountCode = z
  .string({ error: "must be a string of 1 to 32 letters and digits" })
  .regex(/^[A-Za-z0-9]{1,32}$/, "must be 1 to 32 letters and digits, with no spaces");

const currencyCode = z.enum(CURRENCY_CODES as [CurrencyCode, ...CurrencyCode[]], {
  error: "must be a supported three-letter ISO 4217 currency code, such as USD",
});

/** The shape every amount has; what it must be beyond that depends on `type` (discountRuleProblems). */
const amount = z
  .string({ error: 'must be a string, such as "10" or "12.5"' })
  .regex(/^\d+(\.\d+)?$/, 'must be a non-negative number written as a string, such as "10" or "12.5"');

const count = z
  .number({ error: "must be a whole number or null" })
  .int(`must be a whole number from 1 to ${MAX_DISCOUNT_COUNT}`)
  .min(1, `must be a whole number from 1 to ${MAX_DISCOUNT_COUNT}`)
  .max(MAX_DISCOUNT_COUNT, `must be a whole number from 1 to ${MAX_DISCOUNT_COUNT}`)
  .nullable();

const restrictToId = z
  .string({ error: "must be a product (pro_) or price (pri_) ID" })
  .regex(/^(pro|pri)_[a-z0-9]{26}$/, "must be a product (pro_) or price (pri_) ID");

/** Unique product and price IDs; null (or an empty list) means every product and price. */
const restrictTo = z
  .array(restrictToId, { error: "must be an array of product and price IDs, or null" })
  .superRefine((ids, ctx) => {
    const first = new Map<string, number>();
    ids.forEach((id, i) => {
      const seen = first.get(id);
      if (seen === undefined) first.set(id, i);
      else ctx.addIssue({ code: "custom", path: [i], message: `repeats restrict_to[${seen}]` });
    });
  })
  .nullable();

/** RFC 3339 with an offset (`Z` or `±hh:mm`), in the future; null never expires. */
const expiresAt = dateTime.refine((value) => Date.parse(value) > Date.now(), "must be in the future").nullable();

const bool = z.boolean({ error: "must be true or false" });

/**
 * 1-500 characters with a non-whitespace character, as one check giving one message: common.ts's
 * requiredText aborts the parse on an empty string, which would hide the cross-field problems.
 */
const description = z.string({ error: "must be a string of 1 to 500 characters" }).superRefine((value, ctx) => {
  if (value.length < 1 || value.length > 500) ctx.addIssue({ code: "custom", message: "must be 1 to 500 characters" });
  else if (value.trim() === "") ctx.addIssue({ code: "custom", message: "must contain a non-whitespace character" });
});

export interface FieldProblem {
  field: string;
  message: string;
}

/** The fields the cross-field rules read. Undefined means unknown (a PATCH that leaves it out). */
export interface DiscountRuleValues {
  type?: unknown;
  amount?: unknown;
  currency_code?: unknown;
  recur?: unknown;
  maximum_recurring_intervals?: unknown;
}

function isType(value: unknown): value is DiscountType {
  return (DISCOUNT_TYPES as readonly unknown[]).includes(value);
}

/** The problem with `amount` for a discount of `type`, or null. Exact: string arithmetic only. */
export function amountProblem(type: DiscountType, amount: string): string | null {
  if (type === "percentage") {
    const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
    if (!match) return "must be a percentage with at most two decimal places, such as 10 or 12.5";
    const [, digits = "", fraction = ""] = match;
    const whole = digits.replace(/^0+/, "");
    const hundredths = whole.length > 3 ? Number.POSITIVE_INFINITY : Number(whole || "0") * 100;
    const value = hundredths + Number(fraction.padEnd(2, "0"));
    if (value < 1 || value > 10_000) return "must be between 0.01 and 100 for percentage discounts";
    return null;
  }
  if (!/^\d+$/.test(amount)) {
    return 'must be a whole number in the lowest denomination of the currency, such as "1000" for 10.00 USD';
  }
  const digits = amount.replace(/^0+/, "");
  if (digits === "") return "must be at least 1";
  if (digits.length > MAX_FLAT_AMOUNT_DIGITS) return `must be at most ${MAX_FLAT_AMOUNT_DIGITS} digits`;
  return null;
}

/** The currency a discount keeps: none for a percentage discount, whatever the body sent. */
export function storedCurrencyCode(
  type: DiscountType,
  currencyCode: string | null | undefined,
): string | null | undefined {
  return type === "percentage" ? null : currencyCode;
}

/**
 * The rules that tie a discount's fields together. Each rule runs only when every field it reads
 * is known (not undefined) and well-formed, so it can check a whole discount (a create with its
 * defaults filled in, the result of a PATCH) or just the fields a PATCH body sends.
 */
export function discountRuleProblems(d: DiscountRuleValues): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (isType(d.type) && typeof d.amount === "string") {
    const problem = amountProblem(d.type, d.amount);
    if (problem) problems.push({ field: "amount", message: problem });
  }
  // A percentage discount has no currency, but one sent with it is accepted and not kept
  // (storedCurrencyCode): the family's Python SDK sends `currency_code` with every discount.
  if (isType(d.type) && d.type !== "percentage" && d.currency_code === null) {
    problems.push({ field: "currency_code", message: `is required for ${d.type} discounts` });
  }
  if (d.recur === false && typeof d.maximum_recurring_intervals === "number") {
    problems.push({
      field: "maximum_recurring_intervals",
      message: "requires recur to be true (set it to null for a discount that does not recur)",
    });
  }
  return problems;
}

/**
 * Adds the cross-field problems to a body's issues. It runs even when some fields failed, so one
 * response lists every problem; a field that already has an issue gets no second one.
 */
function crossFieldCheck(fill: (value: Record<string, unknown>) => DiscountRuleValues) {
  return [
    (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
      const failed = new Set(ctx.issues.map((issue) => issue.path?.[0]));
      // A field that failed is unknown to the rules: no rule reads it.
      const known: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(fill(value))) known[key] = failed.has(key) ? undefined : v;
      for (const problem of discountRuleProblems(known)) {
        if (!failed.has(problem.field))
          ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
      }
    },
    { when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null },
  ] as const;
}

const optionalFields = {
  enabled_for_checkout: bool.optional(),
  code: discountCode.nullable().optional(),
  mode: discountMode.optional(),
  currency_code: currencyCode.nullable().optional(),
  recur: bool.optional(),
  maximum_recurring_intervals: count.optional(),
  usage_limit: count.optional(),
  restrict_to: restrictTo.optional(),
  expires_at: expiresAt.optional(),
  custom_data: customData.optional(),
  discount_group_id: entityId("dsg").nullable().optional(),
};

export const createDiscountBody = z
  .strictObject({
    description,
    type: discountType,
    amount,
    ...optionalFields,
  })
  .superRefine(
    ...crossFieldCheck((value) => ({
      type: value.type,
      amount: value.amount,
      currency_code: value.currency_code ?? null,
      recur: value.recur ?? DISCOUNT_DEFAULTS.recur,
      maximum_recurring_intervals: value.maximum_recurring_intervals ?? null,
    })),
  );
export type CreateDiscountInput = z.infer<typeof createDiscountBody>;

/**
 * Every field optional. The rules between fields are checked here for the fields the body sends
 * together; the service checks them again on the discount the change would produce.
 */
export const updateDiscountBody = z
  .strictObject({
    status: statusEnum.optional(),
    description: description.optional(),
    type: discountType.optional(),
    amount: amount.optional(),
    ...optionalFields,
  })
  .superRefine(
    ...crossFieldCheck((value) => ({
      type: value.type,
      amount: value.amount,
      currency_code: value.currency_code,
      recur: value.recur,
      maximum_recurring_intervals: value.maximum_recurring_intervals,
    })),
  );
export type UpdateDiscountInput = z.infer<typeof updateDiscountBody>;

const DISCOUNT_PATH_ID = /^(dsc_[a-z0-9]{26})(?:@(dscrev_[a-z0-9]{26}))?$/;

/**
 * `discount_id`: `dsc_<26>`, or `dsc_<26>@dscrev_<26>` naming the revision the caller last saw.
 * Parsed into the discount's ID and the revision (null when not named). An `@` sent encoded as
 * `%40` is read as `@`.
 */
export const discountParams = z.object({ discount_id: z.string() }).transform(({ discount_id }, ctx) => {
  const [, id, revisionId] = DISCOUNT_PATH_ID.exec(discount_id.replace(/%40/gi, "@")) ?? [];
  if (id === undefined) {
    ctx.addIssue({ code: "custom", path: ["discount_id"], message: "must be dsc_<id> or dsc_<id>@dscrev_<id>" });
    return z.NEVER;
  }
  return { discount_id: id, revision_id: revisionId ?? null };
});
export type DiscountParams = z.infer<typeof discountParams>;

/** `discount_group` (the family's), `revision` (ours: adds `revision_id`). */
export const DISCOUNT_INCLUDES = ["discount_group", "revision"] as const;
const include = includeParam(DISCOUNT_INCLUDES).optional();

export const getDiscountQuery = z.object({ include });
export type GetDiscountQuery = z.infer<typeof getDiscountQuery>;

export const listDiscountsQuery = z.object({
  ...listQuery(["id", "created_at", "updated_at"]),
  id: csv(entityId("dsc")).optional(),
  status: csv(discountStatus).optional(),
  code: csv(z.string().max(32, "must be at most 32 characters")).optional(),
  discount_group_id: csv(entityId("dsg")).optional(),
  mode: discountMode.optional(),
  include,
  /** Our addition to the API family's filters, for the dashboard: matches ID, code and description. */
  search: z.string().max(100, "must be at most 100 characters").optional(),
});
export type ListDiscountsQuery = z.infer<typeof listDiscountsQuery>;
