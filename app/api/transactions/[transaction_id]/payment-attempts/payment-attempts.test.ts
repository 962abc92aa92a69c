/** GET /transactions/{transaction_id}/payment-attempts (our extension for the dashboard). */
import { describe, expect, it } from "vitest";
import * as attemptsRoute from "@/app/api/transactions/[transaction_id]/payment-attempts/route";
import { call, expectNotFound } from "@/lib/dev/test/api";
import { expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { makeReady } from "@/lib/dev/test/transactions";
import { noteProcessorPayment, recordAttempt } from "@/lib/payments/attempts";

async function list(id: string, key?: string) {
  return call(attemptsRoute.GET, "GET", `/transactions/${id}/payment-attempts`, {
    key: key ?? (await admin()),
    params: { transaction_id: id },
  });
}

describe("GET /transactions/{transaction_id}/payment-attempts", () => {
  it("lists the attempts newest first, with the Stripe dashboard link once Stripe gave an ID", async () => {
    const t = await makeReady({});
    expect((await list(t.id)).body.data).toEqual([]);
    const first = await recordAttempt({
      transactionId: t.id,
      processorAccount: "acct_test",
      kind: "checkout",
      amount: 1234n,
      currencyCode: "USD",
    });
    await noteProcessorPayment(first.id, "pi_test_123", "requires_action");
    const second = await recordAttempt({
      transactionId: t.id,
      processorAccount: "acct_test",
      kind: "checkout",
      amount: 1234n,
      currencyCode: "USD",
    });
    const res = await list(t.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((a: { id: string }) => a.id)).toEqual([second.id, first.id]);
    expect(res.body.data[1]).toMatchObject({
      processor: "stripe",
      kind: "checkout",
      status: "requires_action",
      amount: "1234",
      currency_code: "USD",
      processor_reference: "pi_test_123",
      dashboard_url: "https://dashboard.stripe.com/test/payments/pi_test_123",
      settled_at: null,
    });
    expect(res.body.data[0]).toMatchObject({ status: "started", processor_reference: null, dashboard_url: null });
  });

  it("not found, and a malformed ID is a 4xx", async () => {
    expectNotFound(await list("txn_01hv8x0000000000000000000a"), "txn_01hv8x0000000000000000000a");
    const bad = await list("txn_\ud800");
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });

  it("needs transaction.read: 403 without it", async () => {
    const t = await makeReady({});
    await expectPermission((key) => list(t.id, key), {
      permission: "transaction.read",
      denied: [permissionsWithout("transaction.")],
    });
  });
});
