/**
 * Prisma migrations without Prisma's native schema engine (unreachable here): the same engine,
 * compiled to WebAssembly (@prisma/schema-engine-wasm), driven over the `pg` driver adapter.
 * `applyMigrations` is what `prisma migrate deploy` does, and the folder stays in Prisma's own
 * format, so a user with the native engine can still run `prisma migrate deploy` on it; then it
 * applies the SQL functions and triggers kept in files of their own (`applyRepeatables`, below),
 * which `prisma migrate deploy` knows nothing of (docs/database.md).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { quietLogger } from "./queue-logger.ts";

export const PRISMA_DIR = path.resolve(import.meta.dirname, "../../prisma");
export const MIGRATIONS_DIR = path.join(PRISMA_DIR, "migrations");
export const SCHEMA_PATH = path.join(PRISMA_DIR, "schema.prisma");

type Engine = Awaited<ReturnType<typeof import("@prisma/schema-engine-wasm").SchemaEngine.new>>;

let wasmReady: Promise<typeof import("@prisma/schema-engine-wasm")> | undefined;

function loadWasm() {
  wasmReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm")), "schema_engine_bg.wasm");
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const module = await WebAssembly.compile(readFileSync(wasmPath));
    const instance = await WebAssembly.instantiate(module, {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start?: () => void };
    (bg as unknown as { __wbg_set_wasm(exports: WebAssembly.Exports): void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start?.();
    return bg as unknown as typeof import("@prisma/schema-engine-wasm");
  })();
  return wasmReady;
}

/**
 * @prisma/adapter-pg runs a migration script by splitting it on every ";", which breaks any
 * function body (`$$ ... ; ... $$`). PostgreSQL takes a whole multi-statement script in one simple
 * query, which also makes each migration atomic (one implicit transaction), as the native engine does.
 */
function wholeScripts(factory: PrismaPg, pool: pg.Pool): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapter.executeScript = async (script: string) => {
      await pool.query(script);
    };
    return adapter;
  };
  return factory;
}

async function withEngine<T>(connectionString: string, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const wasm = await loadWasm();
  const schema = readFileSync(SCHEMA_PATH, "utf8");
  // Our own pool, ended afterwards: the engine holds an advisory lock on its connection until
  // that connection closes, and a pool left idle would keep it (and the next migrator waiting).
  const pool = new pg.Pool({ connectionString, max: 2 });
  const adapter = bindMigrationAwareSqlAdapterFactory(wholeScripts(new PrismaPg(pool), pool));
  const engine = await wasm.SchemaEngine.new({ datamodels: [[SCHEMA_PATH, schema]] }, () => {}, adapter);
  try {
    return await fn(engine);
  } finally {
    engine.free();
    await pool.end();
  }
}

function migrationsList() {
  const dirs = existsSync(MIGRATIONS_DIR)
    ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: {
      path: "migration_lock.toml",
      content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok" as const, value: readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8") },
      },
    })),
  };
}

const NO_FILTER = { externalTables: [], externalEnums: [] };

/**
 * Applies every migration not yet applied, exactly as `prisma migrate deploy`, then the job
 * queue's own schema (graphile-worker keeps its migrations in the `graphile_worker` schema), then
 * the functions and triggers whose files changed. Returns the names of the Prisma migrations
 * applied, followed by those of the function and trigger files applied.
 */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const applied = await applyVersionedMigrations(connectionString);
  return [...applied, ...(await applyRepeatables(connectionString))];
}

/** The migrations alone, as a database deployed before the function files had them. */
export async function applyVersionedMigrations(connectionString: string): Promise<string[]> {
  const applied = await withEngine(connectionString, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: migrationsList(), filters: NO_FILTER });
    return out.appliedMigrationNames;
  });
  const { runMigrations } = await import("graphile-worker");
  await runMigrations({ connectionString, logger: quietLogger() });
  return applied;
}

/**
 * Repeatable migrations, as Flyway calls them: each SQL function and trigger has its current
 * definition in one file, prisma/functions/<function>.sql or prisma/triggers/<trigger>.sql, named
 * after what it creates. Migrations keep tables and data; a function changes by changing its file.
 * The functions come before the triggers that call them; each folder in the order of its names.
 */
export const REPEATABLE_DIRS = ["functions", "triggers"] as const;

export type RepeatableKind = (typeof REPEATABLE_DIRS)[number];

export interface RepeatableFile {
  /** The path under prisma/, e.g. `functions/new_api_id.sql`: its key in `_repeatable_sql`. */
  name: string;
  kind: RepeatableKind;
  /** The function or trigger it creates (the file's name without `.sql`). */
  object: string;
  sql: string;
  checksum: string;
}

export function repeatableFiles(prismaDir = PRISMA_DIR): RepeatableFile[] {
  return REPEATABLE_DIRS.flatMap((kind) => {
    const dir = path.join(prismaDir, kind);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((file) => file.endsWith(".sql"))
      .sort()
      .map((file) => {
        const sql = readFileSync(path.join(dir, file), "utf8");
        return {
          name: `${kind}/${file}`,
          kind,
          object: file.slice(0, -".sql".length),
          sql,
          checksum: createHash("sha256").update(sql).digest("hex"),
        };
      });
  });
}

/** Any number: it only has to differ from the other advisory locks taken on the database. */
const REPEATABLE_LOCK = 7_251_225;

/**
 * Applies each file whose checksum differs from the one recorded in `_repeatable_sql` when it was
 * last applied (every file, on a database that has never had them), and each file whose function
 * or trigger is missing (a migration dropped its table, or dropped the function to change its
 * arguments). An unchanged file is not run again. Returns the names of the files applied.
 *
 * All in one transaction, under a lock, so that a change spread over several files (a function and
 * the one calling it) lands together or not at all, and two processes starting at once apply it
 * once. Functions are created with `check_function_bodies` off, as pg_dump does, so that one may
 * call another whatever the order of their files; each is then checked with its language's
 * validator, so a mistake still fails here rather than at the first call.
 */
export async function applyRepeatables(connectionString: string, files = repeatableFiles()): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [REPEATABLE_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "_repeatable_sql" (
         "name" text PRIMARY KEY,
         "checksum" text NOT NULL,
         "applied_at" timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const recorded = await client.query<{ name: string; checksum: string }>(
      `SELECT "name", "checksum" FROM "_repeatable_sql"`,
    );
    const checksums = new Map(recorded.rows.map((row) => [row.name, row.checksum]));
    const present = await presentObjects(client);
    const due = files.filter(
      (file) => checksums.get(file.name) !== file.checksum || !present[file.kind].has(file.object),
    );
    await client.query("SET LOCAL check_function_bodies = off");
    for (const file of due) await runFile(client, file);
    await client.query("SET LOCAL check_function_bodies = on");
    await validateFunctions(
      client,
      due.filter((file) => file.kind === "functions").map((file) => file.object),
    );
    for (const file of due) {
      await client.query(
        `INSERT INTO "_repeatable_sql" ("name", "checksum") VALUES ($1, $2)
         ON CONFLICT ("name") DO UPDATE SET "checksum" = EXCLUDED."checksum", "applied_at" = now()`,
        [file.name, file.checksum],
      );
    }
    await client.query("COMMIT");
    return due.map((file) => file.name);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

async function runFile(client: pg.Client, file: RepeatableFile): Promise<void> {
  try {
    await client.query(file.sql);
  } catch (error) {
    if (error instanceof Error) error.message = `prisma/${file.name}: ${error.message}`;
    throw error;
  }
}

async function presentObjects(client: pg.Client): Promise<Record<RepeatableKind, Set<string>>> {
  const { rows } = await client.query<{ kind: RepeatableKind; name: string }>(
    `SELECT 'functions' AS kind, p.proname AS name FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
     UNION ALL
     SELECT 'triggers', t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal`,
  );
  const present = { functions: new Set<string>(), triggers: new Set<string>() };
  for (const row of rows) present[row.kind].add(row.name);
  return present;
}

/** What CREATE FUNCTION checks when `check_function_bodies` is on, for functions created without. */
async function validateFunctions(client: pg.Client, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const { rows } = await client.query<{ oid: number; signature: string; validator: string }>(
    `SELECT p.oid, p.oid::regprocedure::text AS signature, l.lanvalidator::regproc::text AS validator
       FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
      WHERE p.pronamespace = 'public'::regnamespace AND p.proname = ANY($1) AND l.lanvalidator <> 0`,
    [names],
  );
  for (const row of rows) {
    try {
      await client.query(`SELECT ${row.validator}($1)`, [row.oid]);
    } catch (error) {
      if (error instanceof Error) error.message = `${row.signature}: ${error.message}`;
      throw error;
    }
  }
}

/**
 * Writes a new migration with the SQL that turns `fromSchema` (a previous schema.prisma, or
 * nothing for the first migration) into the current schema. Returns the folder, or null if
 * nothing changed. The diff needs no database (a shadow database is not available here).
 */
export async function createMigration(
  name: string,
  fromSchema: string | null,
  connectionString: string,
): Promise<string | null> {
  const current = readFileSync(SCHEMA_PATH, "utf8");
  let sql = "";
  // The engine connects at start even though a diff between two schemas reads no database.
  await withEngine(connectionString, async (engine) => {
    const origLog = process.stdout.write.bind(process.stdout);
    // The engine prints the script on stdout; capture it.
    process.stdout.write = ((chunk: string | Uint8Array) => {
      sql += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    }) as typeof process.stdout.write;
    try {
      const result = await engine.diff({
        from:
          fromSchema === null
            ? { tag: "empty" }
            : { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: fromSchema }] },
        to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: current }] },
        script: true,
        exitCode: null,
        filters: NO_FILTER,
      });
      if (result.stdout) sql = result.stdout;
    } finally {
      process.stdout.write = origLog;
    }
  });
  if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) return null;
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name.replace(/[^a-z0-9]+/gi, "_").toLowerCase()}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), sql);
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  if (!existsSync(lockPath)) {
    writeFileSync(
      lockPath,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  }
  return dir;
}
