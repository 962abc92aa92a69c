/**
 * The hosted checkout's endpoints (public, sandbox only): what the page shows, card payments with
 * every validation rule, the sandbox's test cards, completion (fee, earnings, payout, events,
 * discount redemption), refusals by state, live refusal and concurrent double payment.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as checkoutPayments from "@/app/api/checkout/[transaction_id]/payments/route";
import * as checkoutItem from "@/app/api/checkout/[transaction_id]/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound, withoutSchemaCheck } from "@/lib/dev/test/api";
import { events, expectMethodsNotAllowed } from "@/lib/dev/test/checks";
import { insertDestination, notificationsOf } from "@/lib/dev/test/notifications";
import { exemptStoredEventsOf } from "@/lib/dev/test/stored-events";
import {
  MANUAL_TERMS,
  makeBuyer,
  makeDiscount,
  makePrice,
  makeReady,
  makeTransaction,
  transactions,
} from "@/lib/dev/test/transactions";
import { SURROGATE_MESSAGE } from "@/lib/http/input-guard";
import { newId } from "@/lib/ids";

type Entity = Record<string, any>;

const CARD = { cardholder_name: "Sam Buyer", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" };
const DECLINED = "4000 0000 0000 0002";
const NO_FUNDS = "4000 0000 0000 9995";

function view(id: string) {
  return call(checkoutItem.GET, "GET", `/checkout/${id}`, { params: { transaction_id: id } });
}

function pay(id: string, body: unknown = CARD, from?: string) {
  return call(checkoutPayments.POST, "POST", `/checkout/${id}/payments`, {
    body,
    params: { transaction_id: id },
    headers: from ? { "x-forwarded-for": from } : {},
  });
}

async function eventTypes(id: string): Promise<string[]> {
  return (await events(id)).map((e) => e.eventType);
}

async function makeInvoice(billing: Record<string, unknown> = {}): Promise<Entity> {
  const t = await makeReady({ collection_mode: "manual", billing_details: { ...MANUAL_TERMS, ...billing } });
  const res = await transactions.update(t.id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

afterEach(() => {
  delete process.env.BILLING_ENVIRONMENT;
  delete process.env.BILLING_FEE_PERCENT;
  delete process.env.BILLING_FEE_FIXED;
});

describe("checkout.url", () => {
  it("an automatic transaction without a URL gets the hosted checkout page with _ptxn", async () => {
    const t = await makeReady();
    expect(t.checkout).toEqual({ url: `http://localhost:3000/checkout?_ptxn=${t.id}` });
  });

  it("a URL the request gives wins", async () => {
    const t = await makeReady({ checkout: { url: "https://shop.example.com/pay" } });
    expect(t.checkout).toEqual({ url: `https://shop.example.com/pay?_ptxn=${t.id}` });
  });

  it("manual: only with enable_checkout; it follows a change of enable_checkout", async () => {
    const off = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    expect(off.checkout).toBeNull();
    const on = await transactions.update(off.id, { billing_details: { ...MANUAL_TERMS, enable_checkout: true } });
    expect(on.body.data.checkout).toEqual({ url: `http://localhost:3000/checkout?_ptxn=${off.id}` });
  });
});

describe("GET /checkout/{transaction_id}", () => {
  it("shows a price's customer-facing name, never its internal description", async () => {
    const price = await makePrice({ name: "Gadget, one a month", description: "Internal: SKU 7, not for customers" });
    const t = await makeReady({ items: [{ price_id: price.id, quantity: 1 }] });
    const res = await view(t.id);
    expect(res.body.data.items[0].description).toBe("Gadget, one a month");
    expect(JSON.stringify(res.body)).not.toContain("SKU 7");
  });

  it("shows merchant, items, totals in the currency, and whether it can be paid; no API key needed", async () => {
    const t = await makeReady();
    const res = await view(t.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      transaction_id: t.id,
      status: "ready",
      state: "payable",
      environment: "sandbox",
      merchant_name: "Your company",
      currency_code: "USD",
      totals: { subtotal: "1000", tax: "0", total: "1000", grand_total: "1000" },
      last_payment: null,
    });
    // `description` is the price's customer-facing name (none here): its description is internal.
    expect(res.body.data.items).toEqual([
      {
        id: t.details.line_items[0].id,
        name: "Product",
        description: null,
        quantity: 1,
        tax_rate: "0",
        total: "1000",
      },
    ]);
    await query(
      "INSERT INTO settings (key, value) VALUES ('merchant_name', 'Acme Tools') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
    );
    expect((await view(t.id)).body.data.merchant_name).toBe("Acme Tools");
  });

  it("not found: an unknown ID, and a malformed one", async () => {
    expectNotFound(await view("txn_01hv8x0000000000000000000a"), "txn_01hv8x0000000000000000000a");
    expectNotFound(await view("nope"));
  });

  it("states: paid after completion, not payable when draft", async () => {
    const price = await makePrice();
    const draft = await makeTransaction({ items: [{ price_id: price.id, quantity: 1 }] });
    expect((await view(draft.id)).body.data.state).toBe("not_payable");
    const t = await makeReady();
    await pay(t.id);
    expect((await view(t.id)).body.data).toMatchObject({ state: "paid", status: "completed" });
  });

  it("refused in live", async () => {
    const t = await makeReady();
    process.env.BILLING_ENVIRONMENT = "live";
    expectError(await view(t.id), 400, "sandbox_only");
  });
});

describe("POST /checkout/{transaction_id}/payments: validation", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["number", { number: "4242 4242 4242 4241" }],
    ["number", { number: "4242" }],
    ["number", { number: "4242x4242x4242x4242" }],
    ["number", { number: undefined }],
    ["expiry", { expiry: "01/20" }],
    ["expiry", { expiry: "13/30" }],
    ["expiry", { expiry: "1230" }],
    ["cvc", { cvc: "12" }],
    ["cvc", { cvc: "12345" }],
    ["cvc", { cvc: "abc" }],
    ["cardholder_name", { cardholder_name: "" }],
    ["cardholder_name", { cardholder_name: "   " }],
    ["cardholder_name", { cardholder_name: "x".repeat(201) }],
    ["extra", { extra: 1 }],
  ];
  it.each(cases)("%s is refused with its field: %j", async (field, change) => {
    const t = await makeReady();
    const res = await pay(t.id, { ...CARD, ...change });
    expectFieldError(res, field);
    const row = (await transactions.get(t.id)).body.data;
    expect(row.payments).toEqual([]);
    expect(row.status).toBe("ready");
  });

  it("every problem at once, each on its field", async () => {
    const t = await makeReady();
    const res = await pay(t.id, { cardholder_name: "", number: "1", expiry: "x", cvc: "" });
    expectError(res, 400, "invalid_field");
    expect(res.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "cardholder_name",
      "cvc",
      "expiry",
      "number",
    ]);
  });

  it("not found", async () => {
    expectNotFound(await pay("txn_01hv8x0000000000000000000a"), "txn_01hv8x0000000000000000000a");
  });
});

describe("POST /checkout/{transaction_id}/payments: hostile text (issue #13)", () => {
  const TYPES = ["transaction.updated", "transaction.payment_failed", "transaction.paid", "transaction.completed"];

  it("an unpaired surrogate in cardholder_name is a field error; the customer then pays with a good card", async () => {
    const destination = await insertDestination("http://127.0.0.1:9/hook", TYPES);
    const t = await makeReady();
    for (const name of ["\udc00", "Sam \ud800", "\ud800Sam"]) {
      const res = await pay(t.id, { ...CARD, number: DECLINED, cardholder_name: name });
      expect(expectFieldError(res, "cardholder_name").errors).toEqual([
        { field: "cardholder_name", message: SURROGATE_MESSAGE },
      ]);
    }
    expect((await transactions.get(t.id)).body.data.payments).toEqual([]);

    const paid = await pay(t.id, { ...CARD, cardholder_name: "Sam 😀 Buyer" });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.payment.method_details.card.cardholder_name).toBe("Sam 😀 Buyer");
    expect((await notificationsOf(destination.id)).map((n) => n.type)).toEqual([
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
  });

  it("a payment record stored with an unpaired surrogate (before the fix) blocks neither payment nor events", async () => {
    const destination = await insertDestination("http://127.0.0.1:9/hook", TYPES);
    const t = await makeReady();
    // What the checkout stored before input was checked: JSON text with the surrogate's escape.
    await query(
      `UPDATE transactions SET payments = json_build_array(json_build_object('status', 'error',
         'method_details', '{"type":"card","card":{"cardholder_name":"\\udc00"}}'::json)) WHERE id = $1`,
      [t.id],
    );
    // Its events carry that record as stored, which no event schema describes either.
    exemptStoredEventsOf(t.id);
    const paid = await pay(t.id);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    // The stored record of an older shape is answered as stored: no schema describes it.
    const done = (await withoutSchemaCheck(() => transactions.get(t.id))).body.data;
    expect(done.status).toBe("completed");
    expect(done.payments[1].method_details.card.cardholder_name).toBe("\ufffd");
    expect((await notificationsOf(destination.id)).map((n) => n.type)).toEqual([
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
  });
});

describe("POST /checkout/{transaction_id}/payments: outcomes", () => {
  it("an automatic transaction gets the next invoice number when completed (its invoice PDF exists then)", async () => {
    const first = await makeReady();
    const second = await makeReady();
    expect((await pay(first.id)).status).toBe(201);
    expect((await pay(second.id)).status).toBe(201);
    const [a, b] = [(await transactions.get(first.id)).body.data, (await transactions.get(second.id)).body.data];
    expect(a.invoice_number).toMatch(/^INV-\d+$/);
    expect(a.invoice_id).toBe(`inv_${first.id.slice(4)}`);
    expect(Number(b.invoice_number.slice(4))).toBe(Number(a.invoice_number.slice(4)) + 1);
  });

  it("success: captured payment, completed with fee, earnings and payout; events paid then completed", async () => {
    const t = await makeReady();
    const res = await pay(t.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const payment = res.body.data.payment;
    expect(res.body.data).toMatchObject({ transaction_id: t.id, transaction_status: "completed" });
    expect(payment).toMatchObject({
      // A card not saved (a one-time purchase): no payment method entity, as in the family.
      payment_method_id: null,
      amount: "1000",
      status: "captured",
      error_code: null,
      method_details: {
        type: "card",
        underlying_details: null,
        card: { type: "visa", last4: "4242", expiry_month: 12, expiry_year: 2039, cardholder_name: "Sam Buyer" },
      },
    });
    expect(Object.keys(payment)).toEqual([
      "payment_attempt_id",
      "stored_payment_method_id",
      "payment_method_id",
      "amount",
      "status",
      "error_code",
      "method_details",
      "created_at",
      "captured_at",
    ]);
    expect(payment.payment_attempt_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(payment.captured_at).toBe(payment.created_at);

    const done = (await transactions.get(t.id)).body.data;
    expect(done.status).toBe("completed");
    expect(done.payments).toEqual([payment]);
    expect(done.billed_at).toBe(payment.captured_at);
    // 5% of 1000 + 50 = 100; earnings 1000 − 0 − 100
    expect(done.details.totals).toMatchObject({ fee: "100", earnings: "900", balance: "0" });
    expect(done.details.adjusted_totals).toMatchObject({ fee: "100", earnings: "900" });
    expect(done.details.payout_totals).toMatchObject({
      fee: "100",
      earnings: "900",
      currency_code: "USD",
      exchange_rate: "1",
    });
    // The family sends null until an adjustment is approved (app/api/adjustments has the object).
    expect(done.details.adjusted_payout_totals).toBeNull();
    const [row] = await query<{ completed_at: Date }>("SELECT completed_at FROM transactions WHERE id = $1", [t.id]);
    expect(row!.completed_at.toISOString().slice(0, 23)).toBe(payment.captured_at.slice(0, 23));

    expect(await eventTypes(t.id)).toEqual([
      "transaction.created",
      "transaction.ready",
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
    const last = (await events(t.id)).at(-1);
    expect(last?.data).toEqual(done);
  });

  it("reads payments stored before payment_method_id and underlying_details existed with them", async () => {
    const t = await makeReady();
    const saved = newId("paymtd");
    const card = { type: "visa", last4: "0002", expiry_month: 1, expiry_year: 2040, cardholder_name: "Old" };
    const stored = [
      {
        payment_attempt_id: "2a1d4c4b-7c5e-4b7a-9d2c-3f4e5a6b7c8d",
        stored_payment_method_id: saved,
        amount: "1000",
        status: "error",
        error_code: "insufficient_funds",
        method_details: { type: "card", card },
        created_at: "2026-01-02T03:04:05.000000Z",
        captured_at: null,
      },
      {
        payment_attempt_id: "9f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b",
        stored_payment_method_id: "5d2b1c5e-8f3a-4b6c-9e7d-1a2b3c4d5e6f",
        amount: "1000",
        status: "error",
        error_code: "declined",
        method_details: { type: "card", card },
        created_at: "2026-01-01T03:04:05.000000Z",
        captured_at: null,
      },
    ];
    await query("UPDATE transactions SET payments = $2::json WHERE id = $1", [t.id, JSON.stringify(stored)]);
    const read = (await transactions.get(t.id)).body.data.payments;
    expect(read).toEqual([
      {
        ...stored[0],
        payment_method_id: saved,
        error_code: "not_enough_balance",
        method_details: { type: "card", underlying_details: null, card },
      },
      { ...stored[1], payment_method_id: null, method_details: { type: "card", underlying_details: null, card } },
    ]);
    expect(Object.keys(read[0])).toEqual(Object.keys(read[1]));
  });

  it("decline: an error payment with its code, payment_failed, status unchanged; newest first on retry", async () => {
    const t = await makeReady();
    const declined = await pay(t.id, { ...CARD, number: DECLINED });
    expect(declined.status, JSON.stringify(declined.body)).toBe(201);
    expect(declined.body.data.transaction_status).toBe("ready");
    expect(declined.body.data.payment).toMatchObject({ status: "error", error_code: "declined", captured_at: null });
    const noFunds = await pay(t.id, { ...CARD, number: NO_FUNDS });
    expect(noFunds.body.data.payment).toMatchObject({ status: "error", error_code: "not_enough_balance" });
    expect((await transactions.get(t.id)).body.data.status).toBe("ready");
    expect((await view(t.id)).body.data.last_payment).toMatchObject({
      status: "error",
      error_code: "not_enough_balance",
    });

    const ok = await pay(t.id);
    const done = (await transactions.get(t.id)).body.data;
    expect(done.payments.map((p: Entity) => p.payment_attempt_id)).toEqual([
      ok.body.data.payment.payment_attempt_id,
      noFunds.body.data.payment.payment_attempt_id,
      declined.body.data.payment.payment_attempt_id,
    ]);
    expect(done.details.totals.fee).toBe("100");
    expect(await eventTypes(t.id)).toEqual([
      "transaction.created",
      "transaction.ready",
      "transaction.updated",
      "transaction.payment_failed",
      "transaction.updated",
      "transaction.payment_failed",
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
  });

  it("any other Luhn-valid number succeeds (Mastercard)", async () => {
    const t = await makeReady();
    const res = await pay(t.id, { ...CARD, number: "5555-5555-5555-4444" });
    expect(res.body.data.payment.method_details.card).toMatchObject({ type: "mastercard", last4: "4444" });
    expect(res.body.data.transaction_status).toBe("completed");
  });

  it("fee and earnings: with tax (GB), in JPY, and with the fee configured", async () => {
    const gb = await makeReady({}, "GB");
    await pay(gb.id);
    const gbDone = (await transactions.get(gb.id)).body.data.details.totals;
    expect(gbDone).toMatchObject({ total: "1200", tax: "200", fee: "110", earnings: "890" });

    const { customer, address } = await makeBuyer("US");
    const yen = await makePrice({ unit_price: { amount: "1234", currency_code: "JPY" } });
    const jpy = await makeTransaction({
      items: [{ price_id: yen.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      currency_code: "JPY",
    });
    await pay(jpy.id);
    const jpyDone = (await transactions.get(jpy.id)).body.data.details;
    // 5% of 1234 = 61.7 → 62, + 50 = 112
    expect(jpyDone.totals).toMatchObject({ currency_code: "JPY", fee: "112", earnings: "1122" });
    expect(jpyDone.payout_totals).toMatchObject({ currency_code: "JPY", fee: "112", earnings: "1122" });

    process.env.BILLING_FEE_PERCENT = "2.9";
    process.env.BILLING_FEE_FIXED = "30";
    const custom = await makeReady();
    await pay(custom.id);
    // 2.9% of 1000 = 29, + 30 = 59
    expect((await transactions.get(custom.id)).body.data.details.totals).toMatchObject({ fee: "59", earnings: "941" });
  });

  it("automatic collection counts the discount's redemption at completion", async () => {
    const discount = await makeDiscount();
    const t = await makeReady({ discount_id: discount.id });
    const before = await query<{ times_used: number }>("SELECT times_used FROM discounts WHERE id = $1", [discount.id]);
    expect(before[0]!.times_used).toBe(0);
    await pay(t.id, { ...CARD, number: DECLINED });
    await pay(t.id);
    const after = await query<{ times_used: number }>("SELECT times_used FROM discounts WHERE id = $1", [discount.id]);
    expect(after[0]!.times_used).toBe(1);
  });

  it("a manual invoice with checkout enabled is paid at checkout (billed and past_due)", async () => {
    const invoice = await makeInvoice({ enable_checkout: true });
    const res = await pay(invoice.id);
    expect(res.body.data.transaction_status).toBe("completed");
    const done = (await transactions.get(invoice.id)).body.data;
    expect(done.billed_at).toBe(invoice.billed_at);

    const late = await makeInvoice({ enable_checkout: true });
    await query("UPDATE transactions SET status = 'past_due' WHERE id = $1", [late.id]);
    expect((await pay(late.id)).body.data.transaction_status).toBe("completed");
  });
});

describe("POST /checkout/{transaction_id}/payments: refusals", () => {
  it("already paid: refused, never charged twice", async () => {
    const t = await makeReady();
    await pay(t.id);
    const again = await pay(t.id);
    expect(expectError(again, 400, "transaction_already_paid").detail).toContain(t.id);
    expect((await transactions.get(t.id)).body.data.payments).toHaveLength(1);
  });

  it("not payable: draft, billed automatic, canceled, manual without checkout, manual not billed", async () => {
    const price = await makePrice();
    const draft = await makeTransaction({ items: [{ price_id: price.id, quantity: 1 }] });
    expect(expectError(await pay(draft.id), 400, "transaction_not_payable").detail).toContain("draft");

    const canceled = await makeReady();
    await transactions.update(canceled.id, { status: "canceled" });
    expect(expectError(await pay(canceled.id), 400, "transaction_not_payable").detail).toContain("canceled");

    const noCheckout = await makeInvoice();
    expect(expectError(await pay(noCheckout.id), 400, "transaction_not_payable").detail).toContain("enable_checkout");

    const manualReady = await makeReady({
      collection_mode: "manual",
      billing_details: { ...MANUAL_TERMS, enable_checkout: true },
    });
    expect(expectError(await pay(manualReady.id), 400, "transaction_not_payable").detail).toContain("ready");
    for (const id of [draft.id, canceled.id, noCheckout.id, manualReady.id]) {
      expect((await transactions.get(id)).body.data.payments).toEqual([]);
    }
  });

  it("refused in live, and nothing is recorded", async () => {
    const t = await makeReady();
    process.env.BILLING_ENVIRONMENT = "live";
    expectError(await pay(t.id), 400, "sandbox_only");
    delete process.env.BILLING_ENVIRONMENT;
    expect((await transactions.get(t.id)).body.data.payments).toEqual([]);
  });

  it("declines per client: 5 in 15 minutes from one address; another address (the customer) still pays", async () => {
    const t = await makeReady();
    const stranger = "203.0.113.7";
    for (let i = 0; i < 5; i++) expect((await pay(t.id, { ...CARD, number: DECLINED }, stranger)).status).toBe(201);
    const refused = await pay(t.id, { ...CARD, number: DECLINED }, stranger);
    expect(expectError(refused, 429, "too_many_requests").detail).toContain("from this address");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // A good card from the stranger is refused too (the limit is on attempts, not on outcomes).
    expectError(await pay(t.id, CARD, stranger), 429, "too_many_requests");
    // The customer, from another address, is not locked out.
    const paid = await pay(t.id, CARD, "198.51.100.20");
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.transaction_status).toBe("completed");
  });

  it("declines per client end with their window: not a permanent lock", async () => {
    const t = await makeReady();
    const from = "203.0.113.8";
    for (let i = 0; i < 5; i++) await pay(t.id, { ...CARD, number: DECLINED }, from);
    expectError(await pay(t.id, CARD, from), 429, "too_many_requests");
    await query(
      "UPDATE checkout_declines SET created_at = created_at - interval '16 minutes' WHERE transaction_id = $1",
      [t.id],
    );
    expect((await pay(t.id, CARD, from)).status).toBe(201);
  });

  it("declines per transaction: 30 an hour from every address together (card testing), then free again", async () => {
    const t = await makeReady();
    await query(
      `INSERT INTO checkout_declines (transaction_id, client_key, created_at)
       SELECT $1, '10.0.' || (i / 5) || '.' || i, now() - (i || ' seconds')::interval FROM generate_series(1, 30) AS i`,
      [t.id],
    );
    const refused = await pay(t.id, CARD, "198.51.100.30");
    expect(expectError(refused, 429, "too_many_requests").detail).toContain("in the last hour");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(59 * 60 - 60);
    await query("UPDATE checkout_declines SET created_at = created_at - interval '1 hour' WHERE transaction_id = $1", [
      t.id,
    ]);
    expect((await pay(t.id, CARD, "198.51.100.30")).status).toBe(201);
  });

  it("payments keeps the newest 50 declined attempts", async () => {
    const t = await makeReady();
    const declined = {
      status: "error",
      error_code: "declined",
      amount: "1000",
      created_at: "2026-01-01T00:00:00.000000Z",
    };
    await query("UPDATE transactions SET payments = $2::json WHERE id = $1", [
      t.id,
      JSON.stringify(Array.from({ length: 50 }, () => declined)),
    ]);
    // Its events carry those records as stored, which no event schema describes either.
    exemptStoredEventsOf(t.id);
    expect((await pay(t.id, { ...CARD, number: DECLINED }, "203.0.113.9")).status).toBe(201);
    const payments = (await withoutSchemaCheck(() => transactions.get(t.id))).body.data.payments;
    expect(payments).toHaveLength(50);
    expect(payments[0].created_at).not.toBe(declined.created_at);
  });

  it("methods the paths lack: 405", async () => {
    const t = await makeReady();
    await expectMethodsNotAllowed(checkoutItem, ["POST", "PUT", "PATCH", "DELETE"], `/checkout/${t.id}`, {
      transaction_id: t.id,
    });
    await expectMethodsNotAllowed(checkoutPayments, ["GET", "PUT", "PATCH", "DELETE"], `/checkout/${t.id}/payments`, {
      transaction_id: t.id,
    });
  });

  it("concurrent double payment: one capture, the other refused", async () => {
    const t = await makeReady();
    const results = await Promise.all([pay(t.id), pay(t.id), pay(t.id)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400, 400]);
    for (const r of results.filter((r) => r.status === 400)) expect(r.body.error.code).toBe("transaction_already_paid");
    const done = (await transactions.get(t.id)).body.data;
    expect(done.payments).toHaveLength(1);
    expect((await eventTypes(t.id)).filter((e) => e === "transaction.completed")).toHaveLength(1);
  });
});
