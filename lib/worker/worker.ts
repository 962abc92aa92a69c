/**
 * The background worker: graphile-worker (a PostgreSQL job queue) running our jobs (declared in
 * lib/events/jobs/, one file each; their handlers in lib/worker/tasks.ts). It runs inside
 * the web process by default (instrumentation.ts) and as its own process with
 * `npm run --silent cli -- worker`; any number of either share one database. The queue locks each
 * job for one worker pool, so a notification is not delivered twice in normal operation.
 *
 * Crashed workers: graphile-worker frees a dead pool's locked jobs only after 4 hours. Each pool
 * here writes a heartbeat every few seconds, and every pool sweeps: jobs locked by a pool whose
 * heartbeat is older than `staleAfterMs` are unlocked (forceUnlockWorkers) and run again elsewhere.
 *
 * Connections: graphile-worker runs on the process's one pool (lib/db/connection.ts), the pool our
 * jobs' SQL uses too, so DATABASE_POOL_SIZE bounds everything a process opens, web and worker
 * alike. Of that pool graphile-worker keeps one connection for good, for LISTEN (new jobs wake the
 * worker at once); the rest it takes for a statement at a time (fetch a job, complete a batch),
 * never across a job's run, and our jobs hold none while they wait on the network (a webhook's
 * POST). So concurrency may exceed the pool: jobs in flight mostly wait on the network.
 */
import { EventEmitter } from "node:events";
import { Logger, makeWorkerUtils, type Runner, run, type TaskList, type WorkerUtils } from "graphile-worker";
import type pg from "pg";
import { config } from "../config.ts";
import { newPool, pool as processPool } from "../db/connection.ts";
import { CRONTAB, WORKER_JOBS } from "./tasks.ts";

export interface WorkerHandle {
  /** The worker pool's ID (what it locks jobs with). */
  readonly id: string | undefined;
  /** Resolves when the worker stops (stop(), a signal, or a fatal error). */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

export interface WorkerOptions {
  /** Another database than DATABASE_URL's (a pool of its own then, of the same size). */
  connectionString?: string;
  concurrency?: number;
  /** Stop gracefully on SIGINT/SIGTERM. */
  handleSignals?: boolean;
  heartbeatMs?: number;
  staleAfterMs?: number;
  maxJobMs?: number;
}

/**
 * graphile-worker's logger without its info chatter (warnings and errors still print), nor its
 * warning that the pool is smaller than the concurrency: by design here (see the top).
 */
function workerLogger(): Logger {
  return new Logger(() => (level, message) => {
    if (level !== "error" && level !== "warning") return;
    if (message.includes("smaller than concurrency")) return;
    console.error(`[worker] ${message}`);
  });
}

/**
 * The fewest connections a worker can run with: the one graphile-worker keeps for LISTEN and one
 * for everything else (a simulation run holds a session lock on one and writes on another: give
 * workers that run many at once more).
 */
export const MIN_WORKER_POOL_SIZE = 2;

/** Each job's task, by its id. */
const taskList: TaskList = Object.fromEntries(WORKER_JOBS.map((job) => [job.id, job.task]));

/**
 * Unlocks jobs that can no longer finish: those held by pools whose heartbeat is stale (crashed or
 * cut off), and those locked longer than any task takes (`maxJobMs`), which a live pool lost track
 * of when the database went away mid-job. Returns the dead pools' IDs.
 */
export async function sweepDeadWorkers(
  pool: pg.Pool,
  utils: WorkerUtils,
  staleAfterMs: number,
  maxJobMs: number = config.worker.maxJobMs,
): Promise<string[]> {
  const { rows } = await pool.query<{ locked_by: string }>(
    `SELECT DISTINCT j.locked_by FROM graphile_worker.jobs j
     WHERE j.locked_by IS NOT NULL AND j.locked_at < now() - $1 * interval '1 millisecond'
       AND NOT EXISTS (SELECT 1 FROM worker_heartbeats h
                       WHERE h.id = j.locked_by AND h.last_seen_at > now() - $1 * interval '1 millisecond')`,
    [staleAfterMs],
  );
  const dead = rows.map((row) => row.locked_by);
  if (dead.length > 0) {
    await utils.forceUnlockWorkers(dead);
    console.error(`[worker] unlocked the jobs of ${dead.length} stopped worker(s): ${dead.join(", ")}`);
  }
  // graphile-worker itself frees such jobs only after 4 hours; its public API unlocks whole pools,
  // so this one statement reaches into its jobs table.
  const stuck = await pool.query(
    `UPDATE graphile_worker._private_jobs SET locked_at = NULL, locked_by = NULL
     WHERE locked_at < now() - $1 * interval '1 millisecond'`,
    [maxJobMs],
  );
  if (stuck.rowCount) console.error(`[worker] unlocked ${stuck.rowCount} job(s) locked past ${maxJobMs} ms`);
  await pool.query("DELETE FROM worker_heartbeats WHERE last_seen_at < now() - interval '1 day'");
  return dead;
}

export async function startWorker(options: WorkerOptions = {}): Promise<WorkerHandle> {
  // DATABASE_DIRECT_URL, when set, is PostgreSQL itself while DATABASE_URL goes through a pooler
  // in transaction mode, where LISTEN and session locks do not work (README, "Running several
  // processes"): a worker in a web process then opens a pool of its own on it.
  const connectionString = options.connectionString ?? (process.env.DATABASE_DIRECT_URL || config.databaseUrl);
  const concurrency = options.concurrency ?? config.worker.concurrency;
  const heartbeatMs = options.heartbeatMs ?? config.worker.heartbeatMs;
  const staleAfterMs = options.staleAfterMs ?? config.worker.staleAfterMs;
  const maxJobMs = options.maxJobMs ?? config.worker.maxJobMs;
  // The process's pool (see the top), unless another database is asked for. Ours to end only then.
  const ownPool = connectionString !== process.env.DATABASE_URL;
  const pool = ownPool ? newPool(connectionString) : processPool();
  if (pool.options.max < MIN_WORKER_POOL_SIZE) {
    if (ownPool) await pool.end();
    throw new Error(
      `DATABASE_POOL_SIZE is ${pool.options.max}: a process that runs the worker needs at least ${MIN_WORKER_POOL_SIZE} connections (one stays on LISTEN for new jobs).`,
    );
  }
  // A dropped connection (database restart) must not crash the process: the pool reconnects.
  let poolId: string | undefined;
  let runner: Runner | undefined;
  let stopped = false;
  /** Runners already told to stop (each is recycled once). */
  const recycled = new WeakSet<Runner>();
  /** Wakes `supervise` when its runner is recycled. */
  let wake: (() => void) | undefined;
  // graphile-worker's runner does not always end when the database restarts under it: it can live on
  // with its job loop idle (seen in lib/worker/restart.test.ts about half the time), and its stop()
  // then may never settle either. So a lost connection recycles the runner: it is told to stop, and
  // `supervise` starts a new one once the database answers again, without waiting for the old one
  // to finish stopping (a stuck one holds no job lock for long: the sweep frees what it held).
  const recycle = () => {
    if (stopped || !runner || recycled.has(runner)) return;
    recycled.add(runner);
    runner.stop().catch(() => {});
    wake?.();
  };
  const lost = (error: Error) => {
    console.error(`[worker] database connection lost: ${error.message}`);
    recycle();
  };
  // The listeners come off the pool when the worker stops (a shared pool lives on).
  const watched = new Set<pg.PoolClient>();
  const watch = (client: pg.PoolClient) => {
    watched.add(client);
    client.on("error", lost);
    client.once("end", () => watched.delete(client));
  };
  pool.on("error", lost);
  pool.on("connect", watch);
  const unwatch = () => {
    pool.removeListener("error", lost);
    pool.removeListener("connect", watch);
    for (const client of watched) client.removeListener("error", lost);
    watched.clear();
  };
  const utils = await makeWorkerUtils({ pgPool: pool, logger: workerLogger() }).catch(async (error: unknown) => {
    unwatch();
    if (ownPool) await pool.end().catch(() => {});
    throw error;
  });

  const beat = async () => {
    if (!poolId) return;
    await pool.query(
      `INSERT INTO worker_heartbeats (id, last_seen_at) VALUES ($1, now())
       ON CONFLICT (id) DO UPDATE SET last_seen_at = now()`,
      [poolId],
    );
  };
  const safely = (fn: () => Promise<unknown>) => () => {
    fn().catch((error: Error) => console.error(`[worker] ${error.message}`));
  };

  const startRunner = async (): Promise<Runner> => {
    const events = new EventEmitter() as Runner["events"];
    events.on("pool:create", ({ workerPool }) => {
      poolId = workerPool.id;
      safely(beat)();
    });
    return run({
      pgPool: pool,
      taskList,
      crontab: CRONTAB,
      logger: workerLogger(),
      // Signals are ours (below): a runner stopped by a signal must not be restarted.
      noHandleSignals: true,
      events,
      preset: {
        worker: {
          concurrentJobs: concurrency,
          // Jobs wake the worker through LISTEN/NOTIFY; polling is only the fallback.
          pollInterval: 1_000,
          completeJobBatchDelay: 1,
          failJobBatchDelay: 1,
        },
      },
    });
  };

  runner = await startRunner();

  /**
   * graphile-worker's runner ends when it loses the database for good (a restart of PostgreSQL):
   * start a new one, retrying until the database is back. Jobs the old pool held locked are freed
   * by the sweep once its heartbeat is stale.
   */
  const supervise = async () => {
    let backoff = 500;
    while (!stopped) {
      const current = runner;
      try {
        await Promise.race([
          current?.promise,
          new Promise<void>((resolve) => {
            wake = resolve;
            if (current && recycled.has(current)) resolve();
          }),
        ]);
      } catch (error) {
        console.error(`[worker] runner stopped: ${(error as Error).message}`);
      }
      wake = undefined;
      runner = undefined;
      if (stopped) return;
      await new Promise((r) => setTimeout(r, backoff));
      if (stopped) return;
      try {
        runner = await startRunner();
        console.error("[worker] runner restarted");
        backoff = 500;
      } catch (error) {
        console.error(`[worker] cannot restart yet: ${(error as Error).message}`);
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  };

  const heartbeat = setInterval(safely(beat), heartbeatMs);
  const sweep = setInterval(
    safely(() => sweepDeadWorkers(pool, utils, staleAfterMs, maxJobMs)),
    Math.max(1_000, Math.floor(staleAfterMs / 2)),
  );
  heartbeat.unref();
  sweep.unref();

  const done = supervise().finally(async () => {
    clearInterval(heartbeat);
    clearInterval(sweep);
    if (poolId) await pool.query("DELETE FROM worker_heartbeats WHERE id = $1", [poolId]).catch(() => {});
    await Promise.resolve(utils.release()).catch(() => {});
    unwatch();
    // (A stuck runner may hold a client for ever: don't wait for it.)
    if (ownPool) await Promise.race([pool.end().catch(() => {}), new Promise((r) => setTimeout(r, 5_000).unref())]);
  });
  const stop = async () => {
    stopped = true;
    // A runner stuck since a database restart may never finish stopping (see recycle): wait a while,
    // then let `supervise` end anyway.
    await Promise.race([runner?.stop().catch(() => {}), new Promise((r) => setTimeout(r, 5_000).unref())]);
    wake?.();
    await done.catch(() => {});
  };
  if (options.handleSignals) {
    process.once("SIGINT", () => void stop());
    process.once("SIGTERM", () => void stop());
  }
  return {
    get id() {
      return poolId;
    },
    done,
    stop,
  };
}
