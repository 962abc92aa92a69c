/**
 * A transaction's `details` (spec: Transaction): the totals of lib/billing/totals.ts for its items,
 * the customer's country and the discount, in the API's shape. Nothing here computes money: the
 * engine does (computeTotals), and this module only feeds it and shapes its answer.
 *
 * The tax rate is the merchant's override for the address's country (table `tax_rates`) or else
 * the standard rate of lib/billing/tax-rates.ts; prices with tax mode `account_setting` take the
 * account's mode, the setting `account_tax_mode` (`external` or `internal`; `external` when unset).
 */
import { type CurrencyCode, isCurrencyCode } from "../../billing/currencies.ts";
import type { TaxRateOverrides } from "../../billing/tax-rates.ts";
import {
  type AccountTaxMode,
  computeTotals,
  type DiscountLike,
  type PriceLike,
  type TotalsDetails,
  type TransactionTotals,
  unitPriceFor,
} from "../../billing/totals.ts";
import { type Queryable, query } from "../../db/sql.ts";
import { invalidField, isInvalidField } from "../../errors.ts";
import type { TransactionDetails } from "../../schemas/transaction.ts";
import { type PriceJson, type ProductJson, prorationJson, type ResolvedItem } from "./items.ts";

/** The settings key of the account's tax mode, what `account_setting` prices use. */
export const ACCOUNT_TAX_MODE_SETTING = "account_tax_mode";

export interface TaxContext {
  /** The country of the customer's address, or null (no address: no tax). */
  countryCode: string | null;
  accountTaxMode: AccountTaxMode;
  overrides: TaxRateOverrides;
}

/** The account's tax mode and the merchant's rate for `countryCode`, read in one round trip. */
export async function taxContext(countryCode: string | null, on: Queryable): Promise<TaxContext> {
  const [row] = await query<{ mode: string | null; rate: string | null }>(
    `SELECT (SELECT value FROM settings WHERE key = $1) AS mode,
            (SELECT trim_scale(rate)::text FROM tax_rates WHERE country_code = $2) AS rate`,
    [ACCOUNT_TAX_MODE_SETTING, countryCode ?? ""],
    on,
  );
  return contextOf(countryCode, row?.mode ?? null, row?.rate ?? null);
}

/**
 * The tax context of each address in `addressIds` (its country's, as taxContext), read in one
 * round trip: the subscription engine bills many addresses at once. An unknown address has none.
 */
export async function addressTaxContexts(
  addressIds: readonly string[],
  on: Queryable,
): Promise<Map<string, TaxContext>> {
  const rows = await query<{ id: string; country_code: string; mode: string | null; rate: string | null }>(
    `SELECT a.id, a.country_code, (SELECT value FROM settings WHERE key = $2) AS mode,
            (SELECT trim_scale(r.rate)::text FROM tax_rates r WHERE r.country_code = a.country_code) AS rate
       FROM addresses a WHERE a.id = ANY($1)`,
    [[...new Set(addressIds)], ACCOUNT_TAX_MODE_SETTING],
    on,
  );
  return new Map(rows.map((row) => [row.id, contextOf(row.country_code, row.mode, row.rate)]));
}

function contextOf(countryCode: string | null, mode: string | null, rate: string | null): TaxContext {
  const accountTaxMode: AccountTaxMode = mode === "internal" ? "internal" : "external";
  const overrides: Record<string, string> = {};
  if (countryCode && rate != null) overrides[countryCode] = rate;
  return { countryCode, accountTaxMode, overrides };
}

/**
 * The currency a transaction takes when the request names none: the first item's price as the
 * customer sees it, i.e. the currency of the unit price override for the address's country if the
 * price has one, else of its unit price.
 */
export function defaultCurrency(items: readonly ResolvedItem[], countryCode: string | null): string {
  const [first] = items;
  // The request schemas ask for at least one item.
  if (!first) throw new Error("defaultCurrency: a transaction without items has no default currency");
  const price = first.price;
  const country = countryCode?.toUpperCase();
  const override = country
    ? price.unit_price_overrides.find((o) => o.country_codes.some((code) => code.toUpperCase() === country))
    : undefined;
  return (override ?? price).unit_price.currency_code;
}

/** The engine's view of a price (a non-catalogue price not yet saved has no IDs: placeholders). */
function priceLike(price: PriceJson): PriceLike {
  return {
    id: price.id ?? "",
    product_id: price.product_id ?? "",
    tax_mode: price.tax_mode,
    unit_price: price.unit_price,
    unit_price_overrides: price.unit_price_overrides,
  };
}

/** Whether `price` has a unit price in `currency` for a customer in `countryCode`. */
export function pricedIn(price: PriceJson, countryCode: string | null, currency: string): boolean {
  return unitPriceFor(priceLike(price), countryCode, currency).currency_code === currency;
}

/**
 * A price with a trial charges nothing in the transaction that starts its trial (the subscription
 * bills it when the trial ends), as in the API family; previews can ask to ignore trials.
 */
function chargedPrice(price: PriceJson, ignoreTrials: boolean): PriceLike {
  const onTrial = price.trial_period !== null && price.billing_cycle !== null && !ignoreTrials;
  const like = priceLike(price);
  if (!onTrial) return like;
  return {
    ...like,
    unit_price: { amount: "0", currency_code: price.unit_price.currency_code },
    unit_price_overrides: price.unit_price_overrides.map((o) => ({
      country_codes: o.country_codes,
      unit_price: { amount: "0", currency_code: o.unit_price.currency_code },
    })),
  };
}

export interface DetailsOptions {
  currency: string;
  tax: TaxContext;
  discount: DiscountLike | null;
  ignoreTrials?: boolean;
  /**
   * The customer's credit balance in this currency that pays the transaction first (subscription
   * transactions: lib/services/subscriptions/billing.ts takes it from the balance). Default none.
   */
  creditBalance?: bigint;
}

/**
 * The engine's totals for the items counted (`includeInTotals`), with the engine's field errors
 * (an `invalid_field` error naming `items[k]` of the lines it was given) as 400 invalid_field on the item's
 * own field.
 */
export function totalsFor(items: readonly ResolvedItem[], options: DetailsOptions): TotalsDetails {
  const counted = items.filter((item) => item.includeInTotals);
  if (!isCurrencyCode(options.currency)) {
    throw invalidField("currency_code", `${options.currency} is not a supported currency`);
  }
  try {
    return computeTotals({
      currency_code: options.currency as CurrencyCode,
      items: counted.map((item) => ({
        price: chargedPrice(item.price, options.ignoreTrials ?? false),
        quantity: item.quantity,
        proration: item.proration?.ratio ?? null,
        proration_period: item.proration?.billing_period ?? null,
        credit: item.credit ?? false,
      })),
      country_code: options.tax.countryCode,
      account_tax_mode: options.tax.accountTaxMode,
      tax_rates: options.tax.overrides,
      discount: options.discount,
      credit_balance: options.creditBalance ?? 0n,
    });
  } catch (error) {
    if (!isInvalidField(error)) throw error;
    const [first] = error.errors;
    if (!first) throw error;
    const { field: lineField, message } = first;
    const field = lineField.replace(/^items\[(\d+)\]/, (_, k: string) => counted[Number(k)]?.field ?? `items[${k}]`);
    throw invalidField(field, message);
  }
}

/**
 * `details.adjusted_totals` of a transaction without adjustments: the totals as they are. `fee` and
 * `earnings` are null until the transaction is completed, as in `totals`.
 */
function adjustedTotals(totals: TransactionTotals): TransactionDetails["adjusted_totals"] {
  return {
    subtotal: totals.subtotal,
    tax: totals.tax,
    total: totals.total,
    grand_total: totals.grand_total,
    grand_total_tax: totals.grand_total_tax,
    fee: totals.fee,
    retained_fee: "0",
    earnings: totals.earnings,
    currency_code: totals.currency_code,
  };
}

/** Each computed line with the item it was computed from: totalsFor returns one line per item, in order. */
export function withItems<L, I>(lines: readonly L[], items: readonly I[]): [L, I][] {
  return lines.map((line, i) => {
    const item = items[i];
    if (item === undefined) throw new Error(`line ${i} was computed from no item`);
    return [line, item];
  });
}

/**
 * A stored transaction's `details`. The items must be stored (their `txnitm_` IDs are the line
 * items' IDs) and all counted. Payout totals are null until the transaction is completed.
 */
export function transactionDetails(items: readonly ResolvedItem[], options: DetailsOptions): TransactionDetails {
  const computed = totalsFor(items, options);
  return {
    tax_rates_used: computed.tax_rates_used,
    totals: computed.totals,
    adjusted_totals: adjustedTotals(computed.totals),
    payout_totals: null,
    adjusted_payout_totals: null,
    line_items: withItems(computed.line_items, items).map(([line, item]) => ({
      id: item.id as string,
      price_id: item.price.id as string,
      // The engine's quantity, already negative on a credit line.
      quantity: line.quantity,
      proration: prorationJson(item.proration),
      tax_rate: line.tax_rate,
      unit_totals: line.unit_totals,
      totals: line.totals,
      product: item.product as ProductJson & Record<string, unknown>,
    })),
  };
}
