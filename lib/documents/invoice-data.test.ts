import { describe, expect, it } from "vitest";
import { type InvoiceTransaction, invoiceDataFromTransaction, invoiceUnavailableReason } from "./invoice-data.ts";

const merchant = { name: "Your company", address: null, taxNumber: null, email: null };

function amounts(subtotal: string, discount: string, tax: string, total: string) {
  return { subtotal, discount, tax, total };
}

function transaction(overrides: Partial<InvoiceTransaction> = {}): InvoiceTransaction {
  return {
    id: "txn_01hv8x00000000000000000000",
    status: "billed",
    customer_id: "ctm_01hv8x00000000000000000000",
    address_id: "add_01hv8x00000000000000000000",
    business_id: null,
    custom_data: null,
    currency_code: "EUR",
    origin: "api",
    subscription_id: null,
    invoice_id: "inv_01hv8x00000000000000000000",
    invoice_number: "INV-000009",
    collection_mode: "manual",
    discount_id: null,
    billing_details: {
      enable_checkout: false,
      purchase_order_number: "  ",
      additional_information: "Thanks",
      payment_terms: { interval: "month", frequency: 1 },
    },
    billing_period: null,
    items: [
      {
        price_id: "pri_a",
        price: { description: "Internal: SKU-7 annual (not shown to customers)", name: "Annual licence" },
        quantity: 2,
        proration: null,
      },
      { price_id: "pri_b", price: { description: "Setup", name: "Setup" }, quantity: 1, proration: null },
    ],
    details: {
      tax_rates_used: [{ tax_rate: "0.19", totals: amounts("30000", "1000", "5510", "34510") }],
      totals: {
        subtotal: "30000",
        discount: "1000",
        tax: "5510",
        total: "34510",
        credit: "0",
        credit_to_balance: "0",
        balance: "24510",
        grand_total: "34510",
        grand_total_tax: "5510",
        fee: null,
        earnings: null,
        currency_code: "EUR",
      },
      adjusted_totals: {
        subtotal: "30000",
        tax: "5510",
        total: "34510",
        grand_total: "34510",
        grand_total_tax: "5510",
        fee: null,
        retained_fee: "0",
        earnings: null,
        currency_code: "EUR",
      },
      payout_totals: null,
      adjusted_payout_totals: null,
      line_items: [
        {
          id: "txnitm_a",
          price_id: "pri_a",
          quantity: 2,
          proration: null,
          tax_rate: "0.19",
          unit_totals: amounts("10000", "500", "1805", "11305"),
          totals: amounts("20000", "1000", "3610", "22610"),
          product: { name: "Analytics Pro" },
        },
        {
          id: "txnitm_b",
          price_id: "pri_b",
          quantity: 1,
          proration: null,
          tax_rate: "0.19",
          unit_totals: amounts("10000", "0", "1900", "11900"),
          totals: amounts("10000", "0", "1900", "11900"),
          product: { name: "Setup" },
        },
      ],
    },
    payments: [],
    checkout: null,
    created_at: "2026-01-30T09:00:00.000000Z",
    updated_at: "2026-01-31T09:00:00.000000Z",
    billed_at: "2026-01-31T09:00:00.000000Z",
    revised_at: null,
    customer: { name: "Zoë Müller", email: "zoe@example.com" },
    address: {
      first_line: "Hauptstraße 5",
      second_line: null,
      city: "Berlin",
      postal_code: "10115",
      region: "",
      country_code: "DE",
    },
    business: { name: "Müller GmbH", company_number: null, tax_identifier: "DE123" },
    ...overrides,
  } as InvoiceTransaction;
}

describe("invoiceDataFromTransaction", () => {
  it("maps the snapshots, the lines (net of tax), the tax per rate and the due date (calendar months)", () => {
    const data = invoiceDataFromTransaction(transaction(), merchant);
    expect(data.invoiceNumber).toBe("INV-000009");
    expect(data.issuedAt).toBe("2026-01-31T09:00:00.000000Z");
    expect(data.dueAt).toBe("2026-02-28T09:00:00.000Z");
    expect(data.purchaseOrderNumber).toBeNull();
    expect(data.additionalInformation).toBe("Thanks");
    expect(data.billTo).toEqual({
      name: "Zoë Müller",
      email: "zoe@example.com",
      businessName: "Müller GmbH",
      companyNumber: null,
      taxIdentifier: "DE123",
      addressLines: ["Hauptstraße 5", "10115 Berlin", "Germany"],
    });
    expect(data.lines).toEqual([
      {
        description: "Analytics Pro",
        detail: "Annual licence",
        quantity: 2,
        unitPrice: "10000",
        taxRate: "0.19",
        amount: "20000",
      },
      { description: "Setup", detail: null, quantity: 1, unitPrice: "10000", taxRate: "0.19", amount: "10000" },
    ]);
    expect(data.taxRates).toEqual([{ rate: "0.19", taxable: "29000", tax: "5510" }]);
    expect(data.amountPaid).toBe("10000");
    expect(data.amountDue).toBe("24510");
    expect(data.paid).toBe(false);
  });

  it("marks a completed transaction paid with nothing due; automatic collection has no due date", () => {
    const data = invoiceDataFromTransaction(
      transaction({ status: "completed", collection_mode: "automatic" }),
      merchant,
    );
    expect(data.paid).toBe(true);
    expect(data.amountPaid).toBe("34510");
    expect(data.amountDue).toBe("0");
    expect(data.dueAt).toBeNull();
    expect(data.paymentTerms).toBeNull();
  });
});

describe("invoiceUnavailableReason", () => {
  it("has an invoice: manual billed, past_due, paid, completed; automatic completed", () => {
    for (const status of ["billed", "past_due", "paid", "completed"] as const) {
      expect(invoiceUnavailableReason(transaction({ status }))).toBeNull();
    }
    expect(invoiceUnavailableReason(transaction({ status: "completed", collection_mode: "automatic" }))).toBeNull();
  });

  it("has none before billing, when canceled, for an automatic one not completed, or at zero value", () => {
    for (const status of ["draft", "ready", "canceled"] as const) {
      expect(invoiceUnavailableReason(transaction({ status }))).toContain(`is ${status}`);
    }
    expect(invoiceUnavailableReason(transaction({ status: "past_due", collection_mode: "automatic" }))).toContain(
      "once it is completed",
    );
    const zero = transaction();
    zero.details.totals.total = "0";
    zero.details.totals.grand_total = "0";
    expect(invoiceUnavailableReason(zero)).toContain("zero-value");
  });
});
