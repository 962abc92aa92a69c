/**
 * Subscription renewals charged off-session through Stripe (`BENCH_ONLY=renewals-stripe npm run
 * bench`; issue 21 §4: ≥ 500 renewals/s against the local stand-in, memory flat), on a database
 * `billing_bench_renewals_stripe`.
 *
 * The Stripe stand-in runs as a child process on this machine (lib/dev/stripe/cli.ts; well under
 * 1 ms away), with Stripe keys in the environment (test keys: the sandbox). BENCH_SUBSCRIPTIONS
 * (default 20,000) subscriptions as the renewals bench seeds them (renewals.ts seedSubscriptions:
 * monthly USD 30.00, all due at one instant), each with a Stripe customer and a saved card
 * (`pm_card_visa`) made at the stand-in in setup and linked straight in PostgreSQL
 * (processor_customers; payment_methods with processor 'stripe'). BENCH_WORKERS (default 4)
 * concurrent engine sweeps (processDueSubscriptions) in this process renew them: each batch's
 * database transaction bills its renewals and records their attempts, commits, then the attempts
 * are charged (a PaymentIntent each, BILLING_STRIPE_CONCURRENCY at a time) and settled in one batch
 * (the one completion, with Stripe's balance transaction). BENCH_DESTINATIONS (default 1) webhook
 * destinations, as the renewals bench.
 *
 * Reported: renewals/s on the wall clock; CPU per renewal of this process, of PostgreSQL (its
 * postmaster and children, from /proc) and of the stand-in's process (not ours: Stripe's side);
 * RSS before, peak by quarter of the run, after.
 *
 * Measured 2026-11-28 (the machine's PostgreSQL 15, 2 cores, other work stopped): 40,000 due at
 * once renewed at 691/s, RSS flat (312, 312, 311, 313 MB by quarter); the figures and what changed
 * to reach them are in lib/payments/README.md ("Throughput").
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import pg from "pg";
import Stripe from "stripe";
import { database, ROOT } from "../../cli/tasks.ts";
import { DEFAULT_ACCOUNT } from "../stripe/server.ts";
import { createDatabase } from "../test/database.ts";
import { procStat, seedSubscriptions, timedSweeps } from "./renewals.ts";

const COUNT = Number(process.env.BENCH_SUBSCRIPTIONS ?? 20_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const DESTINATIONS = Number(process.env.BENCH_DESTINATIONS ?? 1);
const STAND_IN_PORT = Number(process.env.BENCH_STRIPE_PORT ?? 12_199);

async function startStandIn(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "lib/dev/stripe/cli.ts"), "--port", String(STAND_IN_PORT)],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the Stripe stand-in exited with ${code}`)));
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
  });
  return { child, url };
}

/** A Stripe customer and saved card per seeded subscription, at the stand-in; linked in PostgreSQL. */
async function linkStripeMethods(client: pg.Client, stripe: Stripe, account: string): Promise<void> {
  const { rows } = await client.query<{ customer_id: string; method_id: string }>(
    "SELECT customer_id, id AS method_id FROM payment_methods ORDER BY id",
  );
  const customers: string[] = new Array(rows.length);
  const methods: string[] = new Array(rows.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < rows.length) {
        const i = next++;
        const customer = await stripe.customers.create({ metadata: { customer_id: rows[i]!.customer_id } });
        const method = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
        customers[i] = customer.id;
        methods[i] = method.id;
      }
    }),
  );
  await client.query(
    `INSERT INTO processor_customers (customer_id, processor, processor_account, reference)
     SELECT x.customer_id, 'stripe', $3, x.reference FROM unnest($1::text[], $2::text[]) AS x(customer_id, reference)`,
    [rows.map((r) => r.customer_id), customers, account],
  );
  await client.query(
    `UPDATE payment_methods m SET processor = 'stripe', processor_account = $3, processor_reference = x.reference
       FROM unnest($1::text[], $2::text[]) AS x(id, reference) WHERE m.id = x.id`,
    [rows.map((r) => r.method_id), methods, account],
  );
}

export async function benchStripeRenewals(): Promise<Record<string, unknown>> {
  const server = await database();
  const url = await createDatabase(server.url, "billing_bench_renewals_stripe");
  process.env.DATABASE_URL = url;
  process.env.DATABASE_POOL_SIZE ??= String(WORKERS * 2 + 4);
  const standIn = await startStandIn();
  process.env.STRIPE_API_URL = standIn.url;
  process.env.STRIPE_SECRET_KEY = DEFAULT_ACCOUNT.secretKey;
  process.env.STRIPE_PUBLISHABLE_KEY = DEFAULT_ACCOUNT.publishableKey;
  const { applyMigrations } = await import("../../db/migrate.ts");
  await applyMigrations(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { EVENT_TYPES } = await import("../../events/catalogue.ts");
    for (let i = 0; i < DESTINATIONS; i++) {
      await client.query(
        `INSERT INTO notification_settings (id, description, destination, subscribed_events, endpoint_secret_key, traffic_source)
         VALUES (new_api_id('ntfset'), 'bench receiver', 'http://127.0.0.1:9/hook', $1, 'svc_ntfset_bench_secret', 'platform')`,
        [EVENT_TYPES.map((type) => type.name)],
      );
    }
    const due = new Date(Date.now() - 60_000);
    const seedStart = Date.now();
    await seedSubscriptions(client, COUNT, due);
    const { hostname, port } = new URL(standIn.url);
    const stripe = new Stripe(DEFAULT_ACCOUNT.secretKey, { host: hostname, port: Number(port), protocol: "http" });
    const account = (await stripe.accounts.retrieveCurrent()).id;
    await linkStripeMethods(client, stripe, account);
    await client.query("ANALYZE");
    console.log(
      `\nSeeded ${COUNT} subscriptions with Stripe cards, due at once, in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const standInCpu = () => procStat(standIn.child.pid as number)?.seconds ?? 0;
    const standInBefore = standInCpu();
    const run = await timedSweeps(client, WORKERS);
    const stripeCpu = standInCpu() - standInBefore;
    const { renewed, seconds, rssBefore, rssAfter } = run;
    const { rows } = await client.query<{ status: string; n: string }>(
      "SELECT status, count(*) AS n FROM transactions WHERE origin = 'subscription_recurring' GROUP BY status",
    );
    const byStatus = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    const [attempts] = (
      await client.query<{ settled: string; unsettled: string }>(
        "SELECT count(*) FILTER (WHERE settled_at IS NOT NULL) AS settled, count(*) FILTER (WHERE settled_at IS NULL) AS unsettled FROM payment_attempts",
      )
    ).rows;
    const result = {
      subscriptions: COUNT,
      workers: WORKERS,
      destinations: DESTINATIONS,
      stripe_concurrency: Number(process.env.BILLING_STRIPE_CONCURRENCY ?? 32),
      renewals: renewed,
      transactions_by_status: byStatus,
      attempts_settled: Number(attempts!.settled),
      attempts_unsettled: Number(attempts!.unsettled),
      seconds,
      renewals_per_second: renewed / seconds,
      node_cpu_ms_per_renewal: run.nodeCpuMicros / 1000 / renewed,
      postgres_cpu_ms_per_renewal: (run.pgCpuSeconds * 1000) / renewed,
      stand_in_cpu_ms_per_renewal: (stripeCpu * 1000) / renewed,
      rss_before_mb: rssBefore / 1e6,
      rss_after_mb: rssAfter / 1e6,
      rss_peak_by_quarter_mb: run.rssPeakByQuarterMb,
    };
    console.log(
      `Renewed ${renewed} subscriptions through Stripe (transactions ${JSON.stringify(byStatus)}; attempts ` +
        `${attempts!.settled} settled, ${attempts!.unsettled} unsettled) in ${seconds.toFixed(1)} s: ` +
        `${result.renewals_per_second.toFixed(0)} renewals/s with ${WORKERS} workers; CPU per renewal: ` +
        `Node ${result.node_cpu_ms_per_renewal.toFixed(2)} ms, PostgreSQL ${result.postgres_cpu_ms_per_renewal.toFixed(2)} ms, ` +
        `stand-in ${result.stand_in_cpu_ms_per_renewal.toFixed(2)} ms; RSS ${result.rss_before_mb.toFixed(0)} MB before, ` +
        `peak by quarter ${result.rss_peak_by_quarter_mb.map((mb) => mb.toFixed(0)).join(", ")} MB, after ${result.rss_after_mb.toFixed(0)} MB`,
    );
    const { disconnectDb } = await import("../../db/connection.ts");
    await disconnectDb();
    return result;
  } finally {
    await client.end();
    standIn.child.kill("SIGTERM");
    await server.embedded?.stop();
  }
}
