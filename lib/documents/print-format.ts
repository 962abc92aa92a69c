/**
 * How documents write money, dates and rates. A document is read by someone other than the
 * merchant, possibly years later, so it does not follow a viewer's locale: amounts are in the
 * currency's minor unit converted exactly (lib/billing/currencies.ts) and written the international
 * English way ("$1,234.50", "€9.99", "¥1,200"); dates are days in the merchant's time zone
 * (settings `timezone`, UTC by default): "22 Nov 2026".
 */
import { type CurrencyCode, formatMinor, isCurrencyCode } from "../billing/currencies.ts";
import { formatDecimal, parseDecimal, ratio } from "../billing/money.ts";
import { isWinAnsi } from "./win-ansi.ts";

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(currency: CurrencyCode, display: "narrowSymbol" | "code"): Intl.NumberFormat {
  const key = `${currency}:${display}`;
  let format = formats.get(key);
  if (!format) {
    const digits = formatMinor("0", currency).split(".")[1]?.length ?? 0;
    format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      currencyDisplay: display,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * "123450" USD → "$1,234.50"; "-500" EUR → "-€5.00". A currency whose symbol the PDF fonts cannot
 * draw (₹, ₩, …) is written with its code ("INR 1,000.00"). The decimal string goes to Intl as a
 * string, which formats it exactly (no float on the way).
 */
export function documentMoney(amount: string, currency: string): string {
  if (!isCurrencyCode(currency) || !/^-?\d+$/.test(amount)) return `${amount} ${currency}`;
  const decimal = formatMinor(amount, currency) as `${number}`;
  const symbol = numberFormat(currency, "narrowSymbol").format(decimal);
  if ([...symbol].every(isWinAnsi)) return symbol;
  return numberFormat(currency, "code")
    .format(decimal)
    .replace(/\u00a0/g, " ");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an instant in an IANA zone (an unknown zone reads as UTC). */
export function zonedDay(date: Date, timeZone = "UTC"): { year: number; month: number; day: number } {
  if (timeZone === "UTC") return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  let format = dayFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" });
    } catch {
      return zonedDay(date, "UTC");
    }
    dayFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

/** An RFC 3339 timestamp (or Date) → its day in `timeZone` (default UTC), "22 Nov 2026". */
export function documentDate(value: string | Date, timeZone = "UTC"): string {
  const { year, month, day } = zonedDay(typeof value === "string" ? new Date(value) : value, timeZone);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

/** A tax rate as the API writes it ("0.2", "0.0725") → "20%", "7.25%" (exact). */
export function percentText(rate: string): string {
  try {
    const value = parseDecimal(rate, "tax_rate");
    return `${formatDecimal(ratio(value.numerator * 100n, value.denominator))}%`;
  } catch {
    return rate;
  }
}

/** Payment terms {interval: "day", frequency: 30} → "30 days"; {month, 1} → "1 month". */
export function termsText(terms: { interval: string; frequency: number }): string {
  return `${terms.frequency} ${terms.interval}${terms.frequency === 1 ? "" : "s"}`;
}
