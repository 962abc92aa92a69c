/**
 * Tax rates by the customer's country. The seed table holds each country's current standard rate
 * of VAT / GST (as a decimal string: exact, turned into a rational, never a float). The merchant's
 * edited table (kept in the database and edited in the dashboard's settings, outside this pure
 * module) comes in as `overrides` and wins over the seed.
 *
 * Decisions:
 * - One rate per country. The United States has no national sales tax (it is set by states and
 *   cities, and a seller owes it only where it has nexus), so it is 0 by default; a merchant who
 *   must collect it sets a rate in the overrides. Canada is the federal GST (5%) only, without the
 *   provincial HST/PST/QST for the same reason.
 * - Tax categories (lib/schemas/product.ts) all take the standard rate. The categories we offer
 *   (SaaS, digital goods, hosting, services, ...) are standard-rated almost everywhere; reduced
 *   rates for ebooks in some EU states are not modelled, and a merchant who needs one can override
 *   the country's rate. `taxRateFor` therefore takes no category.
 * - A country not in the table (or no address at all) is charged no tax: the merchant is not
 *   registered there until they say so with an override.
 * - Rates are as legislated at the time of writing (with changes announced for 1 January 2026
 *   applied); they change, which is what the overrides are for.
 */
import { invalidField } from "../errors.ts";
import { compareRatio, formatDecimal, parseDecimal, type Ratio, ratio } from "./money.ts";

/** Standard rates by ISO 3166-1 alpha-2 country code. */
export const STANDARD_TAX_RATES: Readonly<Record<string, string>> = {
  // European Union (VAT)
  AT: "0.2",
  BE: "0.21",
  BG: "0.2",
  CY: "0.19",
  CZ: "0.21",
  DE: "0.19",
  DK: "0.25",
  EE: "0.24", // 24% since 1 July 2025
  ES: "0.21",
  FI: "0.255", // 25.5% since 1 September 2024
  FR: "0.2",
  GR: "0.24",
  HR: "0.25",
  HU: "0.27",
  IE: "0.23",
  IT: "0.22",
  LT: "0.21",
  LU: "0.17",
  LV: "0.21",
  MT: "0.18",
  NL: "0.21",
  PL: "0.23",
  PT: "0.23",
  RO: "0.21", // 21% since 1 August 2025
  SE: "0.25",
  SI: "0.22",
  SK: "0.23", // 23% since 1 January 2025
  // Territories charged another state's VAT
  MC: "0.2", // French VAT
  IM: "0.2", // UK VAT
  // Rest of Europe
  GB: "0.2",
  NO: "0.25",
  CH: "0.081",
  LI: "0.081", // Swiss VAT
  IS: "0.24",
  AL: "0.2",
  BA: "0.17",
  ME: "0.21",
  MK: "0.18",
  RS: "0.2",
  MD: "0.2",
  UA: "0.2",
  // Not BY or RU: countries this API does not serve (lib/schemas/countries.ts UNSUPPORTED_COUNTRY_CODES).
  XK: "0.18",
  TR: "0.2",
  GE: "0.18",
  AM: "0.2",
  // Asia-Pacific
  AU: "0.1",
  NZ: "0.15",
  JP: "0.1",
  SG: "0.09",
  IN: "0.18",
  KR: "0.1",
  TW: "0.05",
  TH: "0.07",
  MY: "0.08", // service tax on digital services
  ID: "0.11", // effective rate: 12% applied to 11/12 of the price for non-luxury goods and services
  PH: "0.12",
  VN: "0.1",
  KZ: "0.16", // 16% from 1 January 2026
  // Middle East and Africa
  AE: "0.05",
  SA: "0.15",
  BH: "0.1",
  OM: "0.05",
  IL: "0.18",
  EG: "0.14",
  ZA: "0.15",
  KE: "0.16",
  NG: "0.075",
  // Americas
  US: "0", // sales tax is by state: set a rate in the overrides where it is owed
  CA: "0.05", // federal GST only
  MX: "0.16",
  AR: "0.21",
  CL: "0.19",
  CO: "0.19",
  PE: "0.18",
  UY: "0.22",
};

/** The merchant's edited table: country code → rate as a decimal string (`"0.2"`, `"0"`). */
export type TaxRateOverrides = Readonly<Record<string, string>>;

/** A tax rate: its canonical decimal string (the API's `tax_rate`) and its exact value. */
export interface TaxRate {
  readonly rate: string;
  readonly ratio: Ratio;
}

const ONE = ratio(1n, 1n);

export const NO_TAX: TaxRate = { rate: "0", ratio: ratio(0n, 1n) };

/**
 * `"0.20"` → `{ rate: "0.2", ratio: 1/5 }`. A rate is a fraction from 0 to 1 (0% to 100%); anything
 * else is an `invalid_field` error naming `field`.
 */
export function parseTaxRate(text: string, field = "tax_rate"): TaxRate {
  const value = parseDecimal(text, field);
  if (value.numerator < 0n || compareRatio(value, ONE) > 0) {
    throw invalidField(field, 'must be a fraction from 0 to 1, such as "0.2" for 20%');
  }
  return { rate: formatDecimal(value), ratio: value };
}

/**
 * The rate charged to a customer whose address is in `countryCode`: the merchant's override for
 * that country if there is one, else the seed table's standard rate, else no tax.
 */
export function taxRateFor(countryCode: string | null | undefined, overrides?: TaxRateOverrides): TaxRate {
  if (!countryCode) return NO_TAX;
  const country = countryCode.toUpperCase();
  const override = overrides && Object.hasOwn(overrides, country) ? overrides[country] : undefined;
  if (override !== undefined) return parseTaxRate(override, `tax_rates.${country}`);
  const standard = Object.hasOwn(STANDARD_TAX_RATES, country) ? STANDARD_TAX_RATES[country] : undefined;
  return standard === undefined ? NO_TAX : parseTaxRate(standard);
}
