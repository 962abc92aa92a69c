/**
 * Adjustments (POST and GET /adjustments) and a transaction's adjusted totals and included
 * adjustments, through the real route handlers on a real database. Completed transactions are made
 * with lib/dev/test/adjustments.ts (the SQL a captured payment does).
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as adjustmentCollection from "@/app/api/adjustments/route";
import { pool } from "@/lib/db/connection";
import { completeByPayment } from "@/lib/dev/test/adjustments";
import { call, expectError, expectFieldError, testKey } from "@/lib/dev/test/api";
import { events, expectMethodsNotAllowed, permissionsWithout } from "@/lib/dev/test/checks";
import { admin, ids } from "@/lib/dev/test/resource";
import { MANUAL_TERMS, makeBuyer, makePrice, makeTransaction, transactions } from "@/lib/dev/test/transactions";

type Entity = Record<string, any>;
type Body = Record<string, unknown>;

async function create(body: Body, key?: string) {
  return call(adjustmentCollection.POST, "POST", "/adjustments", { key: key ?? (await admin()), body });
}

async function list(q = "", key?: string) {
  return call(adjustmentCollection.GET, "GET", `/adjustments${q}`, { key: key ?? (await admin()) });
}

async function created(body: Body): Promise<Entity> {
  const res = await create(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

let gbPrice: Entity;
let usPrice: Entity;

beforeAll(async () => {
  // 10.00 net + 20% UK VAT = 12.00; and 5.00 in the US (no tax).
  gbPrice = await makePrice({ unit_price: { amount: "1000", currency_code: "USD" } });
  usPrice = await makePrice({ unit_price: { amount: "500", currency_code: "USD" } });
});

/** A ready transaction with two lines (12.00 and 6.00 with 20% VAT) for a buyer in GB. */
async function makeReadyGb(body: Body = {}): Promise<Entity> {
  const { customer, address } = await makeBuyer("GB");
  return makeTransaction({
    items: [
      { price_id: gbPrice.id, quantity: 1 },
      { price_id: usPrice.id, quantity: 1 },
    ],
    customer_id: customer.id,
    address_id: address.id,
    ...body,
  });
}

/** A completed transaction (two lines: 1200 and 600, tax 200 and 100; fee 5% of 1800 + 50 = 140). */
async function makeCompleted(): Promise<Entity> {
  const t = await makeReadyGb();
  await completeByPayment(t.id);
  return (await transactions.get(t.id)).body.data;
}

/** A billed manually-collected transaction (an issued invoice). */
async function makeBilledManual(): Promise<Entity> {
  const t = await makeReadyGb({ collection_mode: "manual", billing_details: MANUAL_TERMS });
  const res = await transactions.update(t.id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const lineIds = (t: Entity): string[] => t.details.line_items.map((l: Entity) => l.id);

describe("POST /adjustments: refunds", () => {
  it("refunds a whole completed transaction (type full), approved at once, with both events", async () => {
    const t = await makeCompleted();
    expect(t.details.totals).toMatchObject({ total: "1800", tax: "300", fee: "140", earnings: "1360" });
    const adj = await created({ action: "refund", type: "full", transaction_id: t.id, reason: "Customer asked" });
    expect(Object.keys(adj)).toEqual([
      "id",
      "action",
      "type",
      "transaction_id",
      "subscription_id",
      "customer_id",
      "reason",
      "credit_applied_to_balance",
      "currency_code",
      "status",
      "items",
      "totals",
      "payout_totals",
      "tax_rates_used",
      "created_at",
      "updated_at",
    ]);
    expect(adj).toMatchObject({
      action: "refund",
      type: "full",
      transaction_id: t.id,
      subscription_id: null,
      customer_id: t.customer_id,
      reason: "Customer asked",
      credit_applied_to_balance: null,
      currency_code: "USD",
      status: "approved",
      totals: { subtotal: "1500", tax: "300", total: "1800", fee: "140", retained_fee: "0", earnings: "1360" },
      payout_totals: { total: "1800", fee: "140", earnings: "1360", currency_code: "USD" },
      tax_rates_used: [{ tax_rate: "0.2", totals: { subtotal: "1500", tax: "300", total: "1800" } }],
    });
    expect(adj.id).toMatch(/^adj_[a-z0-9]{26}$/);
    expect(adj.items).toHaveLength(2);
    expect(adj.items[0]).toEqual({
      id: expect.stringMatching(/^adjitm_[a-z0-9]{26}$/),
      item_id: lineIds(t)[0],
      type: "full",
      amount: "1200",
      proration: null,
      totals: { subtotal: "1000", tax: "200", total: "1200" },
    });
    const evts = await events(adj.id);
    expect(evts.map((e) => e.eventType)).toEqual(["adjustment.created", "adjustment.updated"]);
    expect((evts[0]!.data as Entity).status).toBe("pending_approval");
    expect((evts[1]!.data as Entity).status).toBe("approved");
    expect((evts[0]!.data as Entity).items).toHaveLength(2);

    const after = (await transactions.get(t.id, "?include=adjustments,adjustments_totals")).body.data;
    expect(after.details.adjusted_totals).toMatchObject({
      subtotal: "0",
      tax: "0",
      total: "0",
      grand_total: "0",
      fee: "0",
      retained_fee: "0",
      earnings: "0",
    });
    expect(after.details.adjusted_payout_totals).toMatchObject({ total: "0", fee: "0", earnings: "0" });
    expect(after.details.totals).toEqual(t.details.totals); // the record itself is unchanged
    expect(after.adjustments.map((a: Entity) => a.id)).toEqual([adj.id]);
    expect(after.adjustments_totals).toEqual({
      subtotal: "1500",
      tax: "300",
      total: "1800",
      fee: "140",
      retained_fee: "0",
      earnings: "1360",
      breakdown: { credit: "0", refund: "1800", chargeback: "0" },
      currency_code: "USD",
    });
    expect((await events(t.id)).map((e) => e.eventType).at(-1)).toBe("transaction.updated");

    // Nothing is left: another full refund names the transaction.
    const again = await create({ action: "refund", type: "full", transaction_id: t.id, reason: "Again" });
    expect(expectFieldError(again, "transaction_id").errors?.[0]?.message).toMatch(/fully adjusted/);
  });

  it("refunds part of a line, then the rest, splitting tax by the line's rate", async () => {
    const t = await makeCompleted();
    const [first] = lineIds(t);
    const part = await created({
      action: "refund",
      transaction_id: t.id,
      reason: "Partly",
      items: [{ item_id: first, type: "partial", amount: "601" }],
    });
    expect(part.type).toBe("partial");
    // 601 × 0.2 / 1.2 = 100.17 → 100
    expect(part.items[0].totals).toEqual({ subtotal: "501", tax: "100", total: "601" });
    // Fee share: round(140 × 601 / 1800) = 47
    expect(part.totals).toMatchObject({ total: "601", fee: "47", earnings: "454" });

    const over = await create({
      action: "refund",
      transaction_id: t.id,
      reason: "Too much",
      items: [{ item_id: first, type: "partial", amount: "600" }],
    });
    expect(expectFieldError(over, "items[0].amount").errors?.[0]?.message).toContain("599 is left");

    const rest = await created({
      action: "refund",
      transaction_id: t.id,
      reason: "The rest",
      items: [{ item_id: first, type: "full" }],
    });
    expect(rest.items[0].totals).toEqual({ subtotal: "499", tax: "100", total: "599" });
    const after = (await transactions.get(t.id, "?include=adjustments_totals")).body.data;
    expect(after.details.adjusted_totals).toMatchObject({ total: "600", tax: "100", subtotal: "500" });
    // Fee shares so far: round(140 × 1200 / 1800) = 93 in all.
    expect(after.adjustments_totals).toMatchObject({ total: "1200", fee: "93" });
    expect(after.details.adjusted_totals.fee).toBe("47");
  });

  it("accepts external (net) amounts and adds the tax", async () => {
    const t = await makeCompleted();
    const adj = await created({
      action: "refund",
      transaction_id: t.id,
      reason: "Net",
      tax_mode: "external",
      items: [{ item_id: lineIds(t)[1], type: "partial", amount: "100" }],
    });
    expect(adj.items[0].totals).toEqual({ subtotal: "100", tax: "20", total: "120" });
  });

  it("refunds tax only with a tax item", async () => {
    const t = await makeCompleted();
    const adj = await created({
      action: "refund",
      transaction_id: t.id,
      reason: "VAT number added",
      items: [{ item_id: lineIds(t)[0], type: "tax", amount: "200" }],
    });
    expect(adj.items[0].totals).toEqual({ subtotal: "0", tax: "200", total: "200" });
    const more = await create({
      action: "refund",
      transaction_id: t.id,
      reason: "More tax",
      items: [{ item_id: lineIds(t)[0], type: "tax", amount: "1" }],
    });
    expectFieldError(more, "items[0].type");
  });

  it("never exceeds the total under concurrent refunds", async () => {
    const t = await makeCompleted();
    const [first] = lineIds(t);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        create({
          action: "refund",
          transaction_id: t.id,
          reason: `Concurrent ${i}`,
          items: [{ item_id: first, type: "partial", amount: "500" }],
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(2); // 2 × 500 ≤ 1200 < 3 × 500
    for (const r of results.filter((r) => r.status !== 201)) expectFieldError(r, "items[0].amount");
    const after = (await transactions.get(t.id)).body.data;
    expect(after.details.adjusted_totals.total).toBe("800");
  });

  it("refuses refunds of transactions that are not completed", async () => {
    const ready = await makeReadyGb();
    const billed = await makeBilledManual();
    for (const t of [ready, billed]) {
      const res = await create({ action: "refund", type: "full", transaction_id: t.id, reason: "No" });
      expect(expectError(res, 400, "adjustment_transaction_invalid_status_for_refund").detail).toContain(t.id);
    }
    const res = await create({ action: "refund", type: "full", transaction_id: billed.id, reason: "No" });
    expect(res.body.error.detail).toContain("create a credit");
  });
});

describe("POST /adjustments: credits", () => {
  it("credits part of an issued invoice, approved at once, lowering what is owed", async () => {
    const t = await makeBilledManual();
    const adj = await created({
      action: "credit",
      transaction_id: t.id,
      reason: "Discount agreed after issue",
      items: [{ item_id: lineIds(t)[1], type: "partial", amount: "300" }],
    });
    expect(adj).toMatchObject({
      action: "credit",
      status: "approved",
      credit_applied_to_balance: false,
      payout_totals: null,
    });
    expect(adj.totals).toMatchObject({ subtotal: "250", tax: "50", total: "300", fee: "0", earnings: "250" });
    expect((await events(adj.id)).map((e) => e.eventType)).toEqual(["adjustment.created"]);
    // `adjustment` (the spec's PATCH include name) is the same as `adjustments`.
    const after = (await transactions.get(t.id, "?include=adjustment,adjustments_totals")).body.data;
    expect(after.adjustments.map((a: Entity) => a.id)).toEqual([adj.id]);
    expect(after.details.adjusted_totals).toMatchObject({
      total: "1500",
      grand_total: "1500",
      fee: null,
      earnings: null,
    });
    expect(after.details.adjusted_payout_totals).toBeNull();
    expect(after.adjustments_totals.breakdown).toEqual({ credit: "300", refund: "0", chargeback: "0" });
  });

  it("credits past-due invoices, and refuses credits of completed and automatic transactions", async () => {
    const pastDue = await makeBilledManual();
    await pool().query("UPDATE transactions SET status = 'past_due' WHERE id = $1", [pastDue.id]);
    await created({ action: "credit", type: "full", transaction_id: pastDue.id, reason: "Write off" });

    const completed = await makeCompleted();
    const res = await create({ action: "credit", type: "full", transaction_id: completed.id, reason: "No" });
    expect(expectError(res, 400, "adjustment_transaction_invalid_status_for_credit").detail).toContain("refund");

    const automatic = await makeReadyGb();
    await pool().query("UPDATE transactions SET status = 'past_due' WHERE id = $1", [automatic.id]);
    const auto = await create({ action: "credit", type: "full", transaction_id: automatic.id, reason: "No" });
    expectError(auto, 400, "adjustment_transaction_invalid_status_for_credit");
  });
});

describe("POST /adjustments: validation", () => {
  let t: Entity;
  beforeAll(async () => {
    t = await makeCompleted();
  });
  const base = () => ({ action: "refund", transaction_id: t.id, reason: "R" });
  const item = (over: Body = {}) => ({ item_id: lineIds(t)[0], type: "partial", amount: "100", ...over });

  it("names each invalid field", async () => {
    const cases: [Body, string][] = [
      [{ ...base(), action: "chargeback" }, "action"],
      [{ ...base(), action: undefined }, "action"],
      [{ ...base(), reason: "" }, "reason"],
      [{ ...base(), reason: "   " }, "reason"],
      [{ ...base(), reason: undefined }, "reason"],
      [{ ...base(), transaction_id: "txn_nope" }, "transaction_id"],
      [{ ...base(), type: "half", items: [item()] }, "type"],
      [{ ...base(), tax_mode: "gross", items: [item()] }, "tax_mode"],
      [{ ...base() }, "items"],
      [{ ...base(), items: [] }, "items"],
      [{ ...base(), type: "full", items: [item()] }, "items"],
      [{ ...base(), type: "full", tax_mode: "external" }, "tax_mode"],
      [{ ...base(), items: [item(), item()] }, "items[1].item_id"],
      [{ ...base(), items: [item({ amount: "0" })] }, "items[0].amount"],
      [{ ...base(), items: [item({ amount: "-5" })] }, "items[0].amount"],
      [{ ...base(), items: [item({ amount: "1.5" })] }, "items[0].amount"],
      [{ ...base(), items: [item({ amount: 100 })] }, "items[0].amount"],
      [{ ...base(), items: [item({ amount: null })] }, "items[0].amount"],
      [{ ...base(), items: [item({ type: "proration" })] }, "items[0].type"],
      [{ ...base(), items: [item({ type: "whole" })] }, "items[0].type"],
      [{ ...base(), items: [item({ item_id: "txnitm_x" })] }, "items[0].item_id"],
      [{ ...base(), items: [item({ amount: "1201" })] }, "items[0].amount"],
      [{ ...base(), colour: "red", items: [item()] }, "colour"],
    ];
    for (const [body, field] of cases) expectFieldError(await create(body), field);
  });

  it("answers an unknown transaction as a field error, and items of another transaction too", async () => {
    const unknown = "txn_01aaaaaaaaaaaaaaaaaaaaaaaa";
    const res = await create({ ...base(), transaction_id: unknown, type: "full" });
    expect(expectFieldError(res, "transaction_id").errors?.[0]?.message).toContain(unknown);
    const other = await makeCompleted();
    const foreign = await create({ ...base(), items: [item({ item_id: lineIds(other)[0] })] });
    expect(expectFieldError(foreign, "items[0].item_id").errors?.[0]?.message).toContain(t.id);
  });
});

describe("GET /adjustments", () => {
  it("filters and pages", async () => {
    const a = await makeCompleted();
    const b = await makeBilledManual();
    const refund = await created({ action: "refund", type: "full", transaction_id: a.id, reason: "A" });
    const credit = await created({ action: "credit", type: "full", transaction_id: b.id, reason: "B" });

    expect(ids(await list(`?transaction_id=${a.id}`))).toEqual([refund.id]);
    expect(ids(await list(`?transaction_id=${a.id},${b.id}`))).toEqual([refund.id, credit.id]);
    expect(ids(await list(`?customer_id=${b.customer_id}`))).toEqual([credit.id]);
    expect(ids(await list(`?id=${credit.id}`))).toEqual([credit.id]);
    expect(ids(await list(`?action=credit&transaction_id=${a.id},${b.id}`))).toEqual([credit.id]);
    expect(ids(await list(`?status=approved&transaction_id=${a.id}`))).toEqual([refund.id]);
    expect(ids(await list(`?status=rejected&transaction_id=${a.id}`))).toEqual([]);
    expect(ids(await list(`?order_by=id[DESC]&transaction_id=${a.id},${b.id}`))).toEqual([credit.id, refund.id]);

    const page = await list(`?per_page=1&transaction_id=${a.id},${b.id}`);
    expect(ids(page)).toEqual([refund.id]);
    expect(page.body.meta.pagination).toMatchObject({ per_page: 1, has_more: true, estimated_total: 2 });
    const next = new URL(page.body.meta.pagination.next);
    expect(ids(await list(next.search))).toEqual([credit.id]);

    for (const q of [
      "?order_by=created_at[ASC]",
      "?status=done",
      "?action=refund,credit",
      "?transaction_id=x",
      "?per_page=0",
    ]) {
      expectError(await list(q), 400, "invalid_field");
    }
  });
});

describe("permissions and methods", () => {
  it("needs adjustment.write to create and adjustment.read to list", async () => {
    const t = await makeCompleted();
    const body = { action: "refund", type: "full", transaction_id: t.id, reason: "R" };
    const noAdjustments = await testKey(permissionsWithout("adjustment."));
    expect(expectError(await create(body, noAdjustments), 403, "forbidden").detail).toContain("adjustment.write");
    expect(expectError(await create(body, await testKey(["adjustment.read"])), 403, "forbidden").detail).toContain(
      "adjustment.write",
    );
    expect(expectError(await list("", noAdjustments), 403, "forbidden").detail).toContain("adjustment.read");
    expect((await list("", await testKey(["adjustment.read"]))).status).toBe(200);
    expect((await create(body, await testKey(["adjustment.write"]))).status).toBe(201);
    expectError(await call(adjustmentCollection.POST, "POST", "/adjustments", { body }), 401, "invalid_token");
  });

  it("has no other methods", async () => {
    await expectMethodsNotAllowed(adjustmentCollection, ["PUT", "PATCH", "DELETE"], "/adjustments");
  });
});
