/**
 * The SQL functions and triggers in prisma/functions and prisma/triggers (lib/db/migrate.ts,
 * applyRepeatables): the files are what a migrated database runs, a changed file is applied on the
 * next migrate and an unchanged one is not, and a database migrated before the files existed is
 * brought to them.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, dropDatabase } from "../dev/test/database.ts";
import {
  applyMigrations,
  applyRepeatables,
  applyVersionedMigrations,
  PRISMA_DIR,
  REPEATABLE_DIRS,
  repeatableFiles,
} from "./migrate.ts";

/** Every function and trigger of the public schema, as PostgreSQL prints its definition. */
async function definitions(client: pg.Client): Promise<Map<string, string>> {
  const { rows } = await client.query<{ key: string; definition: string }>(
    `SELECT 'functions/' || p.proname || ' ' || p.oid::regprocedure::text AS key, pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
     UNION ALL
     SELECT 'triggers/' || t.tgname || ' ' || c.relname, pg_get_triggerdef(t.oid)
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal
     ORDER BY 1`,
  );
  return new Map(rows.map((row) => [row.key, row.definition]));
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is set by the test setup");
  return url;
}

/** The migrated template's, before the tests below change this copy of it. */
let migratedDefinitions: Map<string, string>;

beforeAll(async () => {
  migratedDefinitions = await withClient(databaseUrl(), definitions);
});

describe("the files are the database's functions and triggers", () => {
  it("every function and trigger of a migrated database has its file, and the file's definition", async () => {
    await withClient(databaseUrl(), async (client) => {
      const migrated = await definitions(client);
      // Each object in the file named after it, and no file creating something a migration lacks.
      const objects = [...migrated.keys()].map((key) => `${key.split(" ")[0]}.sql`);
      expect(objects.sort()).toEqual(repeatableFiles().map((file) => file.name));

      // Rebuilt from the files alone, in the migrator's order, they are exactly what the
      // migrations and the files left: no migration redefined a function behind its file's back.
      await client.query("BEGIN");
      try {
        const { rows } = await client.query<{ signature: string }>(
          `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
            WHERE p.pronamespace = 'public'::regnamespace
              AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
        );
        await client.query("SET LOCAL client_min_messages = warning");
        for (const { signature } of rows) await client.query(`DROP FUNCTION ${signature} CASCADE`);
        expect((await definitions(client)).size).toBe(0);
        await client.query("SET LOCAL check_function_bodies = off");
        for (const file of repeatableFiles()) await client.query(file.sql);
        expect(Object.fromEntries(await definitions(client))).toEqual(Object.fromEntries(migrated));
      } finally {
        await client.query("ROLLBACK");
      }
    });
  });

  it("the migrated template recorded every file with its checksum", async () => {
    await withClient(databaseUrl(), async (client) => {
      const { rows } = await client.query<{ name: string; checksum: string }>(
        `SELECT "name", "checksum" FROM "_repeatable_sql" ORDER BY "name"`,
      );
      const files = repeatableFiles().map(({ name, checksum }) => ({ name, checksum }));
      expect(rows).toEqual(files.sort((a, b) => a.name.localeCompare(b.name)));
    });
  });
});

describe("applying the files", () => {
  let prismaDir: string;

  beforeAll(() => {
    prismaDir = mkdtempSync(path.join(tmpdir(), "repeatable-"));
    for (const dir of REPEATABLE_DIRS)
      cpSync(path.join(PRISMA_DIR, dir), path.join(prismaDir, dir), { recursive: true });
  });

  afterAll(() => rmSync(prismaDir, { recursive: true, force: true }));

  function editFile(name: string, edit: (sql: string) => string): void {
    const file = path.join(prismaDir, name);
    writeFileSync(file, edit(readFileSync(file, "utf8")));
  }

  async function appliedAt(client: pg.Client): Promise<Map<string, string>> {
    const { rows } = await client.query<{ name: string; applied_at: Date }>(
      `SELECT "name", "applied_at" FROM "_repeatable_sql"`,
    );
    return new Map(rows.map((row) => [row.name, row.applied_at.toISOString()]));
  }

  it("an unchanged file is not run again", async () => {
    expect(await applyRepeatables(databaseUrl(), repeatableFiles(prismaDir))).toEqual([]);
  });

  it("a changed file is applied on the next migrate, once, and the others are left alone", async () => {
    await withClient(databaseUrl(), async (client) => {
      const before = await appliedAt(client);
      editFile("functions/metrics_slot.sql", (sql) => sql.replace("AS $$\n", () => "AS $$\n  -- changed\n"));

      expect(await applyRepeatables(databaseUrl(), repeatableFiles(prismaDir))).toEqual(["functions/metrics_slot.sql"]);
      const { rows } = await client.query<{ source: string }>(
        `SELECT prosrc AS source FROM pg_proc WHERE proname = 'metrics_slot'`,
      );
      expect(rows).toEqual([{ source: expect.stringContaining("-- changed") }]);
      const after = await appliedAt(client);
      for (const [name, at] of before) {
        if (name !== "functions/metrics_slot.sql") expect(after.get(name), name).toBe(at);
      }
      expect(after.get("functions/metrics_slot.sql")).not.toBe(before.get("functions/metrics_slot.sql"));

      expect(await applyRepeatables(databaseUrl(), repeatableFiles(prismaDir))).toEqual([]);
    });
  });

  it("a trigger a migration dropped is created again from its unchanged file", async () => {
    await withClient(databaseUrl(), async (client) => {
      await client.query("DROP TRIGGER events_queue_emails ON events");
      expect(await applyRepeatables(databaseUrl(), repeatableFiles(prismaDir))).toEqual([
        "triggers/events_queue_emails.sql",
      ]);
      const { rows } = await client.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'events_queue_emails'`);
      expect(rows).toHaveLength(1);
    });
  });

  it("a function in any file order, checked all the same: a mistake fails the migrate and changes nothing", async () => {
    await withClient(databaseUrl(), async (client) => {
      const source = async () =>
        (await client.query<{ prosrc: string }>(`SELECT prosrc FROM pg_proc WHERE proname = 'metrics_minor'`)).rows;
      const before = await source();
      editFile("functions/metrics_minor.sql", (sql) => sql.replace("SELECT", "SELECT no_such_column,"));
      editFile("functions/metrics_slot.sql", (sql) => sql.replace("-- changed", "-- changed twice"));

      await expect(applyRepeatables(databaseUrl(), repeatableFiles(prismaDir))).rejects.toThrow(
        /metrics_minor\(text\): column "no_such_column" does not exist/,
      );
      expect(await source()).toEqual(before);
      const { rows } = await client.query<{ prosrc: string }>(
        `SELECT prosrc FROM pg_proc WHERE proname = 'metrics_slot'`,
      );
      expect(rows[0]?.prosrc).not.toContain("changed twice");
    });
  });
});

describe("a database migrated before the files existed", () => {
  const name = `billing_test_repeatable_${process.pid}`;
  const serverUrl = inject("serverUrl");

  afterAll(() => dropDatabase(serverUrl, name));

  it("is brought to the files' definitions by the next migrate", { timeout: 180_000 }, async () => {
    const url = await createDatabase(serverUrl, name);
    await applyVersionedMigrations(url);
    const files = repeatableFiles();

    expect(await applyMigrations(url)).toEqual(files.map((file) => file.name));

    const upgraded = await withClient(url, definitions);
    expect(Object.fromEntries(upgraded)).toEqual(Object.fromEntries(migratedDefinitions));
    expect(await applyMigrations(url)).toEqual([]);
  });
});
