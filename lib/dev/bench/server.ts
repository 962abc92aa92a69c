/**
 * What the load benchmarks (lib/dev/bench/run.ts, lib/dev/bench/metrics.ts) share: a fresh bench database
 * with an API key holding every permission, `next start` (through `cli start`) on BENCH_PORT, and
 * an autocannon run that prints one line and returns its figures, among them the CPU time one request
 * cost the server and the bench's PostgreSQL (lib/dev/bench/cpu.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { PERMISSIONS } from "../../auth/permissions.ts";
import { buildIfStale, database, generate, ROOT } from "../../cli/tasks.ts";
import { createDatabase } from "../test/database.ts";
import { backendCpu, backendCpuSpent, groupCpuSeconds } from "./cpu.ts";

const PORT = Number(process.env.BENCH_PORT ?? 3200);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const BASE = `http://127.0.0.1:${PORT}`;

export interface Run {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  errors: number;
  non2xx: number;
  /** Responses received. */
  requests: number;
  /**
   * Server CPU (utime + stime of its process group) per request, in ms, less what the idle server
   * spends in that time (timers, the job queue's polling: measured once in withServer); null
   * outside withServer.
   */
  serverCpuMs: number | null;
  /** The bench database's PostgreSQL backends' CPU per request, in ms; null when not readable. */
  pgCpuMs: number | null;
}

/** The server under load and the bench's database client, while withServer runs. */
let measured: { pgid: number; client: pg.Client; idleCpuPerSecond: number } | null = null;

/** One autocannon run of `options.duration` seconds (default BENCH_SECONDS) on `options.path`. */
export async function load(
  name: string,
  options: Partial<autocannon.Options> & { path: string },
  key?: string,
  connections = CONNECTIONS,
): Promise<Run> {
  const startedAt = performance.now();
  const cpuBefore = measured ? groupCpuSeconds(measured.pgid) : null;
  const pgBefore = measured ? await backendCpu(measured.client) : null;
  const result = await autocannon({
    url: `${BASE}${options.path}`,
    connections,
    duration: SECONDS,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "content-type": "application/json" },
    ...options,
  });
  const cpuAfter = measured ? groupCpuSeconds(measured.pgid) : null;
  const idle = measured ? (measured.idleCpuPerSecond * (performance.now() - startedAt)) / 1000 : 0;
  const pgAfter = measured ? await backendCpu(measured.client) : null;
  const requests = result.requests.total;
  const perRequestMs = (seconds: number | null) =>
    seconds === null || requests === 0 ? null : (seconds * 1000) / requests;
  const pgSpent = backendCpuSpent(pgBefore, pgAfter);
  const run: Run = {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    errors: result.errors,
    non2xx: result.non2xx,
    requests,
    serverCpuMs: perRequestMs(cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore - idle),
    pgCpuMs: perRequestMs(pgSpent),
  };
  const ms = (value: number | null) => (value === null ? "   n/a" : value.toFixed(3).padStart(6));
  console.log(
    `${name.padEnd(52)} ${run.rps.toFixed(0).padStart(7)} req/s   p50 ${run.p50.toFixed(1).padStart(6)} ms   p99 ${run.p99
      .toFixed(1)
      .padStart(6)} ms   mean ${run.mean.toFixed(1).padStart(6)} ms   non-2xx ${run.non2xx}   CPU/req server ${ms(
      run.serverCpuMs,
    )} ms, pg ${ms(run.pgCpuMs)} ms`,
  );
  return run;
}

/**
 * Builds the app (into its own folder, so a benchmark never disturbs a build in use) if stale, and
 * makes the database `name` (after BENCH_DATABASE_PREFIX) afresh on the DATABASE_URL server (or an embedded one), migrated, with
 * an API key holding every permission, and a client connected to it (for seeding). DATABASE_URL is
 * pointed at the new database. Hand the result to withServer, which closes it all.
 */
export async function prepareBench(name: string) {
  // BENCH_DATABASE_PREFIX: benches of several checkouts on one server each get their own databases.
  name = `${process.env.BENCH_DATABASE_PREFIX ?? ""}${name}`;
  process.env.NEXT_DIST_DIR ??= ".next-bench";
  await generate();
  await buildIfStale();
  const server = await database();
  const url = await createDatabase(server.url, name);
  process.env.DATABASE_URL = url;
  const { applyMigrations } = await import("../../db/migrate.ts");
  await applyMigrations(url);
  const { createApiKey } = await import("../../services/api-keys.ts");
  const { disconnectDb } = await import("../../db/connection.ts");
  const key = (await createApiKey({ name: "bench", permissions: [...PERMISSIONS] })).key;
  await disconnectDb();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { server, url, key, client };
}

/**
 * Runs `body` against `cli start` on the bench database once the server answers; then stops the
 * server, closes the bench's client and stops an embedded database server.
 */
export async function withServer<T>(
  bench: Awaited<ReturnType<typeof prepareBench>>,
  body: () => Promise<T>,
): Promise<T> {
  const child = startServer(bench.url);
  try {
    await waitForServer();
    // `detached`: the server's processes form the process group child.pid.
    measured = { pgid: child.pid!, client: bench.client, idleCpuPerSecond: await idleCpuPerSecond(child.pid!) };
    return await body();
  } finally {
    measured = null;
    await stopServer(child);
    await bench.client.end();
    await bench.server.embedded?.stop();
  }
}

/** The CPU seconds per second the server's process group spends with no request, over 3 s. */
async function idleCpuPerSecond(pgid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 1_000)); // past the first answer's aftermath
  const before = groupCpuSeconds(pgid);
  const startedAt = performance.now();
  await new Promise((r) => setTimeout(r, 3_000));
  const rate = (groupCpuSeconds(pgid) - before) / ((performance.now() - startedAt) / 1000);
  console.log(`Idle server: ${(rate * 1000).toFixed(1)} ms of CPU per second (left out of CPU per request)`);
  return rate;
}

/** `cli start` on BENCH_PORT against `url`, in its own process group; see waitForServer. */
function startServer(url: string): ChildProcess {
  return spawn(
    path.join(ROOT, "node_modules/.bin/tsx"),
    [path.join(ROOT, "lib/cli/main.ts"), "start", "--port", String(PORT)],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: url,
        BILLING_OWNER_PASSWORD: "bench-password-unused",
        // One load generator sends thousands of requests a minute from one address: the limiter
        // stays on (its cost is part of every request measured) with limits out of reach.
        BILLING_RATE_LIMIT: process.env.BILLING_RATE_LIMIT ?? "1000000000",
        BILLING_RATE_LIMIT_PREVIEW: process.env.BILLING_RATE_LIMIT_PREVIEW ?? "1000000000",
      },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    },
  );
}

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server did not start");
}

/** Stops the server's whole process group and waits for it to exit. */
async function stopServer(child: ChildProcess): Promise<void> {
  try {
    process.kill(-child.pid!, "SIGINT");
  } catch {}
  await new Promise((r) => child.once("exit", r));
}
