/**
 * The audit log in business words: what the route wrapper keeps of a change (`detail`) and how the
 * dashboard says it (lib/dashboard/activity-words.ts), from real requests on a real database.
 */
import { describe, expect, it } from "vitest";
import * as adjustmentCollection from "@/app/api/adjustments/route";
import * as accept from "@/app/api/team/invites/accept/route";
import * as invites from "@/app/api/team/invites/route";
import { describeAudit, phraseText } from "@/lib/dashboard/activity-words";
import { query } from "@/lib/db/sql";
import { completeByPayment } from "@/lib/dev/test/adjustments";
import { call } from "@/lib/dev/test/api";
import { admin } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { MANUAL_TERMS, makeBusiness, makeReady, transactions } from "@/lib/dev/test/transactions";
import * as auditLog from "./route";

type Entry = Record<string, any>;

async function entries(entityId: string): Promise<Entry[]> {
  const res = await call(auditLog.GET, "GET", `/audit-log?entity_id=${entityId}&order_by=id[ASC]`, {
    key: await admin(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const words = (entry: Entry) => phraseText(describeAudit(entry as any));

describe("the audit log in business words", () => {
  it("says an issued invoice with its number, amount and business, linked to the transaction and customer", async () => {
    const ready = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    const business = await makeBusiness(ready.customer_id, { name: "Becker Design" });
    await transactions.update(ready.id, { business_id: business.id });
    const billed = (await transactions.update(ready.id, { status: "billed" })).body.data;
    const all = await entries(ready.id);
    const issue = all.at(-1) as Entry;
    expect(issue.action).toBe(`PATCH /api/transactions/${ready.id}`);
    expect(issue.detail).toMatchObject({
      requested_status: "billed",
      status: "billed",
      invoice_number: billed.invoice_number,
      amount: "1000",
      currency_code: "USD",
      business_name: "Becker Design",
      fields: ["status"],
    });
    expect(words(issue)).toBe(`Issued invoice ${billed.invoice_number} ($10.00) to Becker Design`);
    const phrase = describeAudit(issue as any);
    expect(phrase).toContainEqual({ text: billed.invoice_number, href: `/transactions/${ready.id}` });
    expect(phrase).toContainEqual({ text: "Becker Design", href: `/customers/${ready.customer_id}` });
    // The business change before it: an update naming what changed, never "PATCH /api/…".
    expect(words(all.at(-2) as Entry)).toMatch(/^Updated a transaction for .+ \(business id\)$/);
  });

  it("says a refund with its amount and the invoice it is on", async () => {
    const ready = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    const billed = (await transactions.update(ready.id, { status: "billed" })).body.data;
    await completeByPayment(ready.id);
    const refund = await call(adjustmentCollection.POST, "POST", "/adjustments", {
      key: await admin(),
      body: {
        action: "refund",
        transaction_id: ready.id,
        reason: "Customer asked",
        type: "partial",
        items: [{ item_id: billed.details.line_items[0].id, type: "partial", amount: "400" }],
      },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const [entry] = await entries(refund.body.data.id);
    expect(entry!.detail).toMatchObject({ action: "refund", amount: "400", invoice_number: billed.invoice_number });
    expect(words(entry!)).toBe(`Refunded $4.00 on ${billed.invoice_number}`);
  });

  it("says who joined the team and as what", async () => {
    const owner = await staffSession("owner");
    const invitation = await call(invites.POST, "POST", "/team/invites", {
      headers: owner.headers,
      body: { email: `maya-${Date.now()}@example.com`, role: "admin" },
    });
    expect(words((await entries(invitation.body.data.id))[0]!)).toMatch(/^Invited maya-\d+@example.com as admin$/);
    const token = (invitation.body.data.url as string).split("/invite/")[1];
    const joined = await call(accept.POST, "POST", "/team/invites/accept", {
      body: { token, password: "correct horse battery staple 42", name: "Maya Chen" },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const res = await call(auditLog.GET, "GET", `/audit-log?actor=${joined.body.data.id}`, { key: await admin() });
    const page = res.body.data;
    expect(page[0].detail).toEqual({ email: joined.body.data.email, role: "admin", name: "Maya Chen" });
    expect(words(page[0])).toBe("Maya Chen joined as admin");
  });

  it("says an entry recorded before details were kept from its action, never as the raw request", async () => {
    const ready = await makeReady();
    await query("UPDATE audit_log SET detail = NULL WHERE entity_id = $1", [ready.id]);
    const [created] = await entries(ready.id);
    expect(created!.detail).toBeNull();
    expect(words(created!)).toBe(`Created transaction ${ready.id}`);
    expect(words({ action: `POST /api/subscriptions/${ready.id.replace("txn", "sub")}/cancel`, entity_id: null })).toBe(
      "Cancel on subscription",
    );
  });
});
