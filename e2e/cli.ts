/** Runs the operator CLI against the e2e database, as an operator would. */
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

export function cli(args: string[]): string {
  return execFileSync(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "lib/cli/main.ts"), ...args], {
    cwd: root,
    env: process.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** A new API key made with `api-keys create`, which prints the key alone on standard output. */
export function cliApiKey(permissions: "all" | string[] = "all"): string {
  const grant = permissions === "all" ? ["--all"] : ["--permissions", permissions.join(",")];
  return cli(["api-keys", "create", "--name", `e2e ${Date.now()}`, ...grant]);
}
