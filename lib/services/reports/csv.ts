/**
 * CSV writing for reports (RFC 4180): fields separated by commas, records ended by CRLF, a field
 * quoted when it holds a comma, a double quote, CR or LF (its quotes doubled). The file is UTF-8
 * without a byte-order mark.
 *
 * Formula injection (a cell a spreadsheet would run as a formula): a text cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading single quote (`'=1+1`), as OWASP
 * recommends. Numbers are left as they are (`-150`, `0.05`), so amounts stay numbers: only cells
 * that are exactly a decimal number skip the prefix. Every free-text field a customer or merchant
 * wrote (names, emails, descriptions, reasons, codes) goes through this.
 */

const NUMBER = /^-?\d+(\.\d+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: null and undefined are empty; booleans `true`/`false`. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "string" ? value : String(value);
  if (FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvLine(values: readonly unknown[]): string {
  let line = "";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ",";
    line += csvCell(values[i]);
  }
  return `${line}\r\n`;
}
