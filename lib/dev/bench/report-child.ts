/**
 * One report generation (and one download of it) in a process of its own, for lib/dev/bench/reports.ts:
 * `tsx lib/dev/bench/report-child.ts <report_id>` with DATABASE_URL set. Prints one JSON line: time,
 * CPU time and resident memory of this process (from /proc/self/status: VmRSS sampled every 50 ms
 * per phase, and VmHWM, the kernel's peak) for the generation and for streaming the download.
 */
import { readFileSync } from "node:fs";

function statusKb(field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"));
  return match ? Number(match[1]) : 0;
}

async function measure<T>(fn: () => Promise<T>) {
  let peakRssKb = statusKb("VmRSS");
  const startRssKb = peakRssKb;
  const sampler = setInterval(() => {
    peakRssKb = Math.max(peakRssKb, statusKb("VmRSS"));
  }, 50);
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    const result = await fn();
    const used = process.cpuUsage(cpu);
    peakRssKb = Math.max(peakRssKb, statusKb("VmRSS"));
    return {
      result,
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (used.user + used.system) / 1e6,
      startRssMb: startRssKb / 1024,
      peakRssMb: peakRssKb / 1024,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function main() {
  const id = process.argv[2];
  const { generateReport } = await import("../../services/reports/generate.ts");
  const { reportDownloadUrl } = await import("../../services/reports/reports.ts");
  const { reportCsv } = await import("../../services/reports/download.ts");
  const { fileResponse } = await import("../../http/file-response.ts");
  const { disconnectDb } = await import("../../db/connection.ts");
  const { sessionSecret } = await import("../../services/settings.ts");
  // Modules loaded and the pool (the link key's secret) warm before measuring:
  // the baseline is the idle process.
  await sessionSecret();
  const generation = await measure(() => generateReport(id!));
  const download = await measure(async () => {
    const { url } = await reportDownloadUrl(id!);
    const query = Object.fromEntries(new URL(url).searchParams);
    const response = fileResponse(await reportCsv(id!, query));
    let bytes = 0;
    let lines = 0;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    }
    return { bytes, lines };
  });
  const { rows } = await (await import("../../db/connection.ts"))
    .pool()
    .query<{ compressed: string }>(
      "SELECT sum(length(data))::text AS compressed FROM report_chunks WHERE report_id = $1",
      [id],
    );
  await disconnectDb();
  console.log(
    JSON.stringify({
      generation,
      download,
      compressedBytes: Number(rows[0]!.compressed),
      peakRssMbKernel: statusKb("VmHWM") / 1024,
    }),
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
