import { describe, expect, it } from "vitest";
import type { Adjustment } from "../schemas/adjustment.ts";
import { creditNoteDataFromAdjustment, creditNoteUnavailableReason } from "./credit-note-data.ts";
import type { InvoiceTransaction } from "./invoice-data.ts";

const merchant = { name: "Your company", address: null, taxNumber: null, email: null };
const split = (subtotal: string, tax: string, total: string) => ({ subtotal, tax, total });

const transaction = {
  id: "txn_01hv8x00000000000000000000",
  invoice_number: "INV-000009",
  items: [
    {
      price_id: "pri_a",
      price: { description: "Internal: SKU-7 annual (not shown to customers)", name: "Annual licence" },
      quantity: 2,
    },
    { price_id: "pri_b", price: { description: "Setup", name: "Setup" }, quantity: 1 },
  ],
  details: {
    line_items: [
      { id: "txnitm_a", price_id: "pri_a", quantity: 2, tax_rate: "0.19", product: { name: "Analytics Pro" } },
      { id: "txnitm_b", price_id: "pri_b", quantity: 1, tax_rate: "0.19", product: { name: "Setup" } },
    ],
  },
  customer: { name: "Zoë Müller", email: "zoe@example.com" },
  address: {
    first_line: "Hauptstraße 5",
    second_line: null,
    city: "Berlin",
    postal_code: "10115",
    region: "",
    country_code: "DE",
  },
  business: null,
} as unknown as InvoiceTransaction;

const adjustment = {
  id: "adj_01hv8x00000000000000000000",
  action: "refund",
  status: "approved",
  reason: "Seat removed",
  currency_code: "EUR",
  items: [
    { id: "adjitm_1", item_id: "txnitm_a", type: "full", amount: "23800", totals: split("20000", "3800", "23800") },
    { id: "adjitm_2", item_id: "txnitm_b", type: "partial", amount: "595", totals: split("500", "95", "595") },
  ],
  totals: { ...split("20500", "3895", "24395"), fee: "0", retained_fee: "0", earnings: "0", currency_code: "EUR" },
  created_at: "2026-02-03T10:00:00.000000Z",
} as unknown as Adjustment;

describe("creditNoteDataFromAdjustment", () => {
  it("maps the adjustment's items to the transaction's lines, whole units only for full items", () => {
    const data = creditNoteDataFromAdjustment(adjustment, transaction, "CN-000004", merchant);
    expect(data).toMatchObject({
      creditNoteNumber: "CN-000004",
      issuedAt: "2026-02-03T10:00:00.000000Z",
      invoiceNumber: "INV-000009",
      transactionId: "txn_01hv8x00000000000000000000",
      action: "refund",
      reason: "Seat removed",
      currency: "EUR",
      totals: split("20500", "3895", "24395"),
    });
    expect(data.billTo.addressLines).toEqual(["Hauptstraße 5", "10115 Berlin", "Germany"]);
    expect(data.lines).toEqual([
      {
        description: "Analytics Pro",
        detail: "Annual licence",
        quantity: 2,
        amount: "20000",
        taxRate: "0.19",
        tax: "3800",
        total: "23800",
      },
      { description: "Setup", detail: null, quantity: null, amount: "500", taxRate: "0.19", tax: "95", total: "595" },
    ]);
  });
});

describe("creditNoteUnavailableReason", () => {
  const id = "adj_x";
  it("has a credit note only for approved refunds and credits", () => {
    expect(creditNoteUnavailableReason({ id, action: "refund", status: "approved" })).toBeNull();
    expect(creditNoteUnavailableReason({ id, action: "credit", status: "approved" })).toBeNull();
    expect(creditNoteUnavailableReason({ id, action: "refund", status: "pending_approval" })).toContain(
      "pending approval",
    );
    expect(creditNoteUnavailableReason({ id, action: "refund", status: "rejected" })).toContain("rejected");
    expect(creditNoteUnavailableReason({ id, action: "chargeback", status: "approved" })).toContain(
      "only refunds and credits",
    );
  });
});
