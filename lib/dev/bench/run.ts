/**
 * `npm run bench`: load runs against `next start` on PostgreSQL, beside the bare route handler
 * (/api/health, no work at all) measured in the same run.
 *   1. requests/s of GET /api/customers/{id}, POST /api/customers, GET /api/customers?per_page=50,
 *      each as a ratio of the bare handler's (target: at least 0.8), and the CPU time one request
 *      costs the server and PostgreSQL (lib/dev/bench/cpu.ts): the endpoint's server CPU minus the bare
 *      handler's is our own cost per request, what the framework does not account for;
 *   2. latency of GET /api/customers?per_page=200 over 1,000 and over 100,000 customers
 *      (target: the large table within 2x of the small one);
 *   3. webhook deliveries per second and commit-to-delivery latency (lib/dev/bench/deliveries.ts);
 *   4. GET /api/metrics/revenue over a year of 1,000,000 completed transactions, and
 *      GET /api/transactions?per_page=200 over 1,000 and 1,000,000 (lib/dev/bench/metrics.ts).
 *   5. subscription renewals per second, 100,000 due at once, and GET /api/subscriptions?per_page=200
 *      over 1,000 vs 1,000,000 subscriptions (lib/dev/bench/renewals.ts).
 *   6. every subscription, refund, chargeback and checkout metric over a year of 1,000,000
 *      subscriptions' history (lib/dev/bench/subscription-metrics.ts).
 *   7. a transactions report of 1,000,000 rows generated (streamed, memory flat) and downloaded:
 *      time, CPU time and peak RSS of the generating process (lib/dev/bench/reports.ts).
 *   8. renewals charged off-session through Stripe against the local stand-in (BENCH_ONLY=renewals-stripe
 *      only: lib/dev/bench/renewals-stripe.ts).
 * BENCH_ONLY=api, deliveries, metrics, renewals, renewals-stripe, subscriptions, subscription-metrics or
 *   reports runs one part.
 * DATABASE_URL names the server (a database `billing_bench` is made on it); without it an embedded
 * PostgreSQL is used. BENCH_SECONDS sets the length of each run (default 10). BENCH_PORT (default 3200)
 * and BENCH_DATABASE_PREFIX keep benches of several checkouts on one machine apart.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type autocannon from "autocannon";
import type pg from "pg";
import { ROOT } from "../../cli/tasks.ts";
import { benchDeliveries } from "./deliveries.ts";
import { benchMetrics } from "./metrics.ts";
import { benchRenewals, benchSubscriptionList } from "./renewals.ts";
import { benchStripeRenewals } from "./renewals-stripe.ts";
import { benchReports } from "./reports.ts";
import { CONNECTIONS, load, prepareBench, type Run, SECONDS, withServer } from "./server.ts";
import { benchSubscriptionMetrics } from "./subscription-metrics.ts";

async function insertCustomers(client: pg.Client, count: number, offset: number): Promise<void> {
  // IDs in the API's format, generated in SQL: time-ordered prefix + random tail.
  await client.query(
    `INSERT INTO customers (id, email, name, status, locale, created_at, updated_at)
     SELECT 'ctm_' || lpad(to_hex($2::bigint + g), 10, '0') || substr(md5(random()::text), 1, 16),
            'bench' || ($2::bigint + g) || '@example.com', 'Bench Customer ' || g, 'active', 'en', now(), now()
     FROM generate_series(1, $1::int) AS g`,
    [count, offset],
  );
  await client.query("ANALYZE customers");
}

async function main() {
  const only = process.env.BENCH_ONLY;
  const results: Record<string, unknown> = {};
  const runs = (part: string) => only === undefined || only === "" || only === part;
  if (runs("api")) Object.assign(results, await benchApi());
  if (runs("deliveries")) results.deliveries = await benchDeliveries();
  if (runs("metrics")) results.metrics = await benchMetrics();
  if (runs("renewals")) results.renewals = await benchRenewals();
  // Not in the default run: it starts the Stripe stand-in (BENCH_ONLY=renewals-stripe).
  if (only === "renewals-stripe") results.renewalsStripe = await benchStripeRenewals();
  if (runs("subscriptions")) results.subscriptionList = await benchSubscriptionList();
  if (runs("reports")) results.reports = await benchReports();
  if (runs("subscription-metrics")) results.subscriptionMetrics = await benchSubscriptionMetrics();
  mkdirSync(path.join(ROOT, "bench-results"), { recursive: true });
  const file = path.join(ROOT, "bench-results", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nResults written to ${path.relative(ROOT, file)}`);
}

async function benchApi(): Promise<Record<string, unknown>> {
  const bench = await prepareBench("billing_bench");
  const { client, key } = bench;
  await insertCustomers(client, 1_000, 0);
  const { rows } = await client.query<{ id: string }>("SELECT id FROM customers ORDER BY id LIMIT 1 OFFSET 500");
  const customerId = rows[0]!.id;

  return withServer(bench, async () => {
    console.log(
      `\nLoad runs: ${SECONDS}s each, ${CONNECTIONS} connections, keep-alive, against next start on PostgreSQL\n`,
    );
    await load("warm-up", { path: "/api/customers?per_page=50", duration: 3 }, key);
    await load("warm-up", { path: `/api/customers/${customerId}`, duration: 2 }, key);
    await load("warm-up", { path: "/api/health", duration: 2 });
    const bare = await load("bare handler GET /api/health", { path: "/api/health" });
    const getOne = await load("GET /api/customers/{id}", { path: `/api/customers/${customerId}` }, key);
    let n = 0;
    const create = await load(
      "POST /api/customers",
      {
        path: "/api/customers",
        method: "POST",
        requests: [
          {
            method: "POST",
            setupRequest: (request: autocannon.Request) => ({
              ...request,
              body: JSON.stringify({ email: `load-${Date.now()}-${n++}@example.com` }),
            }),
          },
        ],
      },
      key,
    );
    const list = await load("GET /api/customers?per_page=50", { path: "/api/customers?per_page=50" }, key);
    const bareAfter = await load("bare handler again (drift check)", { path: "/api/health" });
    const bareRps = (bare.rps + bareAfter.rps) / 2;
    console.log("\nRatio to the bare handler (target ≥ 0.8):");
    for (const run of [getOne, create, list]) console.log(`  ${run.name.padEnd(40)} ${(run.rps / bareRps).toFixed(2)}`);
    const cost = cpuTable([bare, bareAfter], [getOne, create, list]);

    console.log("\nList latency by table size (1 connection):");
    const small = await load("GET ?per_page=200 over 1,000", { path: "/api/customers?per_page=200" }, key, 1);
    await insertCustomers(client, 99_000, 1_000_000);
    await load("warm-up", { path: "/api/customers?per_page=200", duration: 2 }, key, 1);
    const large = await load("GET ?per_page=200 over 100,000", { path: "/api/customers?per_page=200" }, key, 1);
    const deep = await load(
      "GET ?per_page=200 deep page over 100,000",
      { path: `/api/customers?per_page=200&after=ctm_${(1_050_000).toString(16).padStart(10, "0")}` },
      key,
      1,
    );
    console.log(`  100,000 vs 1,000 (mean latency, target ≤ 2): ${(large.mean / small.mean).toFixed(2)}x`);
    return {
      bare,
      bareAfter,
      getOne,
      create,
      list,
      cost,
      small,
      large,
      deep,
      seconds: SECONDS,
      connections: CONNECTIONS,
    };
  });
}

/**
 * Prints, per endpoint and for the bare handler, requests/s, the server's and PostgreSQL's CPU per
 * request, and our own cost per request: the endpoint's server CPU minus the bare handler's (the
 * mean of its two runs), i.e. what auth, validation, the query and serialisation add to the
 * framework's floor. Returns the same figures.
 */
function cpuTable(bareRuns: Run[], endpoints: Run[]) {
  const mean = (values: (number | null)[]) =>
    values.some((v) => v === null) ? null : (values as number[]).reduce((a, b) => a + b, 0) / values.length;
  const bare = {
    name: "bare handler GET /api/health",
    rps: mean(bareRuns.map((r) => r.rps)) ?? 0,
    serverCpuMs: mean(bareRuns.map((r) => r.serverCpuMs)),
    pgCpuMs: mean(bareRuns.map((r) => r.pgCpuMs)),
  };
  const ms = (value: number | null) => (value === null ? "n/a" : value.toFixed(3)).padStart(9);
  console.log("\nCPU per request (server: its process group; pg: the bench database's backends), in ms:");
  console.log(
    `  ${"".padEnd(40)} ${"req/s".padStart(7)} ${"server".padStart(9)} ${"pg".padStart(9)} ${"own".padStart(9)}`,
  );
  const rows = [bare, ...endpoints].map((run) => {
    const own = run.serverCpuMs === null || bare.serverCpuMs === null ? null : run.serverCpuMs - bare.serverCpuMs;
    console.log(
      `  ${run.name.padEnd(40)} ${run.rps.toFixed(0).padStart(7)} ${ms(run.serverCpuMs)} ${ms(run.pgCpuMs)} ${run === bare ? "".padStart(9) : ms(own)}`,
    );
    return {
      name: run.name,
      rps: run.rps,
      serverCpuMs: run.serverCpuMs,
      pgCpuMs: run.pgCpuMs,
      ownCpuMs: run === bare ? null : own,
    };
  });
  console.log("  own = endpoint server CPU − bare handler server CPU: our own cost per request");
  return rows;
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
