/**
 * Idempotency-Key on POST (lib/http/idempotency.ts) through real route handlers on a real
 * PostgreSQL: replay with its header, reuse with another request refused, a key in flight refused,
 * concurrent requests with one key (exactly one runs), nothing kept for requests refused before
 * they run, answers kept for executed 4xx, 5xx freeing the key, stale claims retaken, expiry,
 * per-caller scopes, public endpoints, key validation and the purge.
 */
import { describe, expect, it } from "vitest";
import * as checkoutPayments from "@/app/api/checkout/[transaction_id]/payments/route";
import * as customers from "@/app/api/customers/route";
import * as products from "@/app/api/products/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, testKey, testKeyWithId } from "@/lib/dev/test/api";
import { makeReady } from "@/lib/dev/test/transactions";
import type { AuthContext } from "./auth.ts";
import { purgeIdempotencyKeys, startIdempotent } from "./idempotency.ts";

let n = 0;
function unique(): string {
  n++;
  return `${Date.now()}-${n}`;
}

function createCustomer(key: string, idempotencyKey: string | null, body: unknown) {
  return call(customers.POST, "POST", "/customers", {
    key,
    body,
    headers: idempotencyKey === null ? {} : { "idempotency-key": idempotencyKey },
  });
}

async function customerCount(email: string): Promise<number> {
  const [row] = await query<{ n: number }>("SELECT count(*)::int AS n FROM customers WHERE email = $1", [email]);
  return row!.n;
}

describe("Idempotency-Key", () => {
  it("the same key and body: the first answer, replayed with Idempotent-Replayed; the work done once", async () => {
    const key = await testKey();
    const idem = `key-${unique()}`;
    const email = `idem-${unique()}@example.com`;
    const first = await createCustomer(key, idem, { email, name: "Sam" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The same body with another key order and spacing is the same request.
    const again = await call(customers.POST, "POST", "/customers", {
      key,
      rawBody: `{ "name": "Sam",   "email": "${email}" }`,
      headers: { "idempotency-key": idem, "content-type": "application/json" },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await customerCount(email)).toBe(1);
  });

  it("the same key with another body, or on another path: 422 idempotency_key_reused, nothing runs", async () => {
    const key = await testKey();
    const idem = `key-${unique()}`;
    const email = `reuse-${unique()}@example.com`;
    expect((await createCustomer(key, idem, { email })).status).toBe(201);
    const other = `reuse-other-${unique()}@example.com`;
    const reused = expectError(await createCustomer(key, idem, { email: other }), 422, "idempotency_key_reused");
    expect(reused.detail).toContain("different request body");
    expect(await customerCount(other)).toBe(0);
    const elsewhere = await call(products.POST, "POST", "/products", {
      key,
      body: { name: "Thing", tax_category: "standard" },
      headers: { "idempotency-key": idem },
    });
    expect(expectError(elsewhere, 422, "idempotency_key_reused").detail).toContain("POST /api/customers");
  });

  it("a request refused before it runs keeps nothing: the corrected request runs with the same key", async () => {
    const key = await testKey();
    const idem = `key-${unique()}`;
    const email = `fixed-${unique()}@example.com`;
    expectFieldError(await createCustomer(key, idem, { email: "not an email" }), "email");
    expectError(await createCustomer("svc_apikey_sdbx_bogus", idem, { email }), 401, "invalid_token");
    expectError(await createCustomer(await testKey(["product.read"]), idem, { email }), 403, "forbidden");
    const ok = await createCustomer(key, idem, { email });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("idempotent-replayed")).toBeNull();
  });

  it("an executed request's 4xx answer is kept and replayed", async () => {
    const key = await testKey();
    const email = `dup-${unique()}@example.com`;
    expect((await createCustomer(key, null, { email })).status).toBe(201);
    const idem = `key-${unique()}`;
    const conflict = await createCustomer(key, idem, { email });
    expectError(conflict, 409, "customer_already_exists");
    const replay = await createCustomer(key, idem, { email });
    expect(replay.status).toBe(409);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(conflict.body);
  });

  it("a 5xx answer is not kept: the key is free again (nothing committed, the retry may run)", async () => {
    const request = new Request("http://localhost:3000/api/customers", {
      method: "POST",
      headers: { "idempotency-key": `key-${unique()}` },
    });
    const auth: AuthContext = { type: "api_key", apiKeyId: `apikey_${unique()}`, permissions: new Set() };
    const first = await startIdempotent(request, auth, { email: "x@example.com" }, "r1");
    if (!first || !("claim" in first)) throw new Error("expected a claim");
    await first.claim.finish(new Response("{}", { status: 500 }));
    const second = await startIdempotent(request, auth, { email: "x@example.com" }, "r2");
    expect(second && "claim" in second).toBe(true);
  });

  it("concurrent requests with one key: exactly one runs; the others get 409 in use (or its replay)", async () => {
    const key = await testKey();
    const idem = `key-${unique()}`;
    const email = `race-${unique()}@example.com`;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => createCustomer(key, idem, { email, name: "Race" })),
    );
    const executed = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(executed).toHaveLength(1);
    for (const r of results) {
      if (r === executed[0]) continue;
      if (r.status === 409)
        expect(expectError(r, 409, "idempotency_key_in_use").detail).toContain("still being processed");
      else {
        expect(r.status).toBe(201);
        expect(r.headers.get("idempotent-replayed")).toBe("true");
      }
    }
    expect(results.some((r) => r.status === 409)).toBe(true);
    expect(await customerCount(email)).toBe(1);
    // Once done, the key answers with the replay.
    const after = await createCustomer(key, idem, { email, name: "Race" });
    expect(after.headers.get("idempotent-replayed")).toBe("true");
    expect(after.body).toEqual(executed[0]!.body);
  });

  it("a key in flight is refused; a crashed one (in flight for minutes) is retaken by the same request", async () => {
    const { id, key } = await testKeyWithId();
    const email = `crash-${unique()}@example.com`;
    const body = { email };
    // Claim the key as a request would, and never finish it (its process died).
    const request = new Request("http://localhost:3000/api/customers", {
      method: "POST",
      headers: { "idempotency-key": "crashed" },
    });
    const claim = await startIdempotent(request, { type: "api_key", apiKeyId: id, permissions: new Set() }, body, "r");
    expect(claim && "claim" in claim).toBe(true);
    expectError(await createCustomer(key, "crashed", body), 409, "idempotency_key_in_use");
    // Another body is still a reuse, even of a stale claim.
    await query("UPDATE idempotency_keys SET locked_at = now() - interval '6 minutes' WHERE key = 'crashed'");
    expectError(await createCustomer(key, "crashed", { email: `x${email}` }), 422, "idempotency_key_reused");
    const retaken = await createCustomer(key, "crashed", body);
    expect(retaken.status).toBe(201);
    expect(await customerCount(email)).toBe(1);
  });

  it("after 24 hours a key is new again, and the retention job deletes expired keys", async () => {
    const key = await testKey();
    const idem = `key-${unique()}`;
    const email = `expire-${unique()}@example.com`;
    expect((await createCustomer(key, idem, { email })).status).toBe(201);
    const [row] = await query<{ hours: number }>(
      "SELECT round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours FROM idempotency_keys WHERE key = $1",
      [idem],
    );
    expect(row!.hours).toBe(24);
    await query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [idem]);
    const other = `expire-other-${unique()}@example.com`;
    expect((await createCustomer(key, idem, { email: other })).status).toBe(201);
    await query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [idem]);
    expect(await purgeIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    expect(await query("SELECT 1 FROM idempotency_keys WHERE key = $1", [idem])).toEqual([]);
  });

  it("keys belong to the caller: another API key's same key is its own", async () => {
    const idem = `key-${unique()}`;
    const a = `scope-a-${unique()}@example.com`;
    const b = `scope-b-${unique()}@example.com`;
    expect((await createCustomer(await testKey(), idem, { email: a })).status).toBe(201);
    const other = await createCustomer(await testKey(), idem, { email: b });
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });

  it("public endpoints: the key is scoped to the path (the hosted checkout's payment)", async () => {
    const t = await makeReady();
    const card = { cardholder_name: "Sam Buyer", number: "4000 0000 0000 0002", expiry: "12/39", cvc: "123" };
    const pay = () =>
      call(checkoutPayments.POST, "POST", `/checkout/${t.id}/payments`, {
        body: card,
        params: { transaction_id: t.id },
        headers: { "idempotency-key": "pay-1" },
      });
    const first = await pay();
    expect(first.status).toBe(201);
    const replay = await pay();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const [row] = await query<{ n: number }>(
      "SELECT jsonb_array_length(payments::jsonb)::int AS n FROM transactions WHERE id = $1",
      [t.id],
    );
    expect(row!.n).toBe(1);
  });

  it("validated: 1 to 255 printable ASCII characters; ignored on other methods", async () => {
    const key = await testKey();
    const email = `valid-${unique()}@example.com`;
    const long = expectFieldError(await createCustomer(key, "k".repeat(256), { email }), "Idempotency-Key");
    expect(long.errors?.[0]?.message).toContain("255");
    expectFieldError(await createCustomer(key, "caf\u00e9", { email }), "Idempotency-Key");
    expectFieldError(await createCustomer(key, "", { email }), "Idempotency-Key");
    expect(await customerCount(email)).toBe(0);
    expect((await createCustomer(key, "k".repeat(255), { email })).status).toBe(201);
    const listed = await call(customers.GET, "GET", "/customers", {
      key,
      headers: { "idempotency-key": "k".repeat(300) },
    });
    expect(listed.status).toBe(200);
  });

  it("a POST without the header writes nothing to the key table", async () => {
    const before = await query<{ n: number }>("SELECT count(*)::int AS n FROM idempotency_keys");
    expect((await createCustomer(await testKey(), null, { email: `none-${unique()}@example.com` })).status).toBe(201);
    const after = await query<{ n: number }>("SELECT count(*)::int AS n FROM idempotency_keys");
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});
