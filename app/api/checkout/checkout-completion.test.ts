/**
 * What the hosted checkout adds around the payment: a discount code, the success page's receipt and
 * return link, and "Manage subscription" (public routes, real handlers, real database).
 */
import { describe, expect, it } from "vitest";
import { TEST_CARD } from "@/lib/dev/test/adjustments";
import { call, expectError, expectFieldError, expectNotFound } from "@/lib/dev/test/api";
import { makeRecurringPrice } from "@/lib/dev/test/subscriptions";
import {
  MANUAL_TERMS,
  makeBuyer,
  makeDiscount,
  makePrice,
  makeReady,
  makeTransaction,
} from "@/lib/dev/test/transactions";
import { checkoutSchema } from "@/lib/schemas/payment";
import { payAtCheckout } from "@/lib/services/payments/checkout";
import * as discount from "./[transaction_id]/discount/route";
import * as portal from "./[transaction_id]/portal-session/route";
import * as view from "./[transaction_id]/route";

const send = (handler: unknown, method: string, id: string, path: string, body?: unknown) =>
  call(handler as never, method, `/checkout/${id}${path}`, { key: null, body, params: { transaction_id: id } });

const applyCode = (id: string, code: unknown) => send(discount.POST, "POST", id, "/discount", { code });

describe("a discount code at the checkout", () => {
  it("applies a checkout discount by its code (any case), and removes it", async () => {
    const code = `SAVE${Date.now().toString(36).toUpperCase()}`;
    await makeDiscount({ description: "Launch", type: "percentage", amount: "20", enabled_for_checkout: true, code });
    const txn = await makeReady();
    const before = (await send(view.GET, "GET", txn.id, "")).body.data;
    expect(before).toMatchObject({
      accepts_discount_code: true,
      discount_code: null,
      success_url: null,
      receipt_url: null,
    });
    const res = await applyCode(txn.id, code.toLowerCase());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(checkoutSchema.strict().parse(res.body.data)).toBeTruthy();
    expect(res.body.data.discount_code).toBe(code);
    expect(res.body.data.totals.discount).toBe("200");
    expect(res.body.data.totals.grand_total).toBe("800");
    const removed = await send(discount.DELETE, "DELETE", txn.id, "/discount");
    expect(removed.body.data).toMatchObject({ discount_code: null, totals: { discount: "0", grand_total: "1000" } });
  });

  it("says clearly why a code does not apply, on the code field", async () => {
    const txn = await makeReady();
    const unknown = expectFieldError(await applyCode(txn.id, "NOPE123"), "code");
    expect(unknown.errors?.[0]?.message).toBe("NOPE123 is not a valid discount code");
    const stamp = Date.now().toString(36).toUpperCase();
    await makeDiscount({ enabled_for_checkout: true, code: `OLD${stamp}`, expires_at: "2020-01-01T00:00:00Z" }).catch(
      () => null,
    );
    const hidden = `STAFF${stamp}`;
    await makeDiscount({ enabled_for_checkout: false, code: hidden });
    expect(expectFieldError(await applyCode(txn.id, hidden), "code").errors?.[0]?.message).toContain("not a valid");
    const euro = `EURO${stamp}`;
    await makeDiscount({ enabled_for_checkout: true, code: euro, type: "flat", amount: "100", currency_code: "EUR" });
    expect(expectFieldError(await applyCode(txn.id, euro), "code").errors?.[0]?.message).toContain("payments in");
    expectFieldError(await applyCode(txn.id, ""), "code");
    expectFieldError(await applyCode(txn.id, "x".repeat(100)), "code");
    expectFieldError(await applyCode(txn.id, { $ne: 1 }), "code");
    expectFieldError(await send(discount.POST, "POST", txn.id, "/discount", {}), "code");
    expectNotFound(await applyCode("txn_00000000000000000000000000", "X"));
  });

  it("refuses once the amount is fixed: a billed invoice, a paid checkout", async () => {
    const code = `FIX${Date.now().toString(36).toUpperCase()}`;
    await makeDiscount({ enabled_for_checkout: true, code });
    const { customer, address } = await makeBuyer();
    const price = await makePrice();
    const invoice = await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      collection_mode: "manual",
      billing_details: { ...MANUAL_TERMS, enable_checkout: true },
    });
    expectFieldError(await applyCode(invoice.id, code), "code");
    const txn = await makeReady();
    await payAtCheckout(txn.id, TEST_CARD);
    expectFieldError(await applyCode(txn.id, code), "code");
    const paid = (await send(view.GET, "GET", txn.id, "")).body.data;
    expect(paid).toMatchObject({ state: "paid", accepts_discount_code: false, manages_subscription: false });
    expect(paid.receipt_url).toMatch(/\/api\/documents\//);
  });
});

describe("after paying", () => {
  it("a subscription's checkout offers a portal link the day of the payment; a one-time one refuses", async () => {
    const price = await makeRecurringPrice();
    const { customer, address } = await makeBuyer();
    const txn = await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
    });
    expect((await send(portal.POST, "POST", txn.id, "/portal-session")).status).toBe(400);
    await payAtCheckout(txn.id, TEST_CARD);
    const paid = (await send(view.GET, "GET", txn.id, "")).body.data;
    expect(paid.manages_subscription).toBe(true);
    const res = await send(portal.POST, "POST", txn.id, "/portal-session");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.url).toMatch(/\/portal\/link\?token=pga_|\/portal/);
    const oneTime = await makeReady();
    await payAtCheckout(oneTime.id, TEST_CARD);
    expectError(await send(portal.POST, "POST", oneTime.id, "/portal-session"), 400, "bad_request");
    expectNotFound(await send(portal.POST, "POST", "txn_00000000000000000000000000", "/portal-session"));
  });
});
