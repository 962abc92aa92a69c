/**
 * The ISO 4217 currencies we accept, with the number of digits of their minor unit. Amounts are
 * integers in the minor unit everywhere (JPY has none: 1000 means ¥1,000; USD has two: 1000 means
 * $10.00). This is the one table of currency precision.
 */
export const CURRENCIES = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  JPY: 0,
  AUD: 2,
  CAD: 2,
  CHF: 2,
  HKD: 2,
  SGD: 2,
  SEK: 2,
  ARS: 2,
  BRL: 2,
  CNY: 2,
  COP: 2,
  CZK: 2,
  DKK: 2,
  HUF: 2,
  ILS: 2,
  INR: 2,
  KRW: 0,
  MXN: 2,
  NOK: 2,
  NZD: 2,
  PLN: 2,
  RUB: 2,
  THB: 2,
  TRY: 2,
  TWD: 2,
  UAH: 2,
  VND: 0,
  ZAR: 2,
} as const satisfies Record<string, number>;

export type CurrencyCode = keyof typeof CURRENCIES;

export const CURRENCY_CODES = Object.keys(CURRENCIES) as CurrencyCode[];

export function isCurrencyCode(value: string): value is CurrencyCode {
  return Object.hasOwn(CURRENCIES, value);
}

/** Digits after the decimal point in the currency's major unit. */
export function minorUnitDigits(currency: CurrencyCode): number {
  return CURRENCIES[currency];
}

/** "1050" USD → "10.50"; "1000" JPY → "1000". Exact: string arithmetic, no floating point. */
export function formatMinor(amount: string, currency: CurrencyCode): string {
  const digits = CURRENCIES[currency];
  const negative = amount.startsWith("-");
  const abs = (negative ? amount.slice(1) : amount).replace(/^0+(?=\d)/, "");
  if (digits === 0) return `${negative ? "-" : ""}${abs}`;
  const padded = abs.padStart(digits + 1, "0");
  return `${negative ? "-" : ""}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/**
 * "10.5" USD → "1050". Returns null for text that is not an amount with at most the currency's
 * digits (so "10.555" USD and "10.5" JPY are refused, never rounded).
 */
export function parseMajor(text: string, currency: CurrencyCode): string | null {
  const digits = CURRENCIES[currency];
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim().replace(/,/g, ""));
  if (!match) return null;
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const minor = `${match[1]}${fraction.padEnd(digits, "0")}`.replace(/^0+(?=\d)/, "");
  return minor;
}
