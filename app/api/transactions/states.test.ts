/**
 * Transaction states (spec: States and transitions, Transaction): every move allowed and refused,
 * immutability, the events of each move, invoice numbers (gapless and unique under concurrent
 * billing) and discount redemptions, through the real route handlers on a real database.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { expectError, expectFieldError } from "@/lib/dev/test/api";
import { events } from "@/lib/dev/test/checks";
import {
  MANUAL_TERMS,
  makeAddress,
  makeBuyer,
  makeDiscount,
  makePrice,
  makeReady,
  makeTransaction,
  transactions,
} from "@/lib/dev/test/transactions";

const { get, update } = transactions;

type Entity = Record<string, any>;

let price: Entity;

beforeAll(async () => {
  price = await makePrice();
});

async function makeDraft(): Promise<Entity> {
  const t = await makeTransaction({ items: [{ price_id: price.id, quantity: 1 }] });
  expect(t.status).toBe("draft");
  return t;
}

async function makeBilled(): Promise<Entity> {
  const t = await makeReady();
  const res = await update(t.id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Puts a transaction in a status the API does not set (payments do), for the refusal tests. */
async function forceStatus(id: string, status: string): Promise<void> {
  await query("UPDATE transactions SET status = $2 WHERE id = $1", [id, status]);
}

async function eventTypes(id: string): Promise<string[]> {
  return (await events(id)).map((e) => e.eventType);
}

function invoiceNumber(n: number): string {
  return `INV-${String(n).padStart(6, "0")}`;
}

function sequence(invoice: string): number {
  const match = /^INV-(\d+)$/.exec(invoice);
  expect(match, invoice).not.toBeNull();
  return Number(match?.[1]);
}

describe("draft → ready, automatically", () => {
  it("a draft becomes ready once it has a customer and an address: updated then ready", async () => {
    const draft = await makeDraft();
    const { customer, address } = await makeBuyer();
    const withCustomer = await update(draft.id, { customer_id: customer.id });
    expect(withCustomer.body.data.status).toBe("draft");
    const res = await update(draft.id, { address_id: address.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe("ready");
    expect(await eventTypes(draft.id)).toEqual([
      "transaction.created",
      "transaction.updated",
      "transaction.updated",
      "transaction.ready",
    ]);
    const evts = await events(draft.id);
    expect(evts[2]!.data).toEqual(res.body.data);
    expect(evts[3]!.data).toEqual(res.body.data);
  });

  it("a draft held on creation becomes ready on its next change", async () => {
    const { customer, address } = await makeBuyer();
    const held = await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      status: "draft",
    });
    expect(held.status).toBe("draft");
    const res = await update(held.id, { custom_data: { note: "go" } });
    expect(res.body.data.status).toBe("ready");
    expect(await eventTypes(held.id)).toEqual(["transaction.created", "transaction.updated", "transaction.ready"]);
  });
});

describe("ready → billed", () => {
  it("assigns the invoice number, invoice_id and billed_at; events updated then billed", async () => {
    const t = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    const res = await update(t.id, { status: "billed" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const b = res.body.data;
    expect(b.status).toBe("billed");
    expect(b.invoice_number).toMatch(/^INV-\d{6}$/);
    expect(b.invoice_id).toBe(`inv_${t.id.slice(4)}`);
    expect(b.billed_at).toBe(b.updated_at);
    expect(b.details).toEqual(t.details);
    expect(await eventTypes(t.id)).toEqual([
      "transaction.created",
      "transaction.ready",
      "transaction.updated",
      "transaction.billed",
    ]);
    expect((await events(t.id))[3]!.data).toEqual(b);
    expect((await get(t.id)).body.data).toEqual(b);
  });

  it("applies the PATCH's other fields with the move", async () => {
    const t = await makeReady();
    const res = await update(t.id, { status: "billed", custom_data: { po: "7" } });
    expect(res.body.data).toMatchObject({ status: "billed", custom_data: { po: "7" } });
  });

  it("refuses to bill a draft, naming the move", async () => {
    const draft = await makeDraft();
    const error = expectError(await update(draft.id, { status: "billed" }), 400, "transaction_invalid_status_change");
    expect(error.detail).toContain("from 'draft' to 'billed'");
    expect((await get(draft.id)).body.data.status).toBe("draft");
    expect(await eventTypes(draft.id)).toEqual(["transaction.created"]);
  });

  it("checks the manual rules again when billing: the customer must still have a name", async () => {
    const t = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    await query("UPDATE customers SET name = NULL WHERE id = $1", [t.customer_id]);
    expectFieldError(await update(t.id, { status: "billed" }), "customer_id");
    expect((await get(t.id)).body.data.status).toBe("ready");
  });

  it("a refused billing takes no invoice number: numbers stay gapless", async () => {
    const first = await makeBilled();
    const refused = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    await query("UPDATE customers SET name = NULL WHERE id = $1", [refused.customer_id]);
    expectFieldError(await update(refused.id, { status: "billed" }), "customer_id");
    const next = await makeBilled();
    expect(sequence(next.invoice_number)).toBe(sequence(first.invoice_number) + 1);
  });
});

describe("invoice numbers", () => {
  afterEach(() => {
    delete process.env.BILLING_INVOICE_PREFIX;
  });

  it("uses the configured prefix", async () => {
    process.env.BILLING_INVOICE_PREFIX = "ACME-2026-";
    const b = await makeBilled();
    expect(b.invoice_number).toMatch(/^ACME-2026-\d{6}$/);
  });

  it("50 concurrent billings get 50 distinct, consecutive numbers", async () => {
    const { customer, address } = await makeBuyer();
    const ready = await Promise.all(
      Array.from({ length: 50 }, () =>
        makeTransaction({
          items: [{ price_id: price.id, quantity: 1 }],
          customer_id: customer.id,
          address_id: address.id,
          collection_mode: "manual",
          billing_details: MANUAL_TERMS,
        }),
      ),
    );
    expect(ready.every((t) => t.status === "ready")).toBe(true);
    const [before] = await query<{ last: string }>(
      "SELECT last_number::text AS last FROM invoice_number_counters WHERE merchant_id = 'default'",
    );
    const results = await Promise.all(ready.map((t) => update(t.id, { status: "billed" })));
    for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const numbers = results.map((res) => sequence(res.body.data.invoice_number)).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(50);
    const start = Number(before!.last) + 1;
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => start + i));
    expect(results.map((res) => res.body.data.invoice_number)).toContain(invoiceNumber(start));
    const billedEvents = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM events WHERE event_type = 'transaction.billed' AND entity_id = ANY($1)",
      [ready.map((t) => t.id)],
    );
    expect(billedEvents[0]!.n).toBe(50);
  });
});

describe("→ canceled", () => {
  it.each([
    ["draft", makeDraft],
    ["ready", () => makeReady()],
    ["billed", makeBilled],
  ])("cancels a %s transaction: events updated then canceled", async (from, make) => {
    const t = await make();
    const before = await eventTypes(t.id);
    const res = await update(t.id, { status: "canceled" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe("canceled");
    expect(await eventTypes(t.id)).toEqual([...before, "transaction.updated", "transaction.canceled"]);
    if (from === "billed") expect(res.body.data.invoice_number).toBe(t.invoice_number);
  });

  it.each(["completed", "canceled", "past_due", "paid"])("refuses to cancel a %s transaction", async (status) => {
    const t = await makeReady();
    await forceStatus(t.id, status);
    const error = expectError(await update(t.id, { status: "canceled" }), 400, "transaction_invalid_status_change");
    expect(error.detail).toContain(`from '${status}' to 'canceled'`);
  });
});

describe("refused moves", () => {
  it.each(["draft", "ready", "completed", "paid", "past_due"])("status %s can never be sent", async (status) => {
    for (const t of [await makeDraft(), await makeReady(), await makeBilled()]) {
      const error = expectError(await update(t.id, { status }), 400, "transaction_invalid_status_change");
      expect(error.detail).toContain(`from '${t.status}' to '${status}'`);
    }
  });

  it("billed → billed, canceled → billed and completed → billed are refused", async () => {
    const billed = await makeBilled();
    expectError(await update(billed.id, { status: "billed" }), 400, "transaction_invalid_status_change");
    const canceled = await makeReady();
    await update(canceled.id, { status: "canceled" });
    expectError(await update(canceled.id, { status: "billed" }), 400, "transaction_invalid_status_change");
    const completed = await makeReady();
    await forceStatus(completed.id, "completed");
    expectError(await update(completed.id, { status: "billed" }), 400, "transaction_invalid_status_change");
  });

  it("a status that is not one is a field error", async () => {
    const t = await makeReady();
    expectFieldError(await update(t.id, { status: "archived" }), "status");
    expectFieldError(await update(t.id, { status: null }), "status");
  });
});

describe("immutability", () => {
  it("a billed transaction cannot be edited: transaction_immutable, nothing changes", async () => {
    const b = await makeBilled();
    const address = await makeAddress(b.customer_id, { country_code: "DE", postal_code: "10115" });
    for (const body of [
      { custom_data: { a: 1 } },
      { items: [{ price_id: price.id, quantity: 2 }] },
      { address_id: address.id },
      { status: "canceled", custom_data: null },
      { checkout: null },
      {},
    ]) {
      const error = expectError(await update(b.id, body), 400, "transaction_immutable");
      expect(error.detail).toContain("billed");
    }
    expect((await get(b.id)).body.data).toEqual(b);
  });

  it.each(["completed", "canceled", "past_due", "paid"])("a %s transaction cannot be edited", async (status) => {
    const t = await makeReady();
    await forceStatus(t.id, status);
    expectError(await update(t.id, { custom_data: { a: 1 } }), 400, "transaction_immutable");
    expectError(await update(t.id, { items: [{ price_id: price.id, quantity: 2 }] }), 400, "transaction_immutable");
  });

  it("a billed transaction keeps its prices when the catalogue changes", async () => {
    const own = await makePrice({ unit_price: { amount: "4000", currency_code: "USD" } });
    const { customer, address } = await makeBuyer();
    const t = await makeTransaction({
      items: [{ price_id: own.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
    });
    await update(t.id, { status: "billed" });
    await query("UPDATE prices SET unit_price_amount = 9999, description = 'changed' WHERE id = $1", [own.id]);
    const after = (await get(t.id)).body.data;
    expect(after.items[0].price).toEqual(own);
    expect(after.details.totals.total).toBe("4000");
  });
});

describe("discount redemptions", () => {
  async function timesUsed(id: string): Promise<number> {
    const [row] = await query<{ n: number }>("SELECT times_used AS n FROM discounts WHERE id = $1", [id]);
    return row!.n;
  }

  it("billing redeems the discount; its usage_limit is kept even by concurrent transactions; canceling gives it back", async () => {
    const discount = await makeDiscount({ usage_limit: 1 });
    const first = await makeReady({ discount_id: discount.id });
    const second = await makeReady({ discount_id: discount.id });
    expect(await timesUsed(discount.id)).toBe(0);
    expect((await update(first.id, { status: "billed" })).status).toBe(200);
    expect(await timesUsed(discount.id)).toBe(1);

    // Used up: the second transaction cannot be billed with it, nor can a new one apply it.
    expectFieldError(await update(second.id, { status: "billed" }), "discount_id");
    expect((await get(second.id)).body.data.status).toBe("ready");
    const res = await transactions.create({ items: [{ price_id: price.id, quantity: 1 }], discount_id: discount.id });
    expectFieldError(res, "discount_id");

    // The billed invoice is voided: the redemption is given back and the second can be billed.
    await update(first.id, { status: "canceled" });
    expect(await timesUsed(discount.id)).toBe(0);
    expect((await update(second.id, { status: "billed" })).status).toBe(200);
    expect(await timesUsed(discount.id)).toBe(1);
  });

  it("an expired discount cannot be applied", async () => {
    const discount = await makeDiscount({ expires_at: "2099-01-01T00:00:00Z" });
    await query("UPDATE discounts SET expires_at = now() - interval '1 day' WHERE id = $1", [discount.id]);
    const res = await transactions.create({ items: [{ price_id: price.id, quantity: 1 }], discount_id: discount.id });
    const error = expectFieldError(res, "discount_id");
    expect(error.errors?.[0]?.message).toContain("expired");
  });
});
