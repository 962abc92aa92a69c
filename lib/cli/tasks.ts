/** Building blocks of the command line, shared by lib/cli/main.ts and lib/cli/test.ts. */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { type EmbeddedDatabase, EmbeddedPostgresError, startEmbeddedPostgres } from "../db/embedded.ts";
import { SCHEMA_PATH } from "../db/migrate.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env, cwd: ROOT });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function mustRun(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<void> {
  const code = await run(command, args, env);
  if (code !== 0) throw new ExitError(code, `${path.basename(command)} ${args.join(" ")} failed (exit ${code})`);
}

export class ExitError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function newestMtime(dir: string, skip: (p: string) => boolean): number {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (skip(p)) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p, skip) : statSync(p).mtimeMs);
  }
  return newest;
}

/** `prisma generate` offline: the CLI skips its engine download when this variable names a file. */
export async function generate(force = false): Promise<void> {
  const client = path.join(ROOT, "lib/db/generated/prisma/client.ts");
  if (!force && existsSync(client) && statSync(client).mtimeMs >= statSync(SCHEMA_PATH).mtimeMs) return;
  await mustRun(bin("prisma"), ["generate", "--schema", SCHEMA_PATH], {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  });
}

/** Builds Next.js when there is no build or a source file is newer than it. */
export async function buildIfStale(force = false): Promise<void> {
  const buildId = path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  const skip = (p: string) =>
    /node_modules|\.next|\.data|generated|e2e|\.git|bench-results/.test(path.relative(ROOT, p)) ||
    p.endsWith(".test.ts");
  const sources = Math.max(
    ...["app", "components", "lib", "public"].map((d) => newestMtime(path.join(ROOT, d), skip)),
    ...["next.config.js", "tailwind.config.ts", "package.json", "postcss.config.mjs"].map((f) =>
      existsSync(path.join(ROOT, f)) ? statSync(path.join(ROOT, f)).mtimeMs : 0,
    ),
  );
  if (!force && existsSync(buildId) && statSync(buildId).mtimeMs > sources) return;
  console.error("Building the dashboard and API (next build)…");
  await mustRun(bin("next"), ["build"], { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
}

/** The embedded servers' folders and ports: the product's, and the test suite's (so both can run at once). */
export const EMBEDDED = {
  app: { dir: path.join(ROOT, ".data", "postgres"), port: 54329 },
  test: { dir: path.join(ROOT, ".data", "test-postgres"), port: 54339 },
} as const;

/** A failure to start the embedded server, as a short message for the command line. */
export function embeddedFailure(error: unknown): ExitError {
  if (!(error instanceof EmbeddedPostgresError)) throw error;
  return new ExitError(
    1,
    [
      `Could not start the embedded PostgreSQL (used because DATABASE_URL is unset).`,
      error.message,
      ...(error.hint ? [`What to do: ${error.hint}`] : []),
      "To use a PostgreSQL server of your own instead: DATABASE_URL=postgresql://USER:PASSWORD@HOST:5432/DATABASE",
    ].join("\n"),
  );
}

/** DATABASE_URL without its password, for messages. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}

/** Connects once to DATABASE_URL's server, so that a wrong URL or a stopped server says so plainly. */
async function checkDatabaseUrl(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    const e = error as { code?: string; message?: string };
    const reason =
      e.code === "ECONNREFUSED"
        ? "nothing listens there (is the server running?)"
        : e.code === "ENOTFOUND" || e.code === "EAI_AGAIN"
          ? "its host name does not resolve"
          : e.code === "3D000"
            ? `${e.message} (create it, e.g. \`createdb\`, or name another one)`
            : e.code === "28P01" || e.code === "28000"
              ? `${e.message} (check the user and password)`
              : (e.message ?? String(error));
    throw new ExitError(1, `Cannot connect to DATABASE_URL (${redacted(url)}): ${reason}.`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * DATABASE_URL, or an embedded PostgreSQL started for this process (and stopped with it): the
 * product's by default, `EMBEDDED.test` for the test suite.
 */
export async function database(
  which: (typeof EMBEDDED)[keyof typeof EMBEDDED] = EMBEDDED.app,
): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (process.env.DATABASE_URL) {
    await checkDatabaseUrl(process.env.DATABASE_URL);
    return { url: process.env.DATABASE_URL };
  }
  const embedded = await startEmbeddedPostgres(which).catch((error: unknown) => {
    throw embeddedFailure(error);
  });
  process.env.DATABASE_URL = embedded.url;
  return { url: embedded.url, embedded };
}
