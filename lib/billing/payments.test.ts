import { describe, expect, it } from "vitest";
import {
  cardDigits,
  cardType,
  completedDetails,
  creditTaken,
  dueDate,
  expired,
  invoiceDueDate,
  invoiceIdOf,
  luhnValid,
  parseExpiry,
  sandboxDecline,
  settledDetails,
  TEST_CARDS,
} from "./payments.ts";
import type { TransactionTotals } from "./totals.ts";
import { canMarkPaid, canPayAtCheckout, checkoutEnabled, isAllowedMove } from "./transaction-states.ts";

describe("cards", () => {
  it("Luhn: the test cards pass, a changed digit fails, non-digits and wrong lengths fail", () => {
    for (const card of TEST_CARDS) expect(luhnValid(cardDigits(card.number))).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("5555555555554444")).toBe(true);
    expect(luhnValid("378282246310005")).toBe(true);
    expect(luhnValid("42424242424242a2")).toBe(false);
    expect(luhnValid("4242")).toBe(false);
    expect(luhnValid("")).toBe(false);
  });

  it("digits: spaces and dashes between groups are dropped", () => {
    expect(cardDigits("4242 4242-4242 4242")).toBe("4242424242424242");
  });

  it("type by leading digits", () => {
    expect(cardType("4242424242424242")).toBe("visa");
    expect(cardType("5555555555554444")).toBe("mastercard");
    expect(cardType("2223003122003222")).toBe("mastercard");
    expect(cardType("378282246310005")).toBe("american_express");
    expect(cardType("6011111111111117")).toBe("discover");
    expect(cardType("9999999999999995")).toBe("unknown");
  });

  it("expiry MM/YY or MM/YYYY; month 1-12; usable through the end of its month (UTC)", () => {
    expect(parseExpiry("08/29")).toEqual({ month: 8, year: 2029 });
    expect(parseExpiry(" 8 / 2031 ")).toEqual({ month: 8, year: 2031 });
    expect(parseExpiry("13/29")).toBeNull();
    expect(parseExpiry("00/29")).toBeNull();
    expect(parseExpiry("0829")).toBeNull();
    const now = new Date("2026-11-30T23:59:59Z");
    expect(expired({ month: 11, year: 2026 }, now)).toBe(false);
    expect(expired({ month: 10, year: 2026 }, now)).toBe(true);
    expect(expired({ month: 1, year: 2027 }, now)).toBe(false);
    expect(expired({ month: 12, year: 2025 }, now)).toBe(true);
  });

  it("sandbox outcomes: the two decline cards, everything else captures", () => {
    expect(sandboxDecline("4000000000000002")).toBe("declined");
    expect(sandboxDecline("4000000000009995")).toBe("not_enough_balance");
    expect(sandboxDecline("4242424242424242")).toBeNull();
    expect(sandboxDecline("5555555555554444")).toBeNull();
  });
});

function totals(overrides: Partial<TransactionTotals>): TransactionTotals {
  return {
    subtotal: "1000",
    discount: "0",
    tax: "0",
    total: "1000",
    credit: "0",
    credit_to_balance: "0",
    balance: "1000",
    grand_total: "1000",
    grand_total_tax: "0",
    fee: null,
    earnings: null,
    currency_code: "USD",
    ...overrides,
  };
}

describe("completedDetails", () => {
  const fees = { percent: "5", fixed: 50n };

  it("fills fee and earnings in totals, adjusted_totals and payout_totals; nothing is left to pay; no adjusted payout yet", () => {
    const details = {
      totals: totals({ subtotal: "1000", tax: "200", total: "1200", balance: "1200", grand_total: "1200" }),
      adjusted_totals: { total: "1200", fee: null, earnings: null, retained_fee: "0" },
      payout_totals: null,
      adjusted_payout_totals: null,
      line_items: [],
    };
    const done = completedDetails(details, fees);
    // fee = round(1200 × 5%) + 50 = 110; earnings = 1200 − 200 − 110 = 890
    expect(done.totals.fee).toBe("110");
    expect(done.totals.earnings).toBe("890");
    expect(done.totals.balance).toBe("0");
    expect(done.adjusted_totals).toMatchObject({ fee: "110", earnings: "890", retained_fee: "0" });
    expect(done.payout_totals).toMatchObject({ fee: "110", earnings: "890", balance: "0", fee_rate: "0.05" });
    expect(done.payout_totals).toMatchObject({ exchange_rate: "1" });
    // The family sends null until an adjustment is approved (lib/billing/adjustments.ts adjustedPayoutTotals).
    expect(done.adjusted_payout_totals).toBeNull();
    expect(done.line_items).toBe(details.line_items);
    expect(details.totals.fee).toBeNull();
  });

  it("JPY (no minor digits): 5% of 1234 rounds half away from zero", () => {
    const done = completedDetails(
      {
        totals: totals({ subtotal: "1234", total: "1234", balance: "1234", grand_total: "1234", currency_code: "JPY" }),
        payout_totals: null,
      },
      fees,
    );
    // 61.7 → 62, + 50 = 112; 1234 − 112 = 1122
    expect(done.totals.fee).toBe("112");
    expect(done.totals.earnings).toBe("1122");
  });

  it("a free transaction pays no fee", () => {
    const done = completedDetails(
      { totals: totals({ subtotal: "0", total: "0", balance: "0", grand_total: "0" }), payout_totals: null },
      fees,
    );
    expect(done.totals.fee).toBe("0");
    expect(done.totals.earnings).toBe("0");
  });
});

describe("settledDetails: the processor's fee and conversion (Stripe's balance transaction)", () => {
  const details = () => ({
    totals: totals({ subtotal: "1000", tax: "200", total: "1200", balance: "1200", grand_total: "1200" }),
    adjusted_totals: { total: "1200", fee: null, earnings: null, retained_fee: "0" },
    payout_totals: null,
    adjusted_payout_totals: null,
  });

  it("same currency: the fee is Stripe's, earnings = total − tax − fee, exchange rate 1", () => {
    // Stripe: 2.9% + 30 of 1200 = 34.8 + 30 → 65 (Stripe rounds; we take its figure as it is).
    const done = settledDetails(details(), { currencyCode: "USD", fee: 65n, exchangeRate: "1" });
    expect(done.totals).toMatchObject({ fee: "65", earnings: "935", balance: "0" });
    expect(done.adjusted_totals).toMatchObject({ fee: "65", earnings: "935" });
    expect(done.payout_totals).toMatchObject({
      total: "1200",
      tax: "200",
      fee: "65",
      earnings: "935",
      balance: "0",
      currency_code: "USD",
      exchange_rate: "1",
      fee_rate: "0.0542",
    });
    expect(done.adjusted_payout_totals).toBeNull();
  });

  it("another payout currency: every amount converted at Stripe's rate, once each, the fee as Stripe took it", () => {
    // 1200 EUR cents at 1.0825 → 1299 USD cents; tax 200 → 216.5 → 217; fee 68 USD cents.
    const done = settledDetails(
      { ...details(), totals: { ...details().totals, currency_code: "EUR" } },
      { currencyCode: "USD", fee: 68n, exchangeRate: "1.0825" },
    );
    expect(done.payout_totals).toMatchObject({
      total: "1299",
      tax: "217",
      grand_total: "1299",
      fee: "68",
      earnings: "1014",
      currency_code: "USD",
      exchange_rate: "1.0825",
    });
    // In the transaction's currency, converted back: 68 / 1.0825 = 62.8 → 63; 1014 / 1.0825 = 936.7 → 937.
    expect(done.totals).toMatchObject({ fee: "63", earnings: "937", currency_code: "EUR" });
  });

  it("refuses a rate that is not a positive decimal", () => {
    expect(() => settledDetails(details(), { currencyCode: "USD", fee: 1n, exchangeRate: "0" })).toThrow();
    expect(() => settledDetails(details(), { currencyCode: "USD", fee: 1n, exchangeRate: "abc" })).toThrow();
  });
});

describe("due dates", () => {
  it("days, weeks, months (clamped to the month's end) and years", () => {
    const billed = new Date("2026-01-31T10:00:00Z");
    expect(dueDate(billed, { interval: "day", frequency: 30 }).toISOString()).toBe("2026-03-02T10:00:00.000Z");
    expect(dueDate(billed, { interval: "week", frequency: 2 }).toISOString()).toBe("2026-02-14T10:00:00.000Z");
    expect(dueDate(billed, { interval: "month", frequency: 1 }).toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(dueDate(new Date("2024-02-29T00:00:00Z"), { interval: "year", frequency: 1 }).toISOString()).toBe(
      "2025-02-28T00:00:00.000Z",
    );
  });
});

describe("payable states", () => {
  const auto = { collection_mode: "automatic", billing_details: null };
  const manual = { collection_mode: "manual", billing_details: { enable_checkout: true } };
  const manualNoCheckout = { collection_mode: "manual", billing_details: { enable_checkout: false } };

  it("checkout: ready or past_due (a subscription's failed charge) automatic; billed or past_due manual with checkout enabled", () => {
    expect(canPayAtCheckout({ ...auto, status: "ready" })).toBe(true);
    expect(canPayAtCheckout({ ...auto, status: "past_due" })).toBe(true);
    for (const status of ["draft", "billed", "completed", "canceled"]) {
      expect(canPayAtCheckout({ ...auto, status })).toBe(false);
    }
    expect(canPayAtCheckout({ ...manual, status: "billed" })).toBe(true);
    expect(canPayAtCheckout({ ...manual, status: "past_due" })).toBe(true);
    expect(canPayAtCheckout({ ...manual, status: "ready" })).toBe(false);
    expect(canPayAtCheckout({ ...manualNoCheckout, status: "billed" })).toBe(false);
    expect(checkoutEnabled(auto)).toBe(true);
    expect(checkoutEnabled(manualNoCheckout)).toBe(false);
  });

  it("mark paid: billed or past_due manual only; past_due is not canceled by a caller", () => {
    expect(canMarkPaid({ collection_mode: "manual", status: "billed" })).toBe(true);
    expect(canMarkPaid({ collection_mode: "manual", status: "past_due" })).toBe(true);
    expect(canMarkPaid({ collection_mode: "manual", status: "ready" })).toBe(false);
    expect(canMarkPaid({ collection_mode: "manual", status: "completed" })).toBe(false);
    expect(canMarkPaid({ collection_mode: "automatic", status: "billed" })).toBe(false);
    expect(isAllowedMove("past_due", "canceled")).toBe(false);
  });
});

describe("credit and invoices", () => {
  it("credit pays as much of a positive total as it covers, nothing of a zero or negative one", () => {
    expect(creditTaken(500n, 1200n)).toBe(500n);
    expect(creditTaken(5000n, 1200n)).toBe(1200n);
    expect(creditTaken(5000n, 0n)).toBe(0n);
    expect(creditTaken(5000n, -300n)).toBe(0n);
  });

  it("the invoice ID has the transaction ID's body; the due date needs payment terms", () => {
    expect(invoiceIdOf("txn_01h04vsc0qhwtsbsxh3422wjs4")).toBe("inv_01h04vsc0qhwtsbsxh3422wjs4");
    const terms = { payment_terms: { interval: "month", frequency: 1 } };
    expect(invoiceDueDate("2026-01-31T10:00:00Z", terms)?.toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(invoiceDueDate("2026-01-31T10:00:00Z", null)).toBeNull();
    expect(invoiceDueDate("2026-01-31T10:00:00Z", { payment_terms: null })).toBeNull();
  });
});
