/**
 * The worker for real: graphile-worker pools in this process and in child processes, on the test
 * database, delivering to a local receiver. Two workers share 1,000 deliveries without a duplicate;
 * a worker killed mid-delivery loses nothing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { query } from "../db/sql.ts";
import { insertDestination, makeChange, notificationsOf } from "../dev/test/notifications.ts";
import { type Receiver, startReceiver } from "../dev/test/receiver.ts";
import { startWorker } from "./worker.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
let receiver: Receiver;
const children: ChildProcess[] = [];

beforeEach(async () => {
  receiver = await startReceiver();
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  await receiver.close();
});

/** Starts a worker process and resolves once it is running. */
async function spawnWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
  // Node itself with tsx as a loader (not the tsx CLI, which would run the worker in a grandchild
  // that SIGKILL does not reach).
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "lib/dev/test/worker-process.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
  });
  return child;
}

async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `count` customer.created events in one statement (the trigger fans them out). */
async function insertEvents(count: number): Promise<void> {
  await query(
    `INSERT INTO events (id, event_type, entity_id, data)
     SELECT new_api_id('evt'), 'customer.created', 'ctm_' || lpad(g::text, 26, '0'),
            json_build_object('id', 'ctm_' || lpad(g::text, 26, '0'), 'email', 'bulk' || g || '@example.com')
     FROM generate_series(1, $1::int) g`,
    [count],
  );
}

async function undelivered(settingId: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    "SELECT count(*)::int AS n FROM notifications WHERE notification_setting_id = $1 AND status <> 'delivered'",
    [settingId],
  );
  return row!.n;
}

function notificationIds(): string[] {
  return receiver.received.map((r) => JSON.parse(r.body).notification_id as string);
}

describe("worker", () => {
  it("an in-process worker delivers a committed change within moments", async () => {
    const destination = await insertDestination(receiver.url);
    const worker = await startWorker({ concurrency: 2 });
    try {
      const started = Date.now();
      await makeChange();
      await receiver.waitFor(1);
      expect(Date.now() - started).toBeLessThan(5_000);
      await until(async () => (await undelivered(destination.id)) === 0);
      const [notification] = await notificationsOf(destination.id);
      expect(notification!.status).toBe("delivered");
      expect(notification!.times_attempted).toBe(1);
    } finally {
      await worker.stop();
    }
  });

  it("retries a failed delivery on schedule with the real queue", async () => {
    process.env.BILLING_WEBHOOK_RETRY_SCHEDULE = "1s";
    const destination = await insertDestination(receiver.url);
    receiver.respond((nth) => (nth === 0 ? { status: 500 } : { status: 200 }));
    const worker = await startWorker({ concurrency: 2 });
    try {
      await makeChange();
      await receiver.waitFor(2, 15_000);
      await until(async () => (await undelivered(destination.id)) === 0);
      const [notification] = await notificationsOf(destination.id);
      expect(notification!.times_attempted).toBe(2);
      expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(850);
    } finally {
      delete process.env.BILLING_WEBHOOK_RETRY_SCHEDULE;
      await worker.stop();
    }
  });

  it("two worker processes deliver 1,000 notifications with no duplicates", async () => {
    const destination = await insertDestination(receiver.url, ["customer.created"]);
    await Promise.all([spawnWorker(), spawnWorker()]);
    await insertEvents(1_000);
    await receiver.waitFor(1_000, 90_000);
    await until(async () => (await undelivered(destination.id)) === 0, 30_000);
    // A moment more, in case a duplicate were still on its way.
    await new Promise((r) => setTimeout(r, 500));
    const ids = notificationIds();
    expect(ids).toHaveLength(1_000);
    expect(new Set(ids).size).toBe(1_000);
    const { pools } = (
      await query<{ pools: number }>("SELECT count(DISTINCT id)::int AS pools FROM worker_heartbeats")
    )[0]!;
    expect(pools).toBe(2);
  }, 120_000);

  it("a worker killed mid-delivery loses nothing: another takes its jobs over", async () => {
    const destination = await insertDestination(receiver.url, ["customer.created"]);
    receiver.respond(() => ({ status: 200, delayMs: 400 }));
    const env = {
      BILLING_WORKER_HEARTBEAT: "300ms",
      BILLING_WORKER_STALE_AFTER: "2s",
      BILLING_WORKER_CONCURRENCY: "5",
    };
    const first = await spawnWorker(env);
    await insertEvents(40);
    await receiver.waitFor(3);
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    const { locked } = (
      await query<{ locked: number }>(
        "SELECT count(*)::int AS locked FROM graphile_worker.jobs WHERE locked_by IS NOT NULL",
      )
    )[0]!;
    expect(locked).toBeGreaterThan(0);

    await spawnWorker(env);
    await until(async () => (await undelivered(destination.id)) === 0, 60_000);
    const rows = await notificationsOf(destination.id);
    expect(rows).toHaveLength(40);
    expect(new Set(notificationIds())).toEqual(new Set(rows.map((r) => r.id)));
  }, 120_000);
});
