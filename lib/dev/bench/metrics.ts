/**
 * Metrics and transaction-list benchmark (`BENCH_ONLY=metrics npm run bench`), against `next start`
 * on a database `billing_bench_metrics`:
 *   1. GET /api/transactions?per_page=200 over 1,000 transactions, then over 1,000,000
 *      (target: the large table within 2x of the small one, mean latency, 1 connection);
 *   2. GET /api/metrics/revenue over the last year with those 1,000,000 completed transactions
 *      (three currencies, spread over 365 days; target: under 100 ms), p50/p99 with 1 connection
 *      and with BENCH_CONNECTIONS.
 * Rows are seeded set-based (INSERT ... SELECT generate_series), through the real rollup triggers:
 * the seeding time of the 999,000 completions is reported too (the triggers' cost in bulk).
 *
 * Measured 2026-11-22 on the 2-core machine, shared with four other developers' builds and tests
 * (so slower than on a quiet machine): revenue over 365 days p50 7 ms / p99 26 ms at 1 connection,
 * p50 64 ms / p99 130 ms at 10 (148 req/s); list of 200 over 1,000,000 vs 1,000: 1.05x.
 */
import type pg from "pg";
import { CONNECTIONS, load, prepareBench, SECONDS, withServer } from "./server.ts";

const LARGE = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const SMALL = 1_000;
const BATCH = 100_000;

/**
 * `count` completed transactions with ids after `offset` (time-ordered like the API's), in USD
 * (70%), EUR (20%) and JPY (10%), completed at random moments of the last 365 days, with the
 * details a completion writes (totals with fee and earnings, payout totals). Set-based, in batches.
 */
async function insertTransactions(client: pg.Client, count: number, offset: number): Promise<void> {
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    await client.query(
      `WITH g AS (
         SELECT $2::bigint + i AS seq,
                CASE WHEN i % 10 < 7 THEN 'USD' WHEN i % 10 < 9 THEN 'EUR' ELSE 'JPY' END AS currency,
                (1000 + (i * 7919) % 9000)::bigint AS total,
                now() - (random() * interval '365 days') AS completed_at
         FROM generate_series(1, $1::int) AS i)
       INSERT INTO transactions (id, status, currency_code, collection_mode, origin, details, completed_at,
                                 created_at, updated_at, billed_at)
       SELECT 'txn_' || lpad(to_hex(seq), 10, '0') || substr(md5(seq::text), 1, 16), 'completed', currency,
              'automatic', 'api',
              json_build_object(
                'tax_rates_used', '[]'::json,
                'totals', json_build_object('subtotal', total::text, 'discount', '0', 'tax', '0',
                  'total', total::text, 'credit', '0', 'balance', '0', 'grand_total', total::text,
                  'fee', (total / 20 + 50)::text, 'earnings', (total - total / 20 - 50)::text,
                  'currency_code', currency),
                'payout_totals', json_build_object('fee', (total / 20 + 50)::text,
                  'earnings', (total - total / 20 - 50)::text, 'currency_code', currency),
                'line_items', '[]'::json),
              completed_at, completed_at, completed_at, completed_at
       FROM g`,
      [n, offset + done],
    );
  }
  await client.query("ANALYZE transactions");
}

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

export async function benchMetrics(): Promise<Record<string, unknown>> {
  const bench = await prepareBench("billing_bench_metrics");
  const { client, key } = bench;
  await insertTransactions(client, SMALL, 0);

  return withServer(bench, async () => {
    const list = "/api/transactions?per_page=200";
    const revenue = `/api/metrics/revenue?from=${day(-364)}&to=${day(1)}`;
    console.log(`\nMetrics and transaction lists: ${SECONDS}s runs, keep-alive, next start on PostgreSQL\n`);
    await load("warm-up", { path: list, duration: 3 }, key, 1);
    const small = await load(`GET ${list} over ${SMALL.toLocaleString("en")}`, { path: list }, key, 1);

    const started = performance.now();
    await insertTransactions(client, LARGE - SMALL, 1_000_000);
    const seedSeconds = (performance.now() - started) / 1000;
    // The bulk load updates the rollup's ~1,100 rows a million times in ten statements: no HOT
    // pruning or autovacuum can run inside a statement, so it leaves a table of ~50 MB for 1,100
    // live rows (measured), where a year of separate completions, each HOT-updating a row on a
    // half-empty page with autovacuum every 500 changes, keeps it a few pages long. Compacted here
    // to stand for that steady state; the figures say so.
    await client.query("VACUUM FULL ANALYZE revenue_daily");
    const { rows } = await client.query<{ n: string; days: string; count: string }>(
      "SELECT (SELECT count(*) FROM transactions) AS n, count(*) AS days, sum(count) AS count FROM revenue_daily",
    );
    console.log(
      `Seeded ${(LARGE - SMALL).toLocaleString("en")} completed transactions through the rollup triggers in ${seedSeconds.toFixed(1)} s` +
        ` (rollup: ${rows[0]!.days} rows counting ${Number(rows[0]!.count).toLocaleString("en")}; transactions: ${Number(rows[0]!.n).toLocaleString("en")})\n`,
    );

    await load("warm-up", { path: list, duration: 3 }, key, 1);
    const large = await load(`GET ${list} over ${LARGE.toLocaleString("en")}`, { path: list }, key, 1);
    const deep = await load(
      `GET ${list} deep page over ${LARGE.toLocaleString("en")}`,
      { path: `${list}&after=txn_${(1_500_000).toString(16).padStart(10, "0")}` },
      key,
      1,
    );
    console.log(
      `  ${LARGE.toLocaleString("en")} vs ${SMALL.toLocaleString("en")} (mean latency, target ≤ 2): ${(large.mean / small.mean).toFixed(2)}x\n`,
    );

    await load("warm-up", { path: revenue, duration: 3 }, key, 1);
    const metrics1 = await load("GET /api/metrics/revenue, 365 days, 1 connection", { path: revenue }, key, 1);
    const metricsN = await load(
      `GET /api/metrics/revenue, 365 days, ${CONNECTIONS} connections`,
      { path: revenue },
      key,
      CONNECTIONS,
    );
    console.log(`  target: under 100 ms (p99 at 1 connection: ${metrics1.p99.toFixed(1)} ms)`);
    return {
      transactions: LARGE,
      seedSeconds,
      listSmall: small,
      listLarge: large,
      listDeep: deep,
      listRatio: large.mean / small.mean,
      revenue1: metrics1,
      revenueN: metricsN,
      seconds: SECONDS,
      connections: CONNECTIONS,
    };
  });
}
