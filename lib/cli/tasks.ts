/** Building blocks of the command line, shared by lib/cli/main.ts and lib/cli/test.ts. */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../db/embedded.ts";
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
  const client = path.join(ROOT, "lib/generated/prisma/client.ts");
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

/** DATABASE_URL, or an embedded PostgreSQL started for this process (and stopped with it). */
export async function database(): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const embedded = await startEmbeddedPostgres();
  process.env.DATABASE_URL = embedded.url;
  return { url: embedded.url, embedded };
}
