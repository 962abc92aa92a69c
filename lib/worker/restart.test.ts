/**
 * A database restart under a running worker: its own PostgreSQL (embedded, so it can be stopped
 * and started without disturbing other tests) goes down mid-work and comes back; every
 * notification, those from before and after the restart, ends delivered.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { disconnectDb } from "../db/connection.ts";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../db/embedded.ts";
import { applyMigrations } from "../db/migrate.ts";
import { query } from "../db/sql.ts";
import { insertDestination } from "../dev/test/notifications.ts";
import { type Receiver, startReceiver } from "../dev/test/receiver.ts";
import { startWorker, type WorkerHandle } from "./worker.ts";

const DIR = path.resolve(import.meta.dirname, "../../.data/restart-test-postgres");
const PORT = 54341;
const testDatabaseUrl = process.env.DATABASE_URL;
let database: EmbeddedDatabase;
let receiver: Receiver;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  database = await startEmbeddedPostgres({ dir: DIR, port: PORT, database: "restart" });
  await applyMigrations(database.url);
  process.env.DATABASE_URL = database.url;
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  await disconnectDb();
  process.env.DATABASE_URL = testDatabaseUrl;
  await receiver.close();
  await database.stop().catch(() => {});
  rmSync(DIR, { recursive: true, force: true });
});

async function insertEvents(from: number, count: number): Promise<void> {
  await query(
    `INSERT INTO events (id, event_type, entity_id, data)
     SELECT new_api_id('evt'), 'customer.created', 'ctm_r' || g, json_build_object('id', 'ctm_r' || g)
     FROM generate_series($1::int, $1::int + $2::int - 1) g`,
    [from, count],
  );
}

it("every notification is delivered across a restart of the database", async () => {
  const destination = await insertDestination(receiver.url, ["customer.created"]);
  // A slow destination, so that work is in flight when the database goes away.
  receiver.respond(() => ({ status: 200, delayMs: 100 }));
  let worker: WorkerHandle | undefined = await startWorker({
    connectionString: database.url,
    concurrency: 4,
    heartbeatMs: 200,
    staleAfterMs: 1_500,
    maxJobMs: 5_000,
  });
  try {
    await insertEvents(1, 30);
    await receiver.waitFor(3);
    await database.stop();
    await new Promise((r) => setTimeout(r, 1_500));
    database = await startEmbeddedPostgres({ dir: DIR, port: PORT, database: "restart" });
    expect(database.url).toContain(`:${PORT}/`);
    // The pool (this process's, which the worker shares) drops the connections the restart cut
    // and opens new ones: nothing to reset.
    await insertEvents(31, 30);
    const deadline = Date.now() + 30_000;
    let left = -1;
    while (Date.now() < deadline) {
      const [row] = await query<{ n: number }>(
        "SELECT count(*)::int AS n FROM notifications WHERE notification_setting_id = $1 AND status <> 'delivered'",
        [destination.id],
      );
      left = row!.n;
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (left !== 0) {
      console.log(await query("SELECT status, times_attempted, count(*) FROM notifications GROUP BY 1, 2"));
      console.log(
        await query("SELECT id, task_identifier, attempts, locked_by, run_at, last_error FROM graphile_worker.jobs"),
      );
    }
    expect(left, "notifications not delivered").toBe(0);
    const { n } = (await query<{ n: number }>("SELECT count(*)::int AS n FROM notifications"))[0]!;
    expect(n).toBe(60);
    const delivered = new Set(receiver.received.map((r) => JSON.parse(r.body).notification_id));
    expect(delivered.size).toBe(60);
  } finally {
    await worker?.stop();
    worker = undefined;
  }
}, 120_000);
