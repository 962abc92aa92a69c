/**
 * POST /transactions/{transaction_id}/revise: the customer information of billed, completed and
 * past-due transactions, once, through the real route handler on a real database.
 */
import { describe, expect, it } from "vitest";
import * as revise from "@/app/api/transactions/[transaction_id]/revise/route";
import { pool } from "@/lib/db/connection";
import { completeByPayment } from "@/lib/dev/test/adjustments";
import { call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, expectMethodsNotAllowed, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import {
  MANUAL_TERMS,
  makeBusiness,
  makeBuyer,
  makePrice,
  makeReady,
  makeTransaction,
  transactions,
} from "@/lib/dev/test/transactions";

type Entity = Record<string, any>;

async function send(id: string, body: unknown, key?: string, query = "") {
  return call(revise.POST, "POST", `/transactions/${id}/revise${query}`, {
    key: key ?? (await admin()),
    body,
    params: { transaction_id: id },
  });
}

async function makeBilledWithBusiness(): Promise<Entity> {
  const { customer, address } = await makeBuyer("GB");
  const business = await makeBusiness(customer.id, { name: "Acme Ltd", tax_identifier: "GB123456789" });
  const price = await makePrice();
  const t = await makeTransaction({
    items: [{ price_id: price.id, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
    business_id: business.id,
    collection_mode: "manual",
    billing_details: MANUAL_TERMS,
  });
  const res = await transactions.update(t.id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe("POST /transactions/{transaction_id}/revise", () => {
  it("revises the snapshots of a billed transaction, once, with transaction.revised", async () => {
    const t = await makeBilledWithBusiness();
    const res = await send(
      t.id,
      {
        customer: { name: "Samantha Buyer" },
        business: { name: "Acme Holdings Ltd", company_number: "0123" },
        address: { first_line: "1 High Street", city: "London", region: "Greater London" },
      },
      undefined,
      "?include=customer,address,business",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data.revised_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(data.customer.name).toBe("Samantha Buyer");
    expect(data.business).toMatchObject({
      name: "Acme Holdings Ltd",
      company_number: "0123",
      tax_identifier: "GB123456789",
    });
    expect(data.address).toMatchObject({
      first_line: "1 High Street",
      city: "London",
      region: "Greater London",
      country_code: "GB",
    });
    expect(data.details).toEqual(t.details); // totals never move

    // The entities themselves are unchanged.
    const [customer] = (await pool().query("SELECT name FROM customers WHERE id = $1", [t.customer_id])).rows;
    expect(customer.name).toBe("Sam Buyer");

    expect((await events(t.id)).map((e) => e.eventType).at(-1)).toBe("transaction.revised");

    const again = await send(t.id, { customer: { name: "Other" } });
    expectError(again, 400, "transaction_revised_limit_reached");
  });

  it("revises completed and past-due transactions", async () => {
    const completed = await makeReady({}, "GB");
    await completeByPayment(completed.id);
    expect((await send(completed.id, { address: { second_line: "Flat 2" } })).status).toBe(200);

    const pastDue = await makeBilledWithBusiness();
    await pool().query("UPDATE transactions SET status = 'past_due' WHERE id = $1", [pastDue.id]);
    expect((await send(pastDue.id, { customer: { name: "Late Payer" } })).status).toBe(200);
  });

  it("refuses drafts, ready and canceled transactions", async () => {
    const ready = await makeReady();
    expectError(await send(ready.id, { customer: { name: "X" } }), 400, "transaction_invalid_status_to_revise");
    const canceled = await makeReady();
    await transactions.update(canceled.id, { status: "canceled" });
    expectError(await send(canceled.id, { customer: { name: "X" } }), 400, "transaction_invalid_status_to_revise");
  });

  it("names each field it refuses", async () => {
    const t = await makeBilledWithBusiness();
    const noBusiness = await makeReady({}, "GB");
    await completeByPayment(noBusiness.id);
    const cases: [string, unknown, string][] = [
      [t.id, {}, "customer"],
      [t.id, { customer: {} }, "customer.name"],
      [t.id, { customer: { name: "" } }, "customer.name"],
      [t.id, { customer: { email: "a@b.c" } }, "customer.email"],
      [t.id, { address: { country_code: "FR" } }, "address.country_code"],
      [t.id, { address: { postal_code: "EC1" } }, "address.postal_code"],
      [t.id, { address: { city: "x".repeat(201) } }, "address.city"],
      [t.id, { business: { tax_identifier: null } }, "business.tax_identifier"],
      [t.id, { business: { tax_identifier: "" } }, "business.tax_identifier"],
      [t.id, { status: "paid" }, "status"],
      [noBusiness.id, { business: { name: "New Co" } }, "business"],
    ];
    for (const [id, body, field] of cases) expectFieldError(await send(id, body), field);
    // None of them revised anything.
    expect((await transactions.get(t.id)).body.data.revised_at).toBeNull();
  });

  it("answers 404 for an unknown transaction, 403 without transaction.write", async () => {
    const unknown = "txn_01aaaaaaaaaaaaaaaaaaaaaaaa";
    expectNotFound(await send(unknown, { customer: { name: "X" } }), unknown);
    const t = await makeBilledWithBusiness();
    const error = expectError(
      await send(t.id, { customer: { name: "X" } }, await testKey(permissionsWithout("transaction.write"))),
      403,
      "forbidden",
    );
    expect(error.detail).toContain("transaction.write");
    expect((await send(t.id, { customer: { name: "X" } }, await testKey(["transaction.write"]))).status).toBe(200);
  });

  it("has only POST", async () => {
    const id = "txn_01aaaaaaaaaaaaaaaaaaaaaaaa";
    await expectMethodsNotAllowed(revise, ["GET", "PUT", "PATCH", "DELETE"], `/transactions/${id}/revise`, {
      transaction_id: id,
    });
  });
});
