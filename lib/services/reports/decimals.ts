/**
 * Amounts as an accountant reads them: beside each minor-unit column of a CSV (`grand_total`,
 * "61785"), a `<column>_decimal` column with the amount in the currency's major unit ("617.85";
 * "1200" for JPY), written exactly from the minor units by the currencies table (formatMinor:
 * string arithmetic, never a float). Empty when the row has no amount or no known currency (a
 * percentage discount has no currency). The minor-unit columns keep their names and values, so
 * nothing that reads them changes.
 */
import { formatMinor, isCurrencyCode } from "../../billing/currencies.ts";

/** The decimal column's name of a minor-unit column. */
export function decimalColumn(column: string): string {
  return `${column}_decimal`;
}

const MINOR = /^-?\d{1,40}$/;

/** "61785" USD → "617.85"; "" for anything that is not an amount in a known currency. */
export function decimalAmount(amount: unknown, currency: unknown): string {
  if (typeof amount !== "string" || !MINOR.test(amount)) return "";
  if (typeof currency !== "string" || !isCurrencyCode(currency)) return "";
  return formatMinor(amount, currency);
}

/**
 * Columns with a decimal column after each money column (`money`: column → the column holding its
 * currency), and the row function that fills them, for rows as arrays in `columns`' order.
 */
export function withDecimals(
  columns: readonly string[],
  money: Readonly<Record<string, string>>,
): { columns: string[]; row: (cells: readonly unknown[]) => unknown[] } {
  const index = new Map(columns.map((name, i) => [name, i]));
  const plan: { from: number; currency: number | null }[] = [];
  const out: string[] = [];
  columns.forEach((name, i) => {
    out.push(name);
    plan.push({ from: i, currency: null });
    const currency = money[name];
    if (currency !== undefined) {
      out.push(decimalColumn(name));
      plan.push({ from: i, currency: index.get(currency) ?? -1 });
    }
  });
  return {
    columns: out,
    row: (cells) =>
      plan.map(({ from, currency }) =>
        currency === null ? cells[from] : decimalAmount(cells[from], currency < 0 ? null : cells[currency]),
      ),
  };
}
