/**
 * CPU time of the processes under load, read from /proc: the server's (every process of its
 * process group: the `cli start` wrapper, `next start` and anything it forks) and the bench
 * database's (its PostgreSQL backends). Requests per second say how fast the machine answered;
 * CPU per request says what one request costs, which is what our code adds to the framework.
 *
 * PostgreSQL: the backends connected to the bench database (pg_stat_activity, the bench's own
 * client excluded), read at the start and end of a run. A backend that starts during the run counts
 * from zero; one that exits during the run is lost (the server's pool keeps its connections while
 * under load, so that is rare). Needs the server on this machine (127.0.0.1 or the embedded one);
 * otherwise the PostgreSQL figure is null.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type pg from "pg";

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

interface ProcStat {
  pgrp: number;
  /** utime + stime, in seconds. */
  cpu: number;
}

/** /proc/<pid>/stat's process group and CPU time, or null when the process is gone or unreadable. */
function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // From field 3 on: state, ppid, pgrp, ... utime is field 14, stime field 15.
  return { pgrp: Number(fields[2]), cpu: (Number(fields[11]) + Number(fields[12])) / clockTicks() };
}

/** CPU seconds of every live process of the process group `pgid`. */
export function groupCpuSeconds(pgid: number): number {
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat && stat.pgrp === pgid) total += stat.cpu;
  }
  return total;
}

/** CPU seconds per backend of the database `client` is connected to (its own backend left out). */
export async function backendCpu(client: pg.Client): Promise<Map<number, number> | null> {
  const { rows } = await client.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const stat = procStat(pid);
    if (stat) cpu.set(pid, stat.cpu);
  }
  return rows.length > 0 && cpu.size === 0 ? null : cpu; // backends exist but are not ours to read
}

/** CPU seconds the backends spent between two readings of backendCpu. */
export function backendCpuSpent(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}
