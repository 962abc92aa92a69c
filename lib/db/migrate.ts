/**
 * Prisma migrations without Prisma's native schema engine (unreachable here): the same engine,
 * compiled to WebAssembly (@prisma/schema-engine-wasm), driven over the `pg` driver adapter.
 * `applyMigrations` is what `prisma migrate deploy` does, and the folder stays in Prisma's own
 * format, so a user with the native engine can still run `prisma migrate deploy` on it.
 */
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
 * queue's own schema (graphile-worker keeps its migrations in the `graphile_worker` schema).
 * Returns the names of the Prisma migrations applied.
 */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const applied = await withEngine(connectionString, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: migrationsList(), filters: NO_FILTER });
    return out.appliedMigrationNames;
  });
  const { runMigrations } = await import("graphile-worker");
  await runMigrations({ connectionString, logger: quietLogger() });
  return applied;
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
