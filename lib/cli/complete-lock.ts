/**
 * `npx tsx lib/cli/complete-lock.ts`: adds to package-lock.json the platform packages of other
 * systems that it lacks, so that `npm ci` accepts it everywhere.
 *
 * Packages such as next, @biomejs/biome and @tailwindcss/oxide list one optional dependency per
 * system (@next/swc-darwin-arm64, …). `npm ci` refuses a lock file that misses any of them
 * ("Missing: @next/swc-darwin-arm64@ from lock file"), on every machine. npm records them only when
 * the registry it installs from serves them, and the registry of this project's machines does not
 * serve most packages of other systems, so a lock file written here misses them. This fills them in
 * from what the lock file already knows: the exact version the parent asks for, and the system,
 * processor and C library, read from the package's name as npm would read them from its
 * package.json. With neither `resolved` nor `integrity` (no registry here has them), npm fetches
 * such a package by name and version on the system that needs it, and skips it everywhere else.
 * Run it after any `npm install` that changes package-lock.json; it changes nothing when nothing
 * is missing.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

export interface Lock {
  packages: Record<string, LockEntry>;
  [key: string]: unknown;
}

const SYSTEMS = ["aix", "android", "darwin", "freebsd", "linux", "netbsd", "openbsd", "openharmony", "sunos", "win32"];
const PROCESSORS = ["arm", "arm64", "ia32", "loong64", "mips64el", "ppc64", "riscv64", "s390x", "wasm32", "x64"];

/** os, cpu and libc of a platform package, from its name (`@next/swc-linux-x64-musl`). */
export function platformOf(name: string): Pick<LockEntry, "os" | "cpu" | "libc"> | undefined {
  const words = (name.split("/").pop() ?? name).split("-");
  const os = SYSTEMS.filter((s) => words.includes(s));
  const cpu = PROCESSORS.filter((c) => words.includes(c));
  if (cpu.length !== 1 || os.length > 1) return undefined;
  const libc = words.includes("musl") ? ["musl"] : os[0] === "linux" && words.includes("gnu") ? ["glibc"] : undefined;
  return { ...(os.length ? { os } : {}), cpu, ...(libc ? { libc } : {}) };
}

/** Whether `name` resolves from the package at `from` (node's lookup, upwards to the top). */
function resolves(lock: Lock, from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    if (lock.packages[`${dir ? `${dir}/` : ""}node_modules/${name}`]) return true;
    if (!dir) return false;
    const up = dir.lastIndexOf("/node_modules/");
    dir = up < 0 ? "" : dir.slice(0, up);
  }
}

/** Adds the missing optional platform packages; returns them as `name@version` (empty: nothing missing). */
export function completeLock(lock: Lock): string[] {
  const added: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      if (resolves(lock, location, name)) continue;
      const platform = platformOf(name);
      if (!platform || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(spec)) {
        throw new Error(
          `${name}@${spec} (optional dependency of ${location || "the project"}) is missing from the lock file, ` +
            "and neither its platform nor an exact version can be told from it: add it by hand.",
        );
      }
      // Keys in npm's order, so that a later `npm install` rewrites nothing.
      // At the top, as npm hoists it: nothing of that name is there, or `resolves` would have found it.
      lock.packages[`node_modules/${name}`] = {
        version: spec,
        cpu: platform.cpu,
        ...(entry.dev ? { dev: true } : {}),
        ...(platform.libc ? { libc: platform.libc } : {}),
        optional: true,
        ...(platform.os ? { os: platform.os } : {}),
      };
      added.push(`${name}@${spec}`);
    }
  }
  // npm's order: the project first, then the locations sorted.
  const sorted = Object.entries(lock.packages).sort(([a], [b]) =>
    a === "" ? -1 : b === "" ? 1 : a.localeCompare(b, "en"),
  );
  lock.packages = Object.fromEntries(sorted);
  return added;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const file = path.resolve(import.meta.dirname, "../../package-lock.json");
  const lock = JSON.parse(fs.readFileSync(file, "utf8")) as Lock;
  const added = completeLock(lock);
  if (added.length > 0) fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.error(added.length > 0 ? `Added to package-lock.json:\n  ${added.join("\n  ")}` : "Nothing missing.");
}
