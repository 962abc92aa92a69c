/**
 * Money and billing periods as the dashboard shows them. Amounts arrive as strings of minor units
 * (lib/billing/currencies.ts holds each currency's digits); they are formatted from the exact
 * decimal string, never through a float.
 */
import { CURRENCIES, type CurrencyCode, formatMinor, isCurrencyCode, parseMajor } from "../billing/currencies.ts";

const formats = new Map<string, Intl.NumberFormat>();

function currencyFormat(currency: CurrencyCode): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    const digits = CURRENCIES[currency];
    format = new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(currency, format);
  }
  return format;
}

/** "1050" USD → "$10.50"; "1200" JPY → "¥1,200". Unknown currencies show the raw minor units. */
export function formatMoney(amount: string, currency: string): string {
  if (!isCurrencyCode(currency) || !/^-?\d+$/.test(amount)) return `${amount} ${currency}`;
  // A decimal string keeps every digit (Intl formats strings exactly, without a float).
  return currencyFormat(currency).format(formatMinor(amount, currency) as `${number}`);
}

/** The currency's symbol as the viewer's locale writes it ("$", "¥", "CA$"). */
export function currencySymbol(currency: string): string {
  if (!isCurrencyCode(currency)) return currency;
  return (
    currencyFormat(currency)
      .formatToParts(0)
      .find((part) => part.type === "currency")?.value ?? currency
  );
}

const currencyNames = new Intl.DisplayNames(["en"], { type: "currency", fallback: "code" });

/** "USD" → "US Dollar". */
export function currencyName(code: string): string {
  try {
    return currencyNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A money input's text → minor units, or why it cannot be read. Blank is `{ ok: true, value: null }`. */
export function readMoney(
  text: string,
  currency: string,
): { ok: true; value: string | null } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, value: null };
  if (!isCurrencyCode(currency)) return { ok: false, message: "Choose a currency first." };
  const minor = parseMajor(text, currency);
  if (minor !== null) return { ok: true, value: minor };
  return { ok: false, message: moneyFormatMessage(text, currency) };
}

/** What a money input accepts in this currency, e.g. "USD amounts have at most 2 decimals, such as 10.50". */
export function moneyFormatMessage(text: string, currency: CurrencyCode): string {
  const digits = CURRENCIES[currency];
  const looksNumeric = /^\s*\d[\d,]*(\.\d*)?\s*$/.test(text);
  if (digits === 0) {
    return looksNumeric
      ? `${currency} has no minor unit: enter a whole number, such as 1200.`
      : `Enter an amount in ${currency} as a whole number, such as 1200.`;
  }
  const example = `10.${"5".padEnd(digits, "0")}`;
  return looksNumeric
    ? `${currency} amounts have at most ${digits} decimal places, such as ${example}.`
    : `Enter an amount in ${currency}, such as ${example}.`;
}

/** Minor units → the text a money input starts with ("1050" USD → "10.50"). */
export function moneyText(amount: string | null | undefined, currency: string): string {
  if (amount === null || amount === undefined || amount === "") return "";
  return isCurrencyCode(currency) ? formatMinor(amount, currency) : amount;
}

export interface Period {
  interval: string;
  frequency: number;
}

/** `{month, 1}` → "month"; `{week, 3}` → "3 weeks". */
export function periodText(period: Period): string {
  return period.frequency === 1 ? period.interval : `${period.frequency} ${period.interval}s`;
}

/** A price's billing cycle in words: "One-time", "Every month", "Every 3 weeks". */
export function billingCycleText(cycle: Period | null | undefined): string {
  return cycle ? `Every ${periodText(cycle)}` : "One-time";
}

/** A trial in words: "14-day trial", "1-month trial", or null for none. */
export function trialText(trial: Period | null | undefined): string | null {
  return trial ? `${trial.frequency}-${trial.interval} trial` : null;
}

/** "10.5" → "10.5%": a percentage discount's amount as a decimal string. */
export function percentText(amount: string): string {
  const trimmed = amount.includes(".") ? amount.replace(/0+$/, "").replace(/\.$/, "") : amount;
  return `${trimmed}%`;
}
