import { describe, expect, it } from "vitest";
import type { Price } from "../schemas/price.ts";
import {
  createBody,
  discountBody,
  emptyDraft,
  type InvoiceDraft,
  itemBodies,
  lineOfField,
  previewBody,
  stepOfField,
} from "./invoice-draft.ts";

const price = { id: "pri_01", unit_price: { amount: "1000", currency_code: "USD" } } as unknown as Price;

function draft(patch: Partial<InvoiceDraft> = {}): InvoiceDraft {
  return { ...emptyDraft(), ...patch };
}

describe("itemBodies", () => {
  it("turns catalogue and custom lines into items, amounts in minor units", () => {
    const { items, problems } = itemBodies(
      draft({
        currency: "EUR",
        lines: [
          { key: "a", kind: "catalogue", price, productName: "Plan", quantity: "2" },
          { key: "b", kind: "custom", name: " Setup ", amount: "49.50", taxMode: "external", quantity: "1" },
        ],
      }),
    );
    expect(problems).toEqual({});
    expect(items).toEqual([
      { price_id: "pri_01", quantity: 2 },
      {
        quantity: 1,
        price: {
          description: "Setup",
          name: "Setup",
          tax_mode: "external",
          unit_price: { amount: "4950", currency_code: "EUR" },
          product: { name: "Setup", tax_category: "standard" },
        },
      },
    ]);
  });

  it("leaves out lines it cannot read, naming their fields", () => {
    const { items, problems } = itemBodies(
      draft({
        lines: [
          { key: "a", kind: "catalogue", price, productName: "Plan", quantity: "x" },
          { key: "b", kind: "custom", name: "", amount: "1.234", taxMode: "external", quantity: "1" },
          { key: "c", kind: "custom", name: "Ok", amount: "", taxMode: "external", quantity: "1" },
        ],
      }),
    );
    expect(items).toEqual([]);
    expect(Object.keys(problems.a!)).toEqual(["quantity"]);
    expect(Object.keys(problems.b!).sort()).toEqual(["amount", "name"]);
    expect(Object.keys(problems.c!)).toEqual(["amount"]);
  });
});

describe("discountBody", () => {
  it("a percentage as typed, a flat amount in minor units, a description by default", () => {
    expect(
      discountBody(draft({ discount: { kind: "custom", type: "percentage", amount: "10", description: "" } })),
    ).toEqual({ ok: true, value: { discount: { type: "percentage", amount: "10", description: "10% discount" } } });
    expect(
      discountBody(
        draft({ currency: "GBP", discount: { kind: "custom", type: "flat", amount: "5", description: "Loyalty" } }),
      ),
    ).toEqual({ ok: true, value: { discount: { type: "flat", amount: "500", description: "Loyalty" } } });
    expect(discountBody(draft({ discount: { kind: "catalogue", discount: null } })).ok).toBe(false);
    expect(
      discountBody(draft({ discount: { kind: "custom", type: "percentage", amount: "150", description: "" } })),
    ).toMatchObject({ ok: false, field: "amount" });
    expect(
      discountBody(draft({ discount: { kind: "custom", type: "percentage", amount: "ten", description: "" } })),
    ).toMatchObject({
      ok: false,
      field: "amount",
    });
  });
});

describe("request bodies", () => {
  it("previews nothing without items; creates a manual transaction with net 30 by default", () => {
    expect(previewBody(draft())).toBeNull();
    const d = draft({
      customer: { id: "ctm_1", name: "Sam" } as InvoiceDraft["customer"],
      address: { id: "add_1" } as InvoiceDraft["address"],
      lines: [{ key: "a", kind: "catalogue", price, productName: "Plan", quantity: "1" }],
      purchaseOrderNumber: " PO-7 ",
      acceptCards: false,
    });
    expect(previewBody(d)).toMatchObject({ customer_id: "ctm_1", address_id: "add_1", currency_code: "USD" });
    expect(createBody(d)).toMatchObject({
      collection_mode: "manual",
      customer_id: "ctm_1",
      address_id: "add_1",
      business_id: null,
      billing_details: {
        enable_checkout: false,
        purchase_order_number: "PO-7",
        additional_information: null,
        payment_terms: { interval: "day", frequency: 30 },
      },
    });
  });

  it("sorts API field errors onto steps and lines", () => {
    expect(stepOfField("customer_id")).toBe("customer");
    expect(stepOfField("address_id")).toBe("address");
    expect(stepOfField("items[0].price.unit_price.amount")).toBe("items");
    expect(stepOfField("discount.amount")).toBe("discount");
    expect(stepOfField("billing_details.payment_terms.frequency")).toBe("terms");
    expect(stepOfField("currency_code")).toBe("items");
    expect(lineOfField("items[2].price.unit_price.amount")).toEqual({ index: 2, field: "amount" });
    expect(lineOfField("items[0].quantity")).toEqual({ index: 0, field: "quantity" });
    expect(lineOfField("items[1].price_id")).toEqual({ index: 1, field: "price" });
    expect(lineOfField("discount_id")).toBeNull();
  });
});
