/**
 * An invoice's due date has one home in TypeScript (lib/billing/payments.ts invoiceDueDate) and a
 * twin in SQL (INVOICE_DUE_AT, which the past-due sweep and the subscription engine filter on):
 * both give the same instant for the same billed date and payment terms, calendar arithmetic
 * included (the 31st plus a month, 29 February plus a year), and both give nothing without terms.
 */
import { expect, it } from "vitest";
import { invoiceDueDate } from "@/lib/billing/payments";
import { query, storableJson } from "@/lib/db/sql";
import { INVOICE_DUE_AT } from "./past-due";

const BILLED = [
  "2026-01-31T10:00:00.000Z",
  "2026-01-31T23:30:00.000Z",
  "2024-02-29T00:00:00.000Z",
  "2026-03-29T01:30:00.000Z",
  "2026-10-25T00:30:00.000Z",
  "2026-12-31T23:59:59.999Z",
];
const TERMS = [
  { interval: "day", frequency: 30 },
  { interval: "week", frequency: 2 },
  { interval: "month", frequency: 1 },
  { interval: "month", frequency: 13 },
  { interval: "year", frequency: 1 },
];

it("INVOICE_DUE_AT and invoiceDueDate agree on every billed date and payment terms", async () => {
  for (const billedAt of BILLED) {
    for (const terms of [...TERMS, null]) {
      const details = terms ? { payment_terms: terms } : null;
      const [row] = await query<{ due: Date | null }>(
        `SELECT ${INVOICE_DUE_AT} AS due FROM (SELECT $1::timestamptz AS billed_at, $2::json AS billing_details) t`,
        [billedAt, details === null ? null : storableJson(details)],
      );
      expect(row!.due?.toISOString() ?? null, `${billedAt} + ${JSON.stringify(terms)}`).toBe(
        invoiceDueDate(billedAt, details)?.toISOString() ?? null,
      );
    }
  }
});
