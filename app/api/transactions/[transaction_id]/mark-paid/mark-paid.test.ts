/**
 * POST /transactions/{transaction_id}/mark-paid (our extension for manual invoices) and the job
 * that moves unpaid invoices past their due date to past_due.
 */
import { describe, expect, it } from "vitest";
import * as adjustmentCollection from "@/app/api/adjustments/route";
import * as markPaidRoute from "@/app/api/transactions/[transaction_id]/mark-paid/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound } from "@/lib/dev/test/api";
import { events, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { MANUAL_TERMS, makeDiscount, makeReady, transactions } from "@/lib/dev/test/transactions";
import { markPastDueTransactions } from "@/lib/services/payments/past-due";

type Entity = Record<string, any>;

async function markPaid(id: string, body?: unknown, key?: string, query = "") {
  return call(markPaidRoute.POST, "POST", `/transactions/${id}/mark-paid${query}`, {
    key: key ?? (await admin()),
    body,
    params: { transaction_id: id },
  });
}

async function makeInvoice(body: Record<string, unknown> = {}, country = "US"): Promise<Entity> {
  const t = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS, ...body }, country);
  const res = await transactions.update(t.id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function eventTypes(id: string): Promise<string[]> {
  return (await events(id)).map((e) => e.eventType);
}

describe("POST /transactions/{transaction_id}/mark-paid", () => {
  it("completes a billed invoice: an offline payment of the grand total, fee and earnings, events", async () => {
    const invoice = await makeInvoice({}, "GB");
    const res = await markPaid(invoice.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const t = res.body.data;
    expect(t.status).toBe("completed");
    expect(t.billed_at).toBe(invoice.billed_at);
    expect(t.payments).toHaveLength(1);
    expect(t.payments[0]).toMatchObject({
      amount: "1200",
      status: "captured",
      error_code: null,
      method_details: { type: "offline", card: null, reference: null },
    });
    expect(t.payments[0].captured_at).toBe(t.payments[0].created_at);
    // 5% of 1200 + 50 = 110; earnings 1200 − 200 − 110
    expect(t.details.totals).toMatchObject({ fee: "110", earnings: "890", balance: "0" });
    expect(t.details.payout_totals).toMatchObject({ fee: "110", earnings: "890" });
    const [row] = await query<{ completed_at: Date | null }>("SELECT completed_at FROM transactions WHERE id = $1", [
      invoice.id,
    ]);
    expect(row!.completed_at).not.toBeNull();
    expect((await eventTypes(invoice.id)).slice(-3)).toEqual([
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
    expect((await events(invoice.id)).at(-1)?.data).toEqual(t);
  });

  it("by wire transfer with a reference; include works", async () => {
    const invoice = await makeInvoice();
    const res = await markPaid(
      invoice.id,
      { method: "wire_transfer", reference: "BANK-REF-42" },
      undefined,
      "?include=customer",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.payments[0].method_details).toEqual({
      type: "wire_transfer",
      underlying_details: null,
      card: null,
      reference: "BANK-REF-42",
    });
    expect(res.body.data.customer.id).toBe(invoice.customer_id);
  });

  it("a past_due invoice can be marked paid", async () => {
    const invoice = await makeInvoice();
    await query("UPDATE transactions SET status = 'past_due' WHERE id = $1", [invoice.id]);
    expect((await markPaid(invoice.id)).body.data.status).toBe("completed");
  });

  it("the discount redeemed at billing is not counted again at completion", async () => {
    const discount = await makeDiscount();
    const invoice = await makeInvoice({ discount_id: discount.id });
    await markPaid(invoice.id);
    const [row] = await query<{ times_used: number }>("SELECT times_used FROM discounts WHERE id = $1", [discount.id]);
    expect(row!.times_used).toBe(1);
  });

  it("validation: method and reference, each on its field", async () => {
    const invoice = await makeInvoice();
    expectFieldError(await markPaid(invoice.id, { method: "card" }), "method");
    expectFieldError(await markPaid(invoice.id, { reference: "x".repeat(201) }), "reference");
    expectFieldError(await markPaid(invoice.id, { extra: true }), "extra");
    expect((await transactions.get(invoice.id)).body.data.status).toBe("billed");
  });

  it("refused in other states, naming the status; already completed is already paid", async () => {
    const ready = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    expect(expectError(await markPaid(ready.id), 400, "transaction_not_payable").detail).toContain("ready");
    const canceled = await makeInvoice();
    await transactions.update(canceled.id, { status: "canceled" });
    expect(expectError(await markPaid(canceled.id), 400, "transaction_not_payable").detail).toContain("canceled");
    const automatic = await makeReady();
    expect(expectError(await markPaid(automatic.id), 400, "transaction_not_payable").detail).toContain(
      "automatically collected",
    );
    const paid = await makeInvoice();
    await markPaid(paid.id);
    expectError(await markPaid(paid.id), 400, "transaction_already_paid");
    expect((await transactions.get(paid.id)).body.data.payments).toHaveLength(1);
  });

  it("not found", async () => {
    expectNotFound(await markPaid("txn_01hv8x0000000000000000000a"), "txn_01hv8x0000000000000000000a");
  });

  it("needs transaction.write: 403 without it (read only is not enough)", async () => {
    const invoice = await makeInvoice();
    await expectPermission((key) => markPaid(invoice.id, undefined, key), {
      permission: "transaction.write",
      denied: [permissionsWithout("transaction."), [...permissionsWithout("transaction."), "transaction.read"]],
      allowed: [["transaction.write"]],
    });
  });

  it("concurrent marks: one payment", async () => {
    const invoice = await makeInvoice();
    const results = await Promise.all([markPaid(invoice.id), markPaid(invoice.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await transactions.get(invoice.id)).body.data.payments).toHaveLength(1);
  });
});

describe("past_due job", () => {
  it("moves billed manual invoices past their due date, with updated then past_due; leaves the rest", async () => {
    const due = await makeInvoice();
    const notYet = await makeInvoice();
    const monthly = await makeInvoice({ billing_details: { payment_terms: { interval: "month", frequency: 1 } } });
    await query("UPDATE transactions SET billed_at = now() - interval '31 days' WHERE id = ANY($1)", [
      [due.id, monthly.id],
    ]);
    await query("UPDATE transactions SET billed_at = now() - interval '29 days' WHERE id = $1", [notYet.id]);
    const automatic = await makeReady();

    const moved = await markPastDueTransactions();
    expect(moved).toContain(due.id);
    expect(moved).toContain(monthly.id);
    expect(moved).not.toContain(notYet.id);
    expect(moved).not.toContain(automatic.id);

    const t = (await transactions.get(due.id)).body.data;
    expect(t.status).toBe("past_due");
    expect((await eventTypes(due.id)).slice(-2)).toEqual(["transaction.updated", "transaction.past_due"]);
    expect((await events(due.id)).at(-1)?.data).toEqual(t);
    expect((await transactions.get(notYet.id)).body.data.status).toBe("billed");

    // Run again: nothing more to move; later, the other one falls due too.
    expect(await markPastDueTransactions()).not.toContain(due.id);
    expect(await markPastDueTransactions(new Date(Date.now() + 2 * 86_400_000))).toContain(notYet.id);
  });

  it("a past_due invoice cannot be canceled through PATCH (as the API family)", async () => {
    const invoice = await makeInvoice();
    await query("UPDATE transactions SET status = 'past_due' WHERE id = $1", [invoice.id]);
    expectError(
      await transactions.update(invoice.id, { status: "canceled" }),
      400,
      "transaction_invalid_status_change",
    );
  });
});

describe("completion after a credit", () => {
  it("an invoice credited before it is paid keeps the credit in its adjusted totals", async () => {
    const t = await makeInvoice();
    const line = t.details.line_items[0];
    const credit = await call(adjustmentCollection.POST, "POST", "/adjustments", {
      key: await admin(),
      body: {
        action: "credit",
        transaction_id: t.id,
        reason: "goodwill",
        type: "partial",
        items: [{ item_id: line.id, type: "partial", amount: "100" }],
      },
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(201);
    const res = await markPaid(t.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const details = res.body.data.details;
    expect(details.totals.fee).not.toBeNull();
    expect(BigInt(details.adjusted_totals.total)).toBe(BigInt(details.totals.total) - 100n);
    expect(details.adjusted_totals.fee).toBe(details.totals.fee);
  });
});
