/**
 * Report generation benchmark (`BENCH_ONLY=reports npm run bench`), on a database
 * `billing_bench_reports` (no web server needed): a transactions report over 1,000 transactions,
 * then over 1,000,000 (BENCH_REPORT_ROWS), each generated and then downloaded in a child process of
 * its own (lib/dev/bench/report-child.ts), which reports its wall time, CPU time and resident memory
 * (VmRSS sampled from /proc every 50 ms, and the kernel's VmHWM peak). PostgreSQL's own CPU is not
 * counted. With V8's default heap sizing the RSS rises to a plateau (garbage left for the next
 * major GC, ~150 MB above idle, the same for 250,000 and 1,000,000 rows); a last run generates the
 * million rows again with the old space capped at 64 MB (BENCH_REPORT_HEAP_MB): it completes, so
 * what the generation keeps alive is bounded whatever the row count.
 *
 * Measured 2026-11-23 on the 2-core machine shared with other developers' builds (load average
 * 14-19): 1,000 rows in 0.9 s, peak RSS 227 MB (idle 206 MB); 1,000,000 rows (308 MB of CSV, 66.7 MB
 * gzip in 67 chunks) in 140 s with 22.5 s of Node CPU, peak RSS 361 MB (idle 185 MB), download
 * streamed in 6.0 s (2.6 s CPU, peak 301 MB); capped at 64 MB of old space: 274 s, 87 s CPU (GC),
 * peak RSS 221 MB (idle 192 MB).
 *
 * Rows are seeded set-based (INSERT ... SELECT generate_series, as lib/dev/bench/metrics.ts does):
 * transactions with a customer, one line item, totals and payout totals, updated over the last
 * 20 days (so the default "updated in the last 30 days" filter selects them all).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import type pg from "pg";
import { database, generate, ROOT } from "../../cli/tasks.ts";
import { createDatabase } from "../test/database.ts";

const LARGE = Number(process.env.BENCH_REPORT_ROWS ?? 1_000_000);
const SMALL = 1_000;
const BATCH = 100_000;
/** The old-space cap of the last run (BENCH_REPORT_HEAP_MB). */
const HEAP_CAP_MB = Number(process.env.BENCH_REPORT_HEAP_MB ?? 64);

async function insertCustomers(client: pg.Client, count: number): Promise<void> {
  await client.query(
    `INSERT INTO customers (id, email, name, created_at, updated_at)
     SELECT 'ctm_' || lpad(to_hex(g), 10, '0') || substr(md5(g::text), 1, 16), 'buyer' || g || '@example.com',
            'Buyer ' || g, now(), now()
     FROM generate_series(1, $1::int) g`,
    [count],
  );
}

/** `count` transactions with ids after `offset`; customers are the `customers` first ones. */
async function insertTransactions(client: pg.Client, count: number, offset: number, customers: number) {
  // The revenue rollup's triggers are off while seeding (a report reads no rollup): this session
  // only, as a replica would apply rows.
  await client.query("SET session_replication_role = replica");
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    await client.query(
      `WITH g AS (
         SELECT $2::bigint + i AS seq,
                CASE WHEN i % 10 < 7 THEN 'USD' WHEN i % 10 < 9 THEN 'EUR' ELSE 'JPY' END AS currency,
                CASE WHEN i % 10 < 7 THEN 'completed' WHEN i % 10 < 8 THEN 'billed' WHEN i % 10 < 9 THEN 'ready'
                     ELSE 'canceled' END AS status,
                (1000 + (i * 7919) % 9000)::bigint AS subtotal,
                1 + (i % $3::int) AS customer,
                now() - (random() * interval '20 days') AS at
         FROM generate_series(1, $1::int) AS i)
       INSERT INTO transactions (id, status, customer_id, currency_code, collection_mode, origin, invoice_number,
                                 details, created_at, updated_at, billed_at, completed_at)
       SELECT 'txn_' || lpad(to_hex(seq), 10, '0') || substr(md5(seq::text), 1, 16), status,
              'ctm_' || lpad(to_hex(customer), 10, '0') || substr(md5(customer::text), 1, 16), currency,
              'automatic', 'subscription_recurring', 'INV-' || seq,
              json_build_object(
                'tax_rates_used', '[]'::json,
                'totals', json_build_object('subtotal', subtotal::text, 'discount', '0',
                  'tax', (subtotal / 5)::text, 'total', (subtotal * 6 / 5)::text, 'credit', '0',
                  'credit_to_balance', '0', 'balance', '0', 'grand_total', (subtotal * 6 / 5)::text,
                  'grand_total_tax', (subtotal / 5)::text,
                  'fee', CASE WHEN status = 'completed' THEN (subtotal / 20 + 50)::text END,
                  'earnings', CASE WHEN status = 'completed' THEN (subtotal - subtotal / 20 - 50)::text END,
                  'currency_code', currency),
                'payout_totals', CASE WHEN status = 'completed' THEN json_build_object(
                  'total', (subtotal * 6 / 5)::text, 'fee', (subtotal / 20 + 50)::text,
                  'earnings', (subtotal - subtotal / 20 - 50)::text, 'currency_code', currency,
                  'exchange_rate', '1') END,
                'line_items', json_build_array(json_build_object('id', 'txnitm_' || lpad(to_hex(seq), 26, '0'),
                  'price_id', 'pri_01benchprice0000000000000', 'quantity', 1, 'tax_rate', '0.2',
                  'totals', json_build_object('subtotal', subtotal::text, 'discount', '0',
                    'tax', (subtotal / 5)::text, 'total', (subtotal * 6 / 5)::text)))),
              at, at, at, CASE WHEN status = 'completed' THEN at END
       FROM g`,
      [n, offset + done, customers],
    );
  }
  await client.query("ANALYZE transactions");
}

interface ChildResult {
  generation: {
    result: { status: string; rows?: number; bytes?: number; chunks?: number };
    seconds: number;
    cpuSeconds: number;
    startRssMb: number;
    peakRssMb: number;
  };
  download: { result: { bytes: number; lines: number }; seconds: number; cpuSeconds: number; peakRssMb: number };
  compressedBytes: number;
  peakRssMbKernel: number;
}

/** A child generating report `id`; `heapMb` caps V8's old space (NODE_OPTIONS --max-old-space-size). */
function runChild(id: string, url: string, heapMb?: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const nodeOptions = heapMb ? `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=${heapMb}`.trim() : undefined;
    const child = spawn(
      path.join(ROOT, "node_modules/.bin/tsx"),
      [path.join(ROOT, "lib/dev/bench/report-child.ts"), id],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: url, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`report-child exited with ${code}`));
      else resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}"));
    });
  });
}

function show(label: string, r: ChildResult): void {
  const g = r.generation;
  const d = r.download;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `${label.padEnd(34)} generate ${g.seconds.toFixed(1).padStart(6)} s (CPU ${g.cpuSeconds.toFixed(1)} s), ` +
      `peak RSS ${g.peakRssMb.toFixed(0)} MB (idle ${g.startRssMb.toFixed(0)} MB); ` +
      `CSV ${mb(g.result.bytes ?? 0)}, gzip ${mb(r.compressedBytes)} in ${g.result.chunks} chunks; ` +
      `download ${d.seconds.toFixed(1)} s (CPU ${d.cpuSeconds.toFixed(1)} s), peak RSS ${d.peakRssMb.toFixed(0)} MB; ` +
      `VmHWM ${r.peakRssMbKernel.toFixed(0)} MB`,
  );
}

export async function benchReports(): Promise<Record<string, unknown>> {
  await generate();
  const server = await database();
  const url = await createDatabase(server.url, "billing_bench_reports");
  process.env.DATABASE_URL = url;
  const { applyMigrations } = await import("../../db/migrate.ts");
  await applyMigrations(url);
  const pgModule = await import("pg");
  const client = new pgModule.default.Client({ connectionString: url });
  await client.connect();
  const { createReport } = await import("../../services/reports/reports.ts");
  const { disconnectDb } = await import("../../db/connection.ts");
  try {
    console.log(
      `\nReports: a transactions report over ${SMALL.toLocaleString("en")} and ${LARGE.toLocaleString("en")} rows\n`,
    );
    await insertCustomers(client, 5_000);
    await insertTransactions(client, SMALL, 0, 5_000);
    const small = await createReport({ type: "transactions" });
    const smallResult = await runChild(small.parse().id, url);
    show(`${SMALL.toLocaleString("en")} rows`, smallResult);

    const started = performance.now();
    await insertTransactions(client, LARGE - SMALL, 1_000_000, 5_000);
    const seedSeconds = (performance.now() - started) / 1000;
    console.log(`Seeded ${(LARGE - SMALL).toLocaleString("en")} transactions in ${seedSeconds.toFixed(1)} s`);
    const large = await createReport({ type: "transactions" });
    const largeResult = await runChild(large.parse().id, url);
    show(`${LARGE.toLocaleString("en")} rows`, largeResult);
    const growth = largeResult.generation.peakRssMb - smallResult.generation.peakRssMb;
    console.log(
      `  peak RSS growth from ${SMALL.toLocaleString("en")} to ${LARGE.toLocaleString("en")} rows: ${growth.toFixed(0)} MB` +
        " (V8 lets garbage pile up to a plateau before collecting; the run below caps the heap)",
    );
    // What the process keeps alive: the same report with V8's old space capped. It completes, so
    // what a generation holds is below the cap whatever the number of rows.
    const capped = await createReport({ type: "transactions" });
    const cappedResult = await runChild(capped.parse().id, url, HEAP_CAP_MB);
    show(`${LARGE.toLocaleString("en")} rows, ${HEAP_CAP_MB} MB heap cap`, cappedResult);
    return {
      rows: LARGE,
      seedSeconds,
      small: smallResult,
      large: largeResult,
      peakRssGrowthMb: growth,
      heapCapMb: HEAP_CAP_MB,
      capped: cappedResult,
    };
  } finally {
    await disconnectDb();
    await client.end();
    await server.embedded?.stop();
  }
}
