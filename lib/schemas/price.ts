/**
 * Price schemas (spec: Price): request bodies, query parameters and the response shape.
 * Client-safe: the dashboard's forms import these.
 *
 * `productWithPricesSchema` lives here rather than in product.ts because it needs the price
 * schema, and product.ts must not import this module (the two would import each other).
 */
import { z } from "zod";
import { CURRENCY_CODES, isCurrencyCode } from "../billing/currencies.ts";
import { countryCode, csv, customData, entityId, includeParam, listQuery, requiredText, statusEnum } from "./common.ts";
import type { OrderBy } from "./list-query.ts";
import { catalogType, productSchema } from "./product.ts";

export const PRICE_DESCRIPTION_MAX = 500;
export const PRICE_NAME_MAX = 150;
export const MAX_UNIT_PRICE_OVERRIDES = 250;
/** Digits of an amount: 18 always fit the bigint column (whose maximum has 19). */
export const AMOUNT_MAX_DIGITS = 18;
export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 999_999_999;
/**
 * The spec gives only a minimum (1) for `frequency`. The upper bound is ours: it keeps billing
 * dates computable (999 years at most) and the value inside the integer column, so a client's
 * huge number is a field error rather than a database failure.
 */
export const FREQUENCY_MAX = 999;
export const DEFAULT_QUANTITY = { minimum: 1, maximum: 100 } as const;

export const INTERVALS = ["day", "week", "month", "year"] as const;
export type Interval = (typeof INTERVALS)[number];

/** `location`: inclusive or exclusive by the customer's country (lib/billing/tax-inclusive-countries.ts). */
export const TAX_MODES = ["account_setting", "external", "internal", "location"] as const;
export type TaxMode = (typeof TAX_MODES)[number];

// ---------------------------------------------------------------------------------------------
// Response shape

const durationSchema = z.object({ interval: z.enum(INTERVALS), frequency: z.number().int() });
const moneySchema = z.object({ amount: z.string(), currency_code: z.string() });

/** The price as the API returns it (spec: Price), in the spec's field order. */
export const priceSchema = z.object({
  id: z.string(),
  product_id: z.string(),
  type: catalogType,
  description: z.string(),
  name: z.string().nullable(),
  tax_mode: z.enum(TAX_MODES),
  billing_cycle: durationSchema.nullable(),
  trial_period: durationSchema.nullable(),
  unit_price: moneySchema,
  unit_price_overrides: z.array(z.object({ country_codes: z.array(z.string()), unit_price: moneySchema })),
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  status: statusEnum,
  quantity: z.object({ minimum: z.number().int(), maximum: z.number().int() }),
  import_meta: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Price = z.infer<typeof priceSchema>;

/** A price with `include=product`. */
export const priceWithProductSchema = priceSchema.extend({ product: productSchema });
export type PriceWithProduct = z.infer<typeof priceWithProductSchema>;

/** A product with `include=prices`. */
export const productWithPricesSchema = productSchema.extend({ prices: z.array(priceSchema) });
export type ProductWithPrices = z.infer<typeof productWithPricesSchema>;

/** A price as the endpoints that take `include` return it: `product` only with `include=product`. */
export const priceResponseSchema = priceSchema.extend({ product: productSchema.optional() });

/** A product as the endpoints that take `include` return it: `prices` only with `include=prices`. */
export const productResponseSchema = productSchema.extend({ prices: z.array(priceSchema).optional() });

// ---------------------------------------------------------------------------------------------
// Request bodies

/**
 * An amount in the currency's minor unit: a string of digits (a non-negative whole number, so
 * `"0"` makes a free price). Leading zeros are dropped, so `"0100"` is stored and returned as `"100"`.
 */
export const amount = z
  .string({ error: "must be a string of digits: a whole number of the currency's minor unit" })
  .regex(new RegExp(`^\\d{1,${AMOUNT_MAX_DIGITS}}$`), {
    error: `must be a string of 1 to ${AMOUNT_MAX_DIGITS} digits: a non-negative whole number of the currency's minor unit`,
  })
  .transform((value) => value.replace(/^0+(?=\d)/, ""));

export const currencyCode = z
  .string({ error: "must be a supported three-letter ISO 4217 currency code" })
  .refine(isCurrencyCode, `must be a supported ISO 4217 currency code: ${CURRENCY_CODES.join(", ")}`);

export const money = z.strictObject(
  { amount, currency_code: currencyCode },
  { error: "must be an object with amount and currency_code" },
);
export type MoneyInput = z.infer<typeof money>;

/** `billing_cycle` and `trial_period`: every `frequency` `interval`s. */
export const duration = z.strictObject(
  {
    interval: z.enum(INTERVALS, { error: `must be one of ${INTERVALS.join(", ")}` }),
    frequency: z
      .number({ error: "must be a whole number" })
      .int({ error: "must be a whole number" })
      .min(1, "must be at least 1")
      .max(FREQUENCY_MAX, `must be at most ${FREQUENCY_MAX}`),
  },
  { error: "must be an object with interval and frequency, or null" },
);
export type DurationInput = z.infer<typeof duration>;

export const taxMode = z.enum(TAX_MODES, { error: `must be one of ${TAX_MODES.join(", ")}` });

const quantityBound = z
  .number({ error: "must be a whole number" })
  .int({ error: "must be a whole number" })
  .min(QUANTITY_MIN, `must be ${QUANTITY_MIN} to ${QUANTITY_MAX}`)
  .max(QUANTITY_MAX, `must be ${QUANTITY_MIN} to ${QUANTITY_MAX}`);

/** How many units one line may have: both bounds, `minimum` ≤ `maximum`. */
export const quantity = z
  .strictObject(
    { minimum: quantityBound, maximum: quantityBound },
    { error: "must be an object with minimum and maximum" },
  )
  .superRefine((value, ctx) => {
    // Compared only when both bounds are valid on their own (else those errors say it all).
    const valid = (n: unknown) => quantityBound.safeParse(n).success;
    if (valid(value.minimum) && valid(value.maximum) && value.minimum > value.maximum) {
      ctx.addIssue({ code: "custom", path: ["minimum"], message: "must be at most quantity.maximum" });
    }
  });
export type QuantityInput = z.infer<typeof quantity>;

export const unitPriceOverride = z.strictObject({
  country_codes: z.array(countryCode, { error: "must be an array of country codes" }).min(1, "must not be empty"),
  unit_price: money,
});
export type UnitPriceOverrideInput = z.infer<typeof unitPriceOverride>;

/**
 * At most 250 overrides. A country appears at most once across all of them (each country has one
 * price): a repeat, in the same override or a later one, is named by its position.
 */
export const unitPriceOverrides = z
  .array(unitPriceOverride, { error: "must be an array" })
  .max(MAX_UNIT_PRICE_OVERRIDES, `must have at most ${MAX_UNIT_PRICE_OVERRIDES} entries`)
  .superRefine((list, ctx) => {
    const seen = new Map<string, string>();
    list.forEach((override, i) => {
      // Defensive: an override that failed its own checks has already been reported.
      if (!Array.isArray(override?.country_codes)) return;
      override.country_codes.forEach((code, j) => {
        const here = `unit_price_overrides[${i}].country_codes[${j}]`;
        const first = seen.get(code);
        if (first === undefined) seen.set(code, here);
        else {
          const message = `${code} is already in ${first}: a country can appear in only one override`;
          ctx.addIssue({ code: "custom", path: [i, "country_codes", j], message });
        }
      });
    });
  });

/** A price's description is at least this long, as in the API family (its schema: 2 to 500). */
export const PRICE_DESCRIPTION_MIN = 2;

const priceFields = {
  description: requiredText(PRICE_DESCRIPTION_MAX, PRICE_DESCRIPTION_MIN),
  name: requiredText(PRICE_NAME_MAX).nullable(),
  type: catalogType,
  billing_cycle: duration.nullable(),
  trial_period: duration.nullable(),
  tax_mode: taxMode,
  unit_price: money,
  unit_price_overrides: unitPriceOverrides,
  quantity,
  custom_data: customData,
};

export const TRIAL_NEEDS_BILLING_CYCLE =
  "requires a billing_cycle: only recurring prices can have a trial period (set trial_period to null)";

/** A trial comes before the first billing of a recurring price, so a one-time price has none. */
export function trialPeriodProblem(
  billingCycle: DurationInput | null | undefined,
  trialPeriod: DurationInput | null | undefined,
): string | null {
  return trialPeriod && !billingCycle ? TRIAL_NEEDS_BILLING_CYCLE : null;
}

/**
 * The create body without its cross-field rule: zod refuses `.pick`, `.omit`, `.partial` and
 * `.extend` on a refined object, so forms derive their schemas from this one and add
 * `refineTrialPeriod` back (as `createPriceBody` does).
 */
export const createPriceObject = z.strictObject({
  product_id: entityId("pro"),
  description: priceFields.description,
  name: priceFields.name.optional(),
  type: priceFields.type.optional(),
  billing_cycle: priceFields.billing_cycle.optional(),
  trial_period: priceFields.trial_period.optional(),
  tax_mode: priceFields.tax_mode.optional(),
  unit_price: priceFields.unit_price,
  unit_price_overrides: priceFields.unit_price_overrides.optional(),
  quantity: priceFields.quantity.optional(),
  custom_data: priceFields.custom_data.optional(),
});

/** The trial rule as a zod refinement, for any object with `billing_cycle` and `trial_period`. */
export function refineTrialPeriod(
  value: { billing_cycle?: DurationInput | null; trial_period?: DurationInput | null },
  ctx: z.RefinementCtx,
): void {
  const problem = trialPeriodProblem(value.billing_cycle, value.trial_period);
  if (problem) ctx.addIssue({ code: "custom", path: ["trial_period"], message: problem });
}

export const createPriceBody = createPriceObject.superRefine(refineTrialPeriod);
export type CreatePriceInput = z.infer<typeof createPriceBody>;

/**
 * Every create field but `product_id` (a price stays with its product), plus `status`. The trial
 * rule needs the stored price too (a PATCH may send only one of the two), so the service checks it.
 */
export const updatePriceBody = z.strictObject({
  description: priceFields.description.optional(),
  name: priceFields.name.optional(),
  type: priceFields.type.optional(),
  billing_cycle: priceFields.billing_cycle.optional(),
  trial_period: priceFields.trial_period.optional(),
  tax_mode: priceFields.tax_mode.optional(),
  unit_price: priceFields.unit_price.optional(),
  unit_price_overrides: priceFields.unit_price_overrides.optional(),
  quantity: priceFields.quantity.optional(),
  custom_data: priceFields.custom_data.optional(),
  status: statusEnum.optional(),
});
export type UpdatePriceInput = z.infer<typeof updatePriceBody>;

// ---------------------------------------------------------------------------------------------
// Path and query

export const priceParams = z.object({ price_id: entityId("pri") });

/** `include=product` adds the price's product. */
export const priceInclude = includeParam(["product"]);

export const getPriceQuery = z.object({ include: priceInclude.optional() });
export type GetPriceQuery = z.infer<typeof getPriceQuery>;

/**
 * The order_by fields of the API family's list prices, plus created_at and updated_at. Several are
 * nested (`unit_price.amount`), which the shared order_by parameter (plain field names) does not
 * accept, so prices parse their own.
 */
export const PRICE_ORDER_FIELDS = [
  "billing_cycle.frequency",
  "billing_cycle.interval",
  "created_at",
  "id",
  "product_id",
  "quantity.maximum",
  "quantity.minimum",
  "status",
  "tax_mode",
  "unit_price.amount",
  "unit_price.currency_code",
  "updated_at",
] as const;
export type PriceOrderField = (typeof PRICE_ORDER_FIELDS)[number];

const priceOrderBy = z
  .string()
  .optional()
  .transform((value, ctx): OrderBy & { field: PriceOrderField } => {
    if (value === undefined) return { field: "id", direction: "asc" };
    const [, name, direction] = /^([a-z_.]+)\[(ASC|DESC)\]$/i.exec(value) ?? [];
    const field = PRICE_ORDER_FIELDS.find((f) => f === name);
    if (!field || direction === undefined) {
      ctx.addIssue({
        code: "custom",
        message: `must be one of ${PRICE_ORDER_FIELDS.map((f) => `${f}[ASC]`).join(", ")} (or [DESC])`,
      });
      return z.NEVER;
    }
    return { field, direction: direction.toLowerCase() as "asc" | "desc" };
  });

export const listPricesQuery = z.object({
  ...listQuery(["id"]),
  order_by: priceOrderBy,
  id: csv(entityId("pri")).optional(),
  product_id: csv(entityId("pro")).optional(),
  status: csv(statusEnum).optional(),
  /** `true`: only prices with a billing cycle; `false`: only one-time prices. */
  recurring: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .optional(),
  type: catalogType.optional(),
  include: priceInclude.optional(),
});
export type ListPricesQuery = z.infer<typeof listPricesQuery>;
