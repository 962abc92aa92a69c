/**
 * Exchange rates for reporting: revenue metrics are shown in the merchant's primary currency,
 * "converted at the current rate" (spec: Revenue metrics). The rates are a static table, dated,
 * as exact decimal strings (units of each currency for one US dollar), so a conversion is exact
 * rational arithmetic with one rounding by the one rule of money.ts. No floating point.
 *
 * Decision (the spec is silent on where rates come from): a self-hosted service has no rate feed
 * it can rely on, so the table ships with the code and is dated; an operator who reports in
 * several currencies updates it (one line per currency) and the metrics follow at once, since
 * the rollup keeps each currency's own amounts and converts only when read. The figures are
 * approximate reference rates, good for a dashboard, never used to charge anyone.
 */
import { CURRENCIES, type CurrencyCode } from "./currencies.ts";
import { type Minor, parseDecimal, type Ratio, ratio, roundHalfAwayFromZero } from "./money.ts";

/** The day the rates below were last set. */
export const EXCHANGE_RATES_AS_OF = "2026-11-22";

/** Units of each currency (major unit) that one USD buys. Every currency of currencies.ts. */
export const EXCHANGE_RATES: Readonly<Record<CurrencyCode, string>> = {
  USD: "1",
  EUR: "0.86",
  GBP: "0.76",
  JPY: "154",
  AUD: "1.53",
  CAD: "1.40",
  CHF: "0.80",
  HKD: "7.78",
  SGD: "1.30",
  SEK: "9.45",
  ARS: "1450",
  BRL: "5.35",
  CNY: "7.11",
  COP: "3800",
  CZK: "20.9",
  DKK: "6.45",
  HUF: "333",
  ILS: "3.27",
  INR: "88.6",
  KRW: "1460",
  MXN: "18.4",
  NOK: "10.1",
  NZD: "1.77",
  PLN: "3.66",
  RUB: "81",
  THB: "32.4",
  TRY: "42.2",
  TWD: "31",
  UAH: "42",
  VND: "26300",
  ZAR: "17.3",
};

/**
 * The exact factor from an amount in `from`'s minor unit to `to`'s minor unit: minor units differ
 * between currencies (USD has 2 digits, JPY none), so 100 USD cents are 1 dollar are 154 yen.
 */
export function exchangeRatio(from: CurrencyCode, to: CurrencyCode, rates = EXCHANGE_RATES): Ratio {
  if (rates !== EXCHANGE_RATES) return computeRatio(from, to, rates);
  // The table is constant: each pair's factor is worked out once (a year of metrics asks ~1,000 times).
  const key = `${from}>${to}`;
  let factor = tableRatios.get(key);
  if (!factor) {
    factor = computeRatio(from, to, rates);
    tableRatios.set(key, factor);
  }
  return factor;
}

const tableRatios = new Map<string, Ratio>();

function computeRatio(from: CurrencyCode, to: CurrencyCode, rates: Readonly<Record<CurrencyCode, string>>): Ratio {
  const fromRate = parseDecimal(rates[from], `rates.${from}`);
  const toRate = parseDecimal(rates[to], `rates.${to}`);
  if (fromRate.numerator <= 0n || toRate.numerator <= 0n) throw new RangeError("exchange rates must be positive");
  // minor_to = minor_from / 10^d_from / rate_from * rate_to * 10^d_to
  return ratio(
    toRate.numerator * fromRate.denominator * 10n ** BigInt(CURRENCIES[to]),
    toRate.denominator * fromRate.numerator * 10n ** BigInt(CURRENCIES[from]),
  );
}

export interface CurrencyAmount {
  amount: Minor;
  currency: CurrencyCode;
}

/**
 * The sum of amounts in several currencies, in `to`'s minor unit: each converted exactly, the
 * exact sum rounded once (half away from zero). A lone amount in `to` itself is returned as is.
 */
export function convertSum(amounts: readonly CurrencyAmount[], to: CurrencyCode, rates = EXCHANGE_RATES): Minor {
  // The usual day: amounts in the primary currency only, an exact sum with nothing to round.
  if (amounts.every((entry) => entry.currency === to))
    return amounts.reduce((total, entry) => total + entry.amount, 0n);
  let numerator = 0n;
  let denominator = 1n;
  for (const { amount, currency } of amounts) {
    const factor = currency === to ? ratio(1n, 1n) : exchangeRatio(currency, to, rates);
    // numerator/denominator + amount·factor, kept reduced.
    const next = ratio(
      numerator * factor.denominator + amount * factor.numerator * denominator,
      denominator * factor.denominator,
    );
    numerator = next.numerator;
    denominator = next.denominator;
  }
  return roundHalfAwayFromZero(numerator, denominator);
}

/** One amount from `from` to `to`, rounded once. */
export function convert(amount: Minor, from: CurrencyCode, to: CurrencyCode, rates = EXCHANGE_RATES): Minor {
  return convertSum([{ amount, currency: from }], to, rates);
}
