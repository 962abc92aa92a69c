/**
 * Where consumer prices customarily include tax: the countries in which a price of tax mode
 * `location` is tax-inclusive (priced as `internal`). Everywhere else, and without a country, it is
 * tax-exclusive (`external`), as prices are shown in the United States and Canada, where sales tax
 * is added at the till.
 *
 * Source: the API family added `tax_mode: "location"` on 7 October 2025 ("prices are
 * automatically inclusive or exclusive of tax based on customer location ... customers in the US
 * typically expect prices to be exclusive of tax, while customers in Europe typically expect them
 * to be inclusive": developer.paddle.com/changelog/2025/automatic-tax-inclusive-exclusive-prices)
 * without publishing its country list, so this list is ours. Rationale, country by country: a
 * country is here when its law requires prices shown to consumers to include VAT/GST, or when
 * doing so is the near-universal custom:
 * - EU-27: the Price Indication Directive 98/6/EC (selling price = final price including VAT).
 * - EEA (Iceland, Liechtenstein, Norway) and Switzerland: the same rule (EEA Agreement; Swiss
 *   Price Indication Ordinance, PBV art. 4).
 * - United Kingdom: Consumer Protection from Unfair Trading Regulations / Price Marking Order 2004.
 * - Australia (Competition and Consumer Act, single-price rule), New Zealand (GST-inclusive
 *   pricing customary under the Fair Trading Act), Japan (総額表示, mandatory since April 2021),
 *   Singapore (GST-inclusive prices required by IRAS for GST-registered businesses), South Africa
 *   (Consumer Protection Act s. 23), India (Legal Metrology rules: MRP inclusive of all taxes),
 *   South Korea (VAT-inclusive display customary and required for consumer goods), Mexico (Federal
 *   Consumer Protection Law art. 7 bis: total price including taxes), Turkey, Israel, the
 *   United Arab Emirates and Saudi Arabia (VAT-inclusive price display rules since their VAT
 *   introductions).
 * Not here (exclusive): United States, Canada, and every country not listed, where custom varies
 * or prices are commonly quoted before tax; a merchant wanting inclusive prices there sets the
 * price's tax_mode to `internal`.
 *
 * Change this list here only: the totals engine (totals.ts) and everything priced through it
 * (previews, transactions, subscriptions) read it through `taxInclusiveIn`.
 */

/** EU-27 member states (ISO 3166-1 alpha-2; Greece is GR). */
export const EU_MEMBER_STATES = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
] as const;

/** EEA members outside the EU, and Switzerland. */
const EEA_AND_CH = ["IS", "LI", "NO", "CH"] as const;

/** Elsewhere: consumer prices include VAT/GST by law or near-universal custom (see above). */
const OTHERS = ["GB", "AU", "NZ", "JP", "SG", "ZA", "IN", "KR", "MX", "TR", "IL", "AE", "SA"] as const;

export const TAX_INCLUSIVE_COUNTRIES: ReadonlySet<string> = new Set<string>([
  ...EU_MEMBER_STATES,
  ...EEA_AND_CH,
  ...OTHERS,
]);

/** Whether a `location` price is tax-inclusive for a customer in `countryCode` (null: not known → exclusive). */
export function taxInclusiveIn(countryCode: string | null | undefined): boolean {
  return countryCode != null && TAX_INCLUSIVE_COUNTRIES.has(countryCode.toUpperCase());
}
