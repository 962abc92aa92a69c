/**
 * DATABASE_POOL_SIZE bounds every connection a worker process opens (lib/db/connection.ts,
 * lib/worker/worker.ts): the real `cli worker` command, with 20 deliveries in flight on a pool of 4,
 * never holds more than 4 connections, counted by the server (pg_stat_activity, by the
 * `application_name` the command line gives its connections), from its start (migrations
 * included) to the last delivery.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { query } from "../db/sql.ts";
import { insertDestination } from "../dev/test/notifications.ts";
import { type Receiver, startReceiver } from "../dev/test/receiver.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const POOL_SIZE = 4;
let child: ChildProcess | undefined;
let receiver: Receiver | undefined;

afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  child = undefined;
  await receiver?.close();
});

/** The worker process's connections to this database, as the server counts them. */
async function workerConnections(): Promise<number> {
  const [row] = await query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = 'billing-worker'`,
  );
  return row!.n;
}

it(`a worker process opens at most DATABASE_POOL_SIZE (${POOL_SIZE}) connections, with 20 deliveries in flight`, async () => {
  receiver = await startReceiver();
  // Slow answers, so that all 20 job slots are busy at once.
  receiver.respond(() => ({ status: 200, delayMs: 150 }));
  const destination = await insertDestination(receiver.url, ["customer.created"]);

  let most = 0;
  let sampling = true;
  const samples = (async () => {
    while (sampling) {
      most = Math.max(most, await workerConnections());
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  // Node with tsx as a loader, so that signals reach the worker itself.
  child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "lib/cli/main.ts"), "worker", "--concurrency", "20"],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_POOL_SIZE: String(POOL_SIZE), PGAPPNAME: "" },
      stdio: ["ignore", "inherit", "pipe"],
    },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child?.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${output}`)));
    child?.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("running")) resolve();
    });
  });

  await query(
    `INSERT INTO events (id, event_type, entity_id, data)
     SELECT new_api_id('evt'), 'customer.created', 'ctm_' || lpad(g::text, 26, '0'),
            json_build_object('id', 'ctm_' || lpad(g::text, 26, '0'))
     FROM generate_series(1, 200) g`,
  );
  const delivered = async () =>
    (
      await query<{ n: number }>(
        "SELECT count(*)::int AS n FROM notifications WHERE notification_setting_id = $1 AND status = 'delivered'",
        [destination.id],
      )
    )[0]!.n;
  const deadline = Date.now() + 120_000;
  while ((await delivered()) < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  sampling = false;
  await samples;

  expect(await delivered()).toBe(200);
  expect(most, "connections of the worker process").toBeLessThanOrEqual(POOL_SIZE);
  // It did use its pool (LISTEN and the deliveries' statements).
  expect(most).toBeGreaterThanOrEqual(2);
}, 180_000);
