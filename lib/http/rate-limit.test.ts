/**
 * API rate limits (lib/http/rate-limit.ts) on a real PostgreSQL: the default 240 a minute through a
 * real route handler, previews' own budget, per-client keys, two limiter instances ("processes")
 * sharing the database within the stated overshoot, no database work for refused requests, failing
 * open, the purge, and the limiter's CPU cost per request.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as eventTypes from "@/app/api/event-types/route";
import * as pricingPreview from "@/app/api/pricing-preview/route";
import { pool } from "@/lib/db/connection";
import { query } from "@/lib/db/sql";
import { call, expectError, testKey } from "@/lib/dev/test/api";
import { checkRateLimit, chunkOf, purgeRateLimitCounters, RateLimiter, WINDOW_MS } from "./rate-limit.ts";

let next = 0;
/** A client address of its own for each test (the shared limiter keeps its counts per address). */
function address(): string {
  next++;
  return `198.51.100.${next}`;
}

function get(from: string) {
  return call(eventTypes.GET, "GET", "/event-types", { headers: { "x-forwarded-for": from } });
}

function preview(from: string, key: string) {
  return call(pricingPreview.POST, "POST", "/pricing-preview", { key, body: {}, headers: { "x-forwarded-for": from } });
}

/** Waits for a fresh minute when the current one ends within `ms` (fixed windows restart the count). */
async function roomInWindow(ms: number): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

afterEach(() => {
  process.env.BILLING_RATE_LIMIT = "off";
  process.env.BILLING_RATE_LIMIT_PREVIEW = "off";
  delete process.env.BILLING_TRUST_PROXY;
});

describe("through the route wrapper", () => {
  it("the default: 240 requests a minute per client; the 241st gets 429 with Retry-After", async () => {
    delete process.env.BILLING_RATE_LIMIT;
    await roomInWindow(8_000);
    const from = address();
    for (let i = 1; i <= 240; i++) {
      const res = await get(from);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("240");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(240 - i));
      const reset = Number(res.headers.get("ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    const refused = await get(from);
    const error = expectError(refused, 429, "too_many_requests");
    expect(error.type).toBe("request_error");
    expect(error.detail).toContain("240 requests a minute");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    // Another client is not affected.
    expect((await get(address())).status).toBe(200);
  });

  it("previews have their own budget, and count nothing against the other", async () => {
    process.env.BILLING_RATE_LIMIT = "3";
    process.env.BILLING_RATE_LIMIT_PREVIEW = "5";
    await roomInWindow(5_000);
    const key = await testKey();
    const from = address();
    for (let i = 0; i < 3; i++) expect((await get(from)).status).toBe(200);
    expectError(await get(from), 429, "too_many_requests");
    // Refused bodies still count (the limit comes before validation), each with the headers.
    for (let i = 0; i < 5; i++) {
      const res = await preview(from, key);
      expect(res.status).toBe(400);
      expect(res.headers.get("ratelimit-limit")).toBe("5");
    }
    const refused = await preview(from, key);
    expect(expectError(refused, 429, "too_many_requests").detail).toContain("5 preview requests a minute");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("the default preview budget is 1,000 a minute", async () => {
    delete process.env.BILLING_RATE_LIMIT_PREVIEW;
    const res = await preview(address(), await testKey());
    expect(res.headers.get("ratelimit-limit")).toBe("1000");
    expect(res.headers.get("ratelimit-remaining")).toBe("999");
  });

  it("keyed by the client's address: spoofed X-Forwarded-For entries change nothing", async () => {
    process.env.BILLING_RATE_LIMIT = "2";
    await roomInWindow(5_000);
    const real = address();
    // Spoofed left-hand entries change nothing: the peer is the last hop.
    for (const spoof of ["10.0.0.1", "10.0.0.2"]) expect((await get(`${spoof}, ${real}`)).status).toBe(200);
    expectError(await get(`10.0.0.3, ${real}`), 429, "too_many_requests");
    // Behind one trusted proxy, the client is the address the proxy appended (the last entry);
    // what the client wrote before it is not believed.
    process.env.BILLING_TRUST_PROXY = "1";
    const behind = address();
    for (let i = 0; i < 2; i++) expect((await get(`${behind}`)).status).toBe(200);
    expectError(await get(`9.9.9.9, ${behind}`), 429, "too_many_requests");
    expect((await get(`${behind}, ${address()}`)).status).toBe(200);
  });

  it("IPv6 clients are limited by their /64", async () => {
    process.env.BILLING_RATE_LIMIT = "2";
    await roomInWindow(5_000);
    expect((await get("2001:db8:aa:1::1")).status).toBe(200);
    expect((await get("2001:db8:aa:1:ffff::2")).status).toBe(200);
    expectError(await get("2001:db8:aa:1::3"), 429, "too_many_requests");
    expect((await get("2001:db8:aa:2::1")).status).toBe(200);
  });

  it("off: no limit and no headers", async () => {
    process.env.BILLING_RATE_LIMIT = "off";
    const from = address();
    for (let i = 0; i < 5; i++) {
      const res = await get(from);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBeNull();
    }
  });
});

describe("RateLimiter", () => {
  const limiters: RateLimiter[] = [];
  function limiter(options: ConstructorParameters<typeof RateLimiter>[0] = {}): RateLimiter {
    const made = new RateLimiter(options);
    limiters.push(made);
    return made;
  }
  afterEach(async () => {
    for (const made of limiters.splice(0)) await made.stop();
  });

  it("one process alone is exact, and writes a statement per chunk, not per request", async () => {
    const one = limiter({ flushMs: 10_000 });
    const now = Date.now();
    let admitted = 0;
    for (let i = 0; i < 300; i++) if ((await one.check(`solo-${now}`, 100)).allowed) admitted++;
    expect(admitted).toBe(100);
    // 100 admitted: syncs at each chunk of 5 while far from the limit, then one per request near it.
    expect(one.writes).toBeLessThanOrEqual(100 / chunkOf(100) + chunkOf(100) + 1);
    // Refused requests cost no database work at all.
    const before = one.writes;
    for (let i = 0; i < 100; i++) expect((await one.check(`solo-${now}`, 100)).allowed).toBe(false);
    expect(one.writes).toBe(before);
  });

  it("two processes sharing the database hold the limit within limit + 2 × chunk", async () => {
    const limit = 240;
    const bound = limit + 2 * chunkOf(limit);
    for (const flushMs of [1, 50, 10_000]) {
      const a = limiter({ flushMs });
      const b = limiter({ flushMs });
      const key = `pair-${flushMs}-${Date.now()}`;
      await roomInWindow(5_000);
      // Bursts from both at once, as two web processes behind a balancer.
      const decisions = await Promise.all(
        Array.from({ length: 600 }, async (_, i) => {
          if (i % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
          return (i % 2 === 0 ? a : b).check(key, limit);
        }),
      );
      const admitted = decisions.filter((d) => d.allowed).length;
      expect(admitted, `flushMs ${flushMs}`).toBeGreaterThanOrEqual(limit);
      expect(admitted, `flushMs ${flushMs}`).toBeLessThanOrEqual(bound);
      await a.flush();
      await b.flush();
      const [row] = await query<{ count: number }>(
        "SELECT sum(count)::int AS count FROM rate_limit_counters WHERE key = $1",
        [key],
      );
      expect(row!.count).toBeGreaterThanOrEqual(admitted);
    }
  });

  it("a process that idled sees the other's count at its next sync", async () => {
    const limit = 40;
    const a = limiter({ flushMs: 10_000 });
    const b = limiter({ flushMs: 10_000 });
    const key = `idle-${Date.now()}`;
    await roomInWindow(5_000);
    for (let i = 0; i < limit; i++) expect((await a.check(key, limit)).allowed).toBe(true);
    // b knows nothing yet: it admits at most one chunk before its sync shows the total.
    let admitted = 0;
    for (let i = 0; i < limit; i++) if ((await b.check(key, limit)).allowed) admitted++;
    expect(admitted).toBeLessThanOrEqual(chunkOf(limit));
  });

  it("a new window starts the count again", async () => {
    let now = Date.UTC(2030, 0, 1, 0, 0, 59, 500);
    const one = limiter({ now: () => now, flushMs: 10_000 });
    for (let i = 0; i < 3; i++) expect((await one.check("windows", 3)).allowed).toBe(true);
    const refused = await one.check("windows", 3);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    now += 600;
    expect(await one.check("windows", 3)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it("without the database, each process limits on its own counts (the limiter never takes the API down)", async () => {
    const broken = limiter({
      flushMs: 10_000,
      db: () => ({
        query: () => Promise.reject(new Error("connection refused")),
      }),
    });
    const errors = console.error;
    console.error = () => {};
    try {
      const key = `down-${Date.now()}`;
      const decisions = [];
      for (let i = 0; i < 10; i++) decisions.push((await broken.check(key, 4)).allowed);
      expect(decisions).toEqual([true, true, true, true, false, false, false, false, false, false]);
    } finally {
      console.error = errors;
    }
  });

  it("the retention job deletes past windows' counters", async () => {
    const now = Date.now();
    await query("INSERT INTO rate_limit_counters (key, window_start, count) VALUES ('old', $1, 5), ('new', $2, 5)", [
      now - 10 * WINDOW_MS,
      now - (now % WINDOW_MS),
    ]);
    expect(await purgeRateLimitCounters(now)).toBeGreaterThanOrEqual(1);
    const keys = (await query<{ key: string }>("SELECT key FROM rate_limit_counters WHERE key IN ('old', 'new')")).map(
      (r) => r.key,
    );
    expect(keys).toEqual(["new"]);
  });
});

describe("cost", () => {
  it("CPU per request: the limiter's check, and the whole checkRateLimit of a request", async () => {
    const one = new RateLimiter({ flushMs: 250 });
    const keys = Array.from({ length: 1_000 }, (_, i) => `bench-${i}`);
    const n = 200_000;
    for (let i = 0; i < 10_000; i++) one.check(keys[i % keys.length]!, 1_000_000);
    let start = process.cpuUsage();
    for (let i = 0; i < n; i++) one.check(keys[i % keys.length]!, 1_000_000);
    let used = process.cpuUsage(start);
    const checkUs = (used.user + used.system) / n;

    process.env.BILLING_RATE_LIMIT = "1000000";
    const requests = Array.from(
      { length: 1_000 },
      (_, i) =>
        new Request(`http://localhost:3000/api/customers?per_page=10`, {
          headers: { "x-forwarded-for": `203.0.113.${i % 250}` },
        }),
    );
    const m = 50_000;
    start = process.cpuUsage();
    for (let i = 0; i < m; i++) await checkRateLimit(requests[i % requests.length]!, one);
    used = process.cpuUsage(start);
    const requestUs = (used.user + used.system) / m;
    await one.stop();
    console.log(
      `[rate-limit cost] check: ${checkUs.toFixed(2)} µs; checkRateLimit (URL, address, key, check): ${requestUs.toFixed(2)} µs per request; writes: ${one.writes}`,
    );
    expect(checkUs).toBeLessThan(20);
    expect(requestUs).toBeLessThan(50);
  });
});

afterEach(async () => {
  // Nothing of one test's counts leaks into the next through the table.
  await pool().query("DELETE FROM rate_limit_counters WHERE key LIKE 'pair-%' OR key LIKE 'idle-%'");
});
