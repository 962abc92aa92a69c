/**
 * A database that refuses connections for the moment answers 503 `service_unavailable` (type
 * `api_error`) with `Retry-After`, through real routes, never a 500: the server's connection limit
 * reached (a role whose CONNECTION LIMIT is taken, as `too many clients` is for the whole server),
 * nothing listening (a restart), and the process's own pool with no connection free in time
 * (DATABASE_POOL_TIMEOUT). Nothing the refused request asked for was done.
 */
import { afterEach, describe, expect, it } from "vitest";
import { disconnectDb, pool } from "@/lib/db/connection";
import { query } from "@/lib/db/sql";
import { call, expectError, testKey } from "@/lib/dev/test/api";
import * as customers from "./customers/route";

const testDatabaseUrl = process.env.DATABASE_URL as string;
const savedEnv = { size: process.env.DATABASE_POOL_SIZE, timeout: process.env.DATABASE_POOL_TIMEOUT };

afterEach(async () => {
  await disconnectDb();
  process.env.DATABASE_URL = testDatabaseUrl;
  restore("DATABASE_POOL_SIZE", savedEnv.size);
  restore("DATABASE_POOL_TIMEOUT", savedEnv.timeout);
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Runs `fn` with this process's pool on `url` (the same database through another door). */
async function through<T>(url: string, fn: () => Promise<T>): Promise<T> {
  await disconnectDb();
  process.env.DATABASE_URL = url;
  try {
    return await fn();
  } finally {
    await disconnectDb();
    process.env.DATABASE_URL = testDatabaseUrl;
  }
}

function expectUnavailable(res: Awaited<ReturnType<typeof call>>): void {
  const error = expectError(res, 503, "service_unavailable");
  expect(error.type).toBe("api_error");
  expect(error.detail).toMatch(/nothing was changed/);
  expect(res.headers.get("retry-after")).toBe("5");
}

describe("the database refuses connections", () => {
  it("too many connections (53300): a GET and a POST answer 503 with Retry-After, and the POST did nothing", async () => {
    const key = await testKey();
    const role = `billing_full_${process.pid}_${Date.now()}`;
    // Every connection this role may open is taken: what `too many clients` is for the server.
    await query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 0`);
    try {
      const url = new URL(testDatabaseUrl);
      url.username = role;
      await through(url.toString(), async () => {
        expectUnavailable(await call(customers.GET, "GET", "/customers", { key }));
        expectUnavailable(
          await call(customers.POST, "POST", "/customers", {
            key,
            body: { email: "refused@example.com" },
            headers: { "idempotency-key": "refused-once" },
          }),
        );
      });
    } finally {
      await query(`DROP ROLE ${role}`);
    }
    expect(await query("SELECT 1 FROM customers WHERE email = 'refused@example.com'")).toEqual([]);
    // Once the database takes connections again, the same request (the same key) goes through.
    const again = await call(customers.POST, "POST", "/customers", {
      key,
      body: { email: "refused@example.com" },
      headers: { "idempotency-key": "refused-once" },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it("nothing listening (the server restarting): 503", async () => {
    const key = await testKey();
    const url = new URL(testDatabaseUrl);
    url.hostname = "127.0.0.1";
    url.port = "1";
    await through(url.toString(), async () => {
      expectUnavailable(await call(customers.GET, "GET", "/customers", { key }));
    });
  });

  it("no connection of the process's pool free within DATABASE_POOL_TIMEOUT: 503", async () => {
    const key = await testKey();
    await disconnectDb();
    process.env.DATABASE_POOL_SIZE = "1";
    process.env.DATABASE_POOL_TIMEOUT = "300ms";
    // Slow work holds the only connection.
    const held = await pool().connect();
    try {
      const started = Date.now();
      expectUnavailable(await call(customers.GET, "GET", "/customers", { key }));
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      held.release();
    }
    // Free again: answered.
    expect((await call(customers.GET, "GET", "/customers", { key })).status).toBe(200);
  });
});
