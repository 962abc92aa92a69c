import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { parseDuration } from "../config.ts";
import { PrismaClient } from "./generated/prisma/client.ts";

interface Connection {
  url: string;
  pool: pg.Pool;
  /** Made on first use: the API's processes never need one. */
  client?: PrismaClient;
}

const globalForDb = globalThis as unknown as { __billingDb?: Connection };

/**
 * Connections a process opens at most (DATABASE_POOL_SIZE, default 10): every database connection
 * of a web or worker process comes from its one pool, graphile-worker's included (it is given this
 * pool: lib/worker/worker.ts), so P processes open at most P × DATABASE_POOL_SIZE. README,
 * "Running several processes", has the sizing rule.
 */
export function poolSize(): number {
  const text = process.env.DATABASE_POOL_SIZE?.trim() || "10";
  const size = Number(text);
  if (!Number.isInteger(size) || size < 1) {
    throw new Error(`DATABASE_POOL_SIZE must be a whole number of connections of at least 1, not "${text}"`);
  }
  return size;
}

/**
 * How long a request waits for a connection (a free one of the pool, or a new one to be made)
 * before it gives up with 503 service_unavailable (DATABASE_POOL_TIMEOUT, default 10 s; `0` or
 * `off`: for ever). Without it, a process whose pool is taken by slow work, or a database that
 * accepts no connection, would hold every request until the client itself gives up.
 */
export function poolTimeoutMs(): number {
  const text = process.env.DATABASE_POOL_TIMEOUT?.trim().toLowerCase() || "10s";
  return text === "off" ? 0 : parseDuration(text);
}

/**
 * The `application_name` of our connections, as pg_stat_activity shows them: PGAPPNAME, which the
 * command line sets per process kind (`billing-web`, `billing-worker`, `billing-cli`), else
 * `billing-web`. An `application_name` in DATABASE_URL wins over both.
 */
export function applicationName(): string {
  return process.env.PGAPPNAME || "billing-web";
}

/** A pool on `url` with the process's settings (size, wait, application name). */
export function newPool(url: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize(),
    connectionTimeoutMillis: poolTimeoutMs(),
    application_name: applicationName(),
  });
  // An idle connection dropped by the server (a restart) is replaced on next use.
  pool.on("error", () => {});
  // A connection lost while checked out between two statements (pg emits `error` on the client
  // then): its next statement fails ("not queryable"), answered 503, instead of the event being
  // unhandled and ending the process.
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/**
 * One pg pool per process on DATABASE_URL, created on first use (so tests and the CLI can choose
 * the database first) and kept on globalThis across hot reloads in development. Every API read and
 * write is SQL on this pool (lib/db/sql.ts); the Prisma client runs on the same pool through its
 * driver adapter for the admin paths only (the CLI, the demo seed, test helpers); the background
 * worker runs on it too.
 */
function connection(): Connection {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const current = globalForDb.__billingDb;
  if (current && current.url === url) return current;
  // Another database (tests move between them): the old pool's connections are closed.
  if (current) void current.pool.end().catch(() => {});
  globalForDb.__billingDb = { url, pool: newPool(url) };
  return globalForDb.__billingDb;
}

/** The Prisma client, for admin paths only (the CLI, the demo seed, test helpers): never on the API's data path. */
export function db(): PrismaClient {
  const current = connection();
  current.client ??= new PrismaClient({ adapter: new PrismaPg(current.pool) });
  return current.client;
}

/** The pg pool under it, for lib/db/sql.ts and the worker. */
export function pool(): pg.Pool {
  return connection().pool;
}

export async function disconnectDb(): Promise<void> {
  const current = globalForDb.__billingDb;
  globalForDb.__billingDb = undefined;
  if (current) {
    await current.client?.$disconnect();
    await current.pool.end();
  }
}
