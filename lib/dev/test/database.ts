/**
 * Test databases on a real PostgreSQL: DATABASE_URL's server when set (CI), otherwise an embedded
 * one. A template database gets the migrations once; each test file gets its own copy.
 */
import pg from "pg";

export const TEMPLATE_DB = "billing_test_template";

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

export async function createDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  await dropDatabase(serverUrl, name);
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  return withDatabase(serverUrl, name);
}
