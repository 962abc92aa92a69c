/**
 * Webhook delivery benchmark: a worker process (`cli worker`) delivering to a local receiver.
 *   1. throughput: 5,000 events committed at once, fanned out to one destination; deliveries/s
 *      from the commit to the last delivery (target: at least 500/s);
 *   2. latency: changes committed one at a time at a steady pace; time from each commit to its
 *      arrival at the receiver, p50 and p99 (target: p50 under 200 ms).
 * DATABASE_URL names the server (a database `billing_bench_deliveries` is made on it); without it
 * an embedded PostgreSQL is used.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { database, generate, ROOT } from "../../cli/tasks.ts";
import { createDatabase } from "../test/database.ts";

const EVENTS = Number(process.env.BENCH_DELIVERIES ?? 5_000);
const PACED = Number(process.env.BENCH_PACED ?? 300);
const PACE_PER_SECOND = Number(process.env.BENCH_PACE ?? 50);
const CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ?? "64";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function startWorker(url: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "lib/cli/main.ts"), "worker", "--concurrency", CONCURRENCY],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      if (text.includes("running")) resolve();
      else process.stderr.write(text);
    });
  });
  return child;
}

export async function benchDeliveries(): Promise<Record<string, number>> {
  await generate();
  const server = await database();
  const url = await createDatabase(server.url, "billing_bench_deliveries");
  const { applyMigrations } = await import("../../db/migrate.ts");
  await applyMigrations(url);

  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString());
      arrivals.set(body.data.id, performance.now());
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `INSERT INTO notification_settings (id, description, destination, subscribed_events, endpoint_secret_key, traffic_source)
     VALUES (new_api_id('ntfset'), 'bench receiver', $1, ARRAY['customer.created'], 'svc_ntfset_bench_secret', 'platform')`,
    [`http://127.0.0.1:${port}/hook`],
  );
  const worker = await startWorker(url);
  const results: Record<string, number> = {};
  const waitFor = async (count: number) => {
    const deadline = Date.now() + 300_000;
    while (arrivals.size < count) {
      if (Date.now() > deadline) throw new Error(`only ${arrivals.size} of ${count} deliveries arrived`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  try {
    console.log(`\nWebhook deliveries: one worker process (concurrency ${CONCURRENCY}) to a local receiver\n`);
    // Warm-up: connections, prepared statements, JIT.
    await client.query(
      `INSERT INTO events (id, event_type, entity_id, data)
       SELECT new_api_id('evt'), 'customer.created', 'ctm_warm' || g, json_build_object('id', 'ctm_warm' || g)
       FROM generate_series(1, 200) g`,
    );
    await waitFor(200);
    arrivals.clear();

    const started = performance.now();
    await client.query(
      `INSERT INTO events (id, event_type, entity_id, data)
       SELECT new_api_id('evt'), 'customer.created', 'ctm_bulk' || g, json_build_object('id', 'ctm_bulk' || g)
       FROM generate_series(1, $1::int) g`,
      [EVENTS],
    );
    const committed = performance.now();
    await waitFor(EVENTS);
    const last = Math.max(...arrivals.values());
    results.deliveriesPerSecond = EVENTS / ((last - committed) / 1000);
    console.log(
      `throughput: ${EVENTS} deliveries in ${((last - committed) / 1000).toFixed(2)} s after the commit ` +
        `(fan-out of the insert: ${(committed - started).toFixed(0)} ms) = ${results.deliveriesPerSecond.toFixed(0)} deliveries/s (target ≥ 500)`,
    );
    arrivals.clear();

    const commitTimes = new Map<string, number>();
    for (let i = 0; i < PACED; i++) {
      const tick = performance.now();
      const id = `ctm_paced${i}`;
      await client.query(
        `INSERT INTO events (id, event_type, entity_id, data)
         VALUES (new_api_id('evt'), 'customer.created', $1, json_build_object('id', $1::text))`,
        [id],
      );
      commitTimes.set(id, performance.now());
      const wait = 1000 / PACE_PER_SECOND - (performance.now() - tick);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await waitFor(PACED);
    const latencies = [...commitTimes].map(([id, at]) => (arrivals.get(id) ?? Number.NaN) - at).sort((a, b) => a - b);
    results.latencyP50 = percentile(latencies, 50);
    results.latencyP99 = percentile(latencies, 99);
    console.log(
      `latency: ${PACED} changes at ${PACE_PER_SECOND}/s, commit to arrival: p50 ${results.latencyP50.toFixed(1)} ms, ` +
        `p99 ${results.latencyP99.toFixed(1)} ms (target p50 < 200 ms)`,
    );
  } finally {
    try {
      process.kill(-worker.pid!, "SIGINT");
    } catch {}
    await new Promise((r) => worker.once("exit", r));
    await client.end();
    receiver.close();
    await server.embedded?.stop();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchDeliveries().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
