/**
 * The stand-in's money rules, deterministic so tests can state exact figures:
 * - Fee: 2.9% of the settled amount, rounded half up, plus 30 minor units of the settlement
 *   currency (Stripe's standard US card pricing), on every successful charge; refunds return no fee.
 * - Settlement: a charge settles in the account's default currency. The same currency settles 1:1
 *   with `exchange_rate: null`, as Stripe's balance transactions do; another currency is converted
 *   at the fixed table below (rates to USD, invented but stable) and `exchange_rate` is set.
 * - Minimum charge amounts per currency (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts),
 *   50 minor units where not listed; at most 99,999,999.
 */

const ZERO_DECIMAL = new Set([
  "bif",
  "clp",
  "djf",
  "gnf",
  "jpy",
  "kmf",
  "krw",
  "mga",
  "pyg",
  "rwf",
  "ugx",
  "vnd",
  "vuv",
  "xaf",
  "xof",
  "xpf",
]);
const THREE_DECIMAL = new Set(["bhd", "jod", "kwd", "omr", "tnd"]);

export function decimals(currency: string): number {
  return ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2;
}

/** How many US dollars one unit of each currency is worth, for the stand-in. */
const USD_PER_UNIT: Record<string, number> = {
  usd: 1,
  eur: 1.08,
  gbp: 1.27,
  chf: 1.13,
  cad: 0.73,
  aud: 0.66,
  nzd: 0.61,
  jpy: 0.0067,
  sek: 0.095,
  nok: 0.093,
  dkk: 0.145,
  pln: 0.25,
  czk: 0.043,
  inr: 0.012,
  brl: 0.2,
  mxn: 0.058,
  sgd: 0.74,
  hkd: 0.128,
};

const MINIMUM: Record<string, number> = {
  usd: 50,
  eur: 50,
  gbp: 30,
  chf: 50,
  cad: 50,
  aud: 50,
  nzd: 50,
  jpy: 50,
  sek: 300,
  nok: 300,
  dkk: 250,
  pln: 200,
  czk: 1500,
  inr: 50,
  brl: 50,
  mxn: 1000,
  sgd: 50,
  hkd: 400,
};

export const MAXIMUM_AMOUNT = 99_999_999;

export function minimumAmount(currency: string): number {
  return MINIMUM[currency] ?? 50;
}

/** "$0.50 usd", as Stripe's amount_too_small message writes it. */
export function formatMinimum(currency: string): string {
  const amount = minimumAmount(currency) / 10 ** decimals(currency);
  return `${amount.toFixed(decimals(currency))} ${currency}`;
}

export interface Settlement {
  amount: number;
  currency: string;
  exchangeRate: number | null;
}

/** A charged amount in the settlement currency. */
export function settle(amount: number, currency: string, settlementCurrency: string): Settlement {
  if (currency === settlementCurrency) return { amount, currency, exchangeRate: null };
  const from = USD_PER_UNIT[currency] ?? 1;
  const to = USD_PER_UNIT[settlementCurrency] ?? 1;
  const rate = Math.round((from / to) * 1e6) / 1e6;
  const major = amount / 10 ** decimals(currency);
  const settled = Math.round(major * rate * 10 ** decimals(settlementCurrency));
  return { amount: settled, currency: settlementCurrency, exchangeRate: rate };
}

/** 2.9% + 30 minor units of the settled amount (integer arithmetic, half up). */
export function cardFee(settledAmount: number): number {
  return Math.floor((settledAmount * 29 + 500) / 1000) + 30;
}

/** Stripe's dispute fee: 15.00 in the settlement currency (1500 minor units where two decimals). */
export function disputeFee(currency: string): number {
  return 15 * 10 ** decimals(currency);
}
