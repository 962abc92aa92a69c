import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "./generated/prisma/client.ts";

interface Connection {
  url: string;
  pool: pg.Pool;
  client: PrismaClient;
}

const globalForDb = globalThis as unknown as { __billingDb?: Connection };

/** Size of each process's connection pool. Several web and worker processes share one server. */
const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? 10);

/**
 * One pg pool per process on DATABASE_URL, created on first use (so tests and the CLI can choose
 * the database first) and kept on globalThis across hot reloads in development. Prisma runs on
 * the same pool through its driver adapter; lib/db/sql.ts uses it directly on hot paths.
 */
function connection(): Connection {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const current = globalForDb.__billingDb;
  if (current && current.url === url) return current;
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  pool.on("error", () => {}); // an idle connection dropped by the server is replaced on next use
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  globalForDb.__billingDb = { url, pool, client };
  return globalForDb.__billingDb;
}

/** The Prisma client. */
export function db(): PrismaClient {
  return connection().client;
}

/** The pg pool under it, for lib/db/sql.ts. */
export function pool(): pg.Pool {
  return connection().pool;
}

export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Runs `fn` in one database transaction through Prisma. */
export function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(fn, { maxWait: 10_000, timeout: 30_000 });
}

export async function disconnectDb(): Promise<void> {
  const current = globalForDb.__billingDb;
  globalForDb.__billingDb = undefined;
  if (current) {
    await current.client.$disconnect();
    await current.pool.end();
  }
}

/**
 * A JSON column value from an API value: undefined leaves the column as it is, null writes SQL
 * NULL (Prisma needs a marker for that), an object is stored as given.
 */
export function json(value: Record<string, unknown> | unknown[] | null | undefined) {
  if (value === undefined) return undefined;
  if (value === null) return Prisma.DbNull;
  return value as Prisma.InputJsonValue;
}
