import { describe, expect, it } from "vitest";
import type { CustomerSummary } from "../schemas/customer.ts";
import { customerTimeline, type OverviewTransaction, openInvoices } from "./customer-overview.ts";

const txn = (over: Partial<OverviewTransaction>): OverviewTransaction => ({
  id: "txn_1",
  status: "billed",
  origin: "api",
  invoice_number: null,
  currency_code: "USD",
  created_at: "2026-01-01T00:00:00Z",
  billed_at: null,
  details: { totals: { grand_total: "1000", balance: "1000" } },
  payments: [],
  ...over,
});

describe("customerTimeline", () => {
  it("starts with the customer alone", () => {
    expect(customerTimeline("2026-01-01T00:00:00Z", [], [])).toEqual([
      { at: "2026-01-01T00:00:00Z", text: "Became a customer" },
    ]);
  });

  it("tells issued, paid and past-due invoices and the subscription's life, newest first", () => {
    const moments = customerTimeline(
      "2026-01-01T00:00:00Z",
      [
        txn({
          id: "txn_a",
          invoice_number: "2026-1",
          status: "past_due",
          billed_at: "2026-01-02T00:00:00Z",
        }),
        txn({
          id: "txn_b",
          created_at: "2026-01-03T00:00:00Z",
          payments: [
            { status: "captured", captured_at: "2026-01-04T00:00:00Z" },
            { status: "error", captured_at: null },
          ],
        }),
      ],
      [
        {
          id: "sub_a",
          status: "canceled",
          started_at: "2026-01-05T00:00:00Z",
          paused_at: null,
          canceled_at: "2026-01-06T00:00:00Z",
          created_at: "2026-01-05T00:00:00Z",
        },
      ],
    );
    expect(moments.map((m) => [m.at.slice(0, 10), m.href ?? null])).toEqual([
      ["2026-01-06", "/subscriptions/sub_a"],
      ["2026-01-05", "/subscriptions/sub_a"],
      ["2026-01-04", "/transactions/txn_b"],
      ["2026-01-03", "/transactions/txn_b"],
      ["2026-01-02", "/transactions/txn_a"],
      ["2026-01-02", "/transactions/txn_a"],
      ["2026-01-01", null],
    ]);
    const texts = moments.map((m) => m.text);
    expect(texts).toContain("Subscription canceled");
    expect(texts).toContain("Invoice 2026-1 is past due");
    expect(texts.some((t) => t.startsWith("Invoice 2026-1 issued for"))).toBe(true);
    expect(texts.some((t) => t.startsWith("Transaction created for"))).toBe(true);
    expect(texts.some((t) => t.startsWith("Paid ") && t.endsWith("(transaction)"))).toBe(true);
  });
});

describe("openInvoices", () => {
  it("adds the open invoices of every currency and sees any past due", () => {
    const summary = {
      amount_due: [
        { currency_code: "USD", amount: "100", transactions: 2, past_due: 0 },
        { currency_code: "EUR", amount: "50", transactions: 1, past_due: 1 },
      ],
    } as CustomerSummary;
    expect(openInvoices(summary)).toEqual({ open: 3, pastDue: true });
    expect(openInvoices(undefined)).toEqual({ open: 0, pastDue: false });
  });
});
