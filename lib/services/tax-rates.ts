/**
 * GET /tax-rates, PUT and DELETE /tax-rates/{country_code}: the merchant's overrides of the
 * standard rates (table `tax_rates`), which lib/services/transactions/details.ts reads when it
 * prices a transaction. A transaction keeps the details it was priced with, so changing a rate
 * changes only transactions priced (created, updated or previewed) afterwards.
 *
 * Decisions: the list holds every country of the standard table and every country with an
 * override (any ISO country can get one: that is how a merchant registers where we know no rate),
 * ordered by country code, in one page (fewer than 250 countries exist). A country code that is no
 * ISO 3166-1 country is a 404; DELETE of a country without an override is not an error (it is
 * already at its standard rate) and answers the rate as it is.
 */
import { STANDARD_TAX_RATES, taxRateFor } from "../billing/tax-rates.ts";
import { query } from "../db/sql.ts";
import { ListResult } from "../http/pagination.ts";
import type { ListTaxRatesQuery, TaxRateEntry } from "../schemas/tax-rate.ts";

interface OverrideRow {
  country_code: string;
  rate: string;
  updated_at: string;
}

const OVERRIDE_COLUMNS = `country_code, trim_scale(rate)::text AS rate,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at`;

function entry(countryCode: string, override: OverrideRow | undefined): TaxRateEntry {
  const standard = Object.hasOwn(STANDARD_TAX_RATES, countryCode) ? STANDARD_TAX_RATES[countryCode] : null;
  const overrides = override ? { [countryCode]: override.rate } : undefined;
  return {
    country_code: countryCode,
    standard_rate: standard === null ? null : taxRateFor(countryCode).rate,
    rate: taxRateFor(countryCode, overrides).rate,
    overridden: override !== undefined,
    updated_at: override?.updated_at ?? null,
  };
}

export async function listTaxRates(q: ListTaxRatesQuery): Promise<ListResult<TaxRateEntry>> {
  const overrides = await query<OverrideRow>(`SELECT ${OVERRIDE_COLUMNS} FROM tax_rates`);
  const byCountry = new Map(overrides.map((row) => [row.country_code, row]));
  const codes = q.country_code ?? [...new Set([...Object.keys(STANDARD_TAX_RATES), ...byCountry.keys()])];
  const data = [...new Set(codes)].sort().map((code) => entry(code, byCountry.get(code)));
  return new ListResult(data, Math.max(data.length, 1), false, data.length, data.at(-1)?.country_code ?? null);
}

export async function getTaxRate(countryCode: string): Promise<TaxRateEntry> {
  const [row] = await query<OverrideRow>(`SELECT ${OVERRIDE_COLUMNS} FROM tax_rates WHERE country_code = $1`, [
    countryCode,
  ]);
  return entry(countryCode, row);
}

/** Sets the country's rate (`rate` canonical, e.g. "0.2"). */
export async function putTaxRate(countryCode: string, rate: string): Promise<TaxRateEntry> {
  const [row] = await query<OverrideRow>(
    `INSERT INTO tax_rates (country_code, rate, created_at, updated_at) VALUES ($1, $2::numeric, now(), now())
     ON CONFLICT (country_code) DO UPDATE SET rate = EXCLUDED.rate, updated_at = now()
     RETURNING ${OVERRIDE_COLUMNS}`,
    [countryCode, rate],
  );
  return entry(countryCode, row);
}

/** Removes the override: the country is back at its standard rate. */
export async function deleteTaxRate(countryCode: string): Promise<TaxRateEntry> {
  await query("DELETE FROM tax_rates WHERE country_code = $1", [countryCode]);
  return entry(countryCode, undefined);
}
