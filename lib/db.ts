import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "./generated/prisma/client.ts";

const globalForDb = globalThis as unknown as { __billingDb?: { url: string; client: PrismaClient } };

/** Size of each process's connection pool. Several web and worker processes share one server. */
const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? 10);

/**
 * The Prisma client on the database of DATABASE_URL, created on first use (so tests and the CLI
 * can choose the database first) and kept on globalThis across hot reloads in development.
 */
export function db(): PrismaClient {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const current = globalForDb.__billingDb;
  if (current && current.url === url) return current.client;
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: POOL_SIZE }) });
  globalForDb.__billingDb = { url, client };
  return client;
}

export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Runs `fn` in one database transaction (every service change goes through here). */
export function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(fn, { maxWait: 10_000, timeout: 30_000 });
}

export async function disconnectDb(): Promise<void> {
  const current = globalForDb.__billingDb;
  globalForDb.__billingDb = undefined;
  if (current) await current.client.$disconnect();
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
