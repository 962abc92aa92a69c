/**
 * The merchant's tax rates (an extension of ours): each country's standard rate from
 * lib/billing/tax-rates.ts and the merchant's override of it (table `tax_rates`).
 *
 * Decision: a rate is written as on transactions (`details.line_items[].tax_rate`), a decimal
 * fraction as a string, `"0.2"` for 20% — not a percentage — so that one number format serves the
 * whole API. At most 6 decimal places (`"0.0725"` for 7.25% is fine), from `"0"` to `"1"`.
 */
import { z } from "zod";
import { parseTaxRate } from "../billing/tax-rates.ts";
import { csv } from "./common.ts";
import { isCountryCode } from "./countries.ts";

export const TAX_RATE_DECIMALS = 6;

export const taxRateSchema = z.object({
  country_code: z.string(),
  /** The legislated rate of lib/billing/tax-rates.ts; null where we know none (no tax unless overridden). */
  standard_rate: z.string().nullable(),
  /** What new transactions charge: the override, else the standard rate, else "0". */
  rate: z.string(),
  overridden: z.boolean(),
  /** When the override was last set; null without one. */
  updated_at: z.string().nullable(),
});
export type TaxRateEntry = z.infer<typeof taxRateSchema>;

const RATE_MESSAGE = `must be a decimal fraction from "0" to "1" as a string, with at most ${TAX_RATE_DECIMALS} decimal places, such as "0.2" for 20%`;

/** `"0.20"` → `"0.2"`: a rate as the table stores and the API returns it. */
export const rateText = z
  .string({ error: RATE_MESSAGE })
  .refine((value) => {
    if (!/^\d+(\.\d+)?$/.test(value) || (value.split(".")[1]?.length ?? 0) > TAX_RATE_DECIMALS) return false;
    try {
      parseTaxRate(value);
      return true;
    } catch {
      return false;
    }
  }, RATE_MESSAGE)
  .transform((value) => parseTaxRate(value).rate);

export const putTaxRateBody = z.strictObject({ rate: rateText });
export type PutTaxRateInput = z.infer<typeof putTaxRateBody>;

/** A path country code: upper case accepted too (`de`); anything not an ISO country is a 404. */
export const taxRateParams = z.object({
  country_code: z
    .string()
    .transform((value) => value.toUpperCase())
    .refine(isCountryCode),
});

export const listTaxRatesQuery = z.object({
  country_code: csv(
    z
      .string()
      .transform((value) => value.toUpperCase())
      .refine(isCountryCode, "must be a two-letter ISO 3166-1 alpha-2 country code"),
  ).optional(),
});
export type ListTaxRatesQuery = z.infer<typeof listTaxRatesQuery>;
