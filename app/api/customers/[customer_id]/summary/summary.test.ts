/** GET /customers/{id}/summary: lifetime spend and amount due per currency, summed by the database. */
import { describe, expect, it } from "vitest";
import * as adjustmentCollection from "@/app/api/adjustments/route";
import { completeByPayment } from "@/lib/dev/test/adjustments";
import { call, expectNotFound, testKey } from "@/lib/dev/test/api";
import { expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import {
  MANUAL_TERMS,
  makeAddress,
  makeCustomer,
  makePrice,
  makeTransaction,
  transactions,
} from "@/lib/dev/test/transactions";
import { newId } from "@/lib/ids";
import * as summary from "./route";

const get = async (id: string, key?: string) =>
  call(summary.GET, "GET", "/customers/{customer_id}/summary", {
    key: key ?? (await admin()),
    params: { customer_id: id },
  });

async function buyer() {
  const customer = await makeCustomer();
  const address = await makeAddress(customer.id, { country_code: "US", postal_code: "10001" });
  return { customer, address };
}

async function transaction(customerId: string, addressId: string, amount: string, currency: string, manual = false) {
  const price = await makePrice({ unit_price: { amount, currency_code: currency } });
  return makeTransaction({
    items: [{ price_id: price.id, quantity: 1 }],
    customer_id: customerId,
    address_id: addressId,
    currency_code: currency,
    ...(manual ? { collection_mode: "manual", billing_details: MANUAL_TERMS } : {}),
  });
}

describe("GET /customers/{id}/summary", () => {
  it("is empty for a customer without transactions", async () => {
    const { customer } = await buyer();
    const res = await get(customer.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ customer_id: customer.id, transactions: 0, lifetime_spend: [], amount_due: [] });
  });

  it("sums completed transactions after refunds, and the balance of issued unpaid invoices, per currency", async () => {
    const { customer, address } = await buyer();
    const paid = [
      await transaction(customer.id, address.id, "1000", "USD"),
      await transaction(customer.id, address.id, "2500", "USD"),
      await transaction(customer.id, address.id, "700", "EUR"),
    ];
    for (const t of paid) await completeByPayment(t.id);
    // A partial refund of the first: lifetime spend counts what the customer kept paying.
    const full = (await transactions.get(paid[0]!.id)).body.data;
    const line = full.details.line_items[0];
    const refund = await call(adjustmentCollection.POST, "POST", "/adjustments", {
      key: await admin(),
      body: {
        action: "refund",
        type: "partial",
        transaction_id: full.id,
        reason: "Part of it",
        items: [{ item_id: line.id, type: "partial", amount: "400" }],
      },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    // Two issued invoices not yet paid, and a ready one that is not due (not issued).
    for (const amount of ["300", "200"]) {
      const t = await transaction(customer.id, address.id, amount, "USD", true);
      expect((await transactions.update(t.id, { status: "billed" })).status).toBe(200);
    }
    await transaction(customer.id, address.id, "9900", "USD");

    const after = (await transactions.get(full.id)).body.data.details.adjusted_totals.grand_total;
    const second = (await transactions.get(paid[1]!.id)).body.data.details.totals.grand_total;
    const euro = (await transactions.get(paid[2]!.id)).body.data.details.totals.grand_total;
    const res = await get(customer.id);
    expect(res.status).toBe(200);
    expect(res.body.data.lifetime_spend).toEqual([
      { currency_code: "EUR", amount: euro, transactions: 1 },
      { currency_code: "USD", amount: (BigInt(after) + BigInt(second)).toString(), transactions: 2 },
    ]);
    const [due] = res.body.data.amount_due;
    expect(due).toMatchObject({ currency_code: "USD", transactions: 2, past_due: 0 });
    expect(res.body.data.transactions).toBe(6);
    expect(BigInt(due.amount)).toBeGreaterThanOrEqual(500n); // 300 + 200 and their tax
  });

  it("needs transaction.read", async () => {
    const { customer } = await buyer();
    await expectPermission((key) => get(customer.id, key), {
      permission: "transaction.read",
      denied: [permissionsWithout("transaction."), []],
    });
  });

  it("answers not found for an unknown or malformed customer ID", async () => {
    expectNotFound(await get(newId("ctm")));
    for (const bad of ["ctm_x", "txn_01h0000000000000000000000", "💩", "ctm_\uD800", "a".repeat(10_000)]) {
      const res = await get(bad, await testKey());
      // A path ID that cannot exist is not found, like every entity's path (never a 5xx).
      expect(res.status, bad.slice(0, 40)).toBe(404);
    }
  });
});
