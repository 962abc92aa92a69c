import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.ts";

interface Connection {
  url: string;
  pool: pg.Pool;
  /** Made on first use: the API's processes never need one. */
  client?: PrismaClient;
}

const globalForDb = globalThis as unknown as { __billingDb?: Connection };

/** Size of each process's connection pool. Several web and worker processes share one server. */
const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? 10);

/**
 * One pg pool per process on DATABASE_URL, created on first use (so tests and the CLI can choose
 * the database first) and kept on globalThis across hot reloads in development. Every API read and
 * write is SQL on this pool (lib/db/sql.ts); the Prisma client runs on the same pool through its
 * driver adapter for the admin paths only (the CLI, the demo seed, test helpers).
 */
function connection(): Connection {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const current = globalForDb.__billingDb;
  if (current && current.url === url) return current;
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  pool.on("error", () => {}); // an idle connection dropped by the server is replaced on next use
  globalForDb.__billingDb = { url, pool };
  return globalForDb.__billingDb;
}

/** The Prisma client, for admin paths only (the CLI, the demo seed, test helpers): never on the API's data path. */
export function db(): PrismaClient {
  const current = connection();
  current.client ??= new PrismaClient({ adapter: new PrismaPg(current.pool) });
  return current.client;
}

/** The pg pool under it, for lib/db/sql.ts. */
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
