/**
 * Report generation (the worker's `generate_report` job): the rows are read through a server-side
 * cursor (FETCH of FETCH_ROWS at a time), written as CSV lines into a gzip stream, and the
 * compressed output is stored as it comes, in chunks of about CHUNK_BYTES (`report_chunks`). The
 * process holds at most one fetched batch and one chunk at a time, so its memory stays flat
 * whatever the number of rows (measured: lib/dev/bench/reports.ts).
 *
 * Why PostgreSQL for the files: every web process of a deployment can then serve a download, with
 * no shared disk or object store to run. Why gzip: CSV compresses ~6-8x, and the download route
 * decompresses while it streams (lib/services/reports/download.ts).
 *
 * All of it is one database transaction on one connection, holding the report's row lock: the
 * cursor reads one snapshot, and the chunks, `status: ready`, `rows` and the `report.updated`
 * event commit together, or (on any failure) none of them does. A second run of the same job
 * (a retry after a crash, or the worker's sweep freeing a job locked past BILLING_WORKER_MAX_JOB,
 * 5 minutes, while a very large report is still being written) waits for the lock and then finds
 * the report no longer pending.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { pool } from "../../db/connection.ts";
import { REPORT } from "../../db/entities/report.ts";
import { updateJson } from "../../db/sql.ts";
import type { ReportFilter, ReportType } from "../../schemas/report.ts";
import { csvLine } from "./csv.ts";
import { withDecimals } from "./decimals.ts";
import { reportQuery } from "./sources.ts";

/**
 * As the API family (its reports are downloadable for 14 days): a ready report expires 14 days
 * after it was generated; the expiry cron then marks it `expired` and deletes its file.
 */
export const REPORT_RETENTION_DAYS = 14;

/** Rows per FETCH from the cursor. */
export const FETCH_ROWS = 2_000;
/** Compressed bytes per stored chunk. */
export const CHUNK_BYTES = 1 << 20;

export type GenerationResult = { status: "ready"; rows: number; bytes: number; chunks: number } | { status: "skipped" };

export async function generateReport(id: string, now: () => number = Date.now): Promise<GenerationResult> {
  const client = await pool().connect();
  let open = false;
  try {
    await client.query("BEGIN");
    open = true;
    const found = await client.query<{ type: ReportType; filters: ReportFilter[]; status: string }>(
      "SELECT type, filters, status FROM reports WHERE id = $1 FOR UPDATE",
      [id],
    );
    const report = found.rows[0];
    if (report?.status !== "pending") {
      await client.query("ROLLBACK");
      open = false;
      return { status: "skipped" };
    }
    // No JIT: it compiled the report query for ~4.6 s on 50,000 rows (measured), more than the
    // query itself. The cursor's plan favours fast start (cursor_tuple_fraction): an index scan in
    // the report's order rather than a sort of every row.
    await client.query("SET LOCAL jit = off");
    const query = reportQuery(report.type, report.filters);
    const { sql, values } = query;
    const { columns, row: withDecimal } = withDecimals(query.columns, query.money);
    await client.query(`DECLARE report_rows NO SCROLL CURSOR FOR ${sql}`, values);

    let rows = 0;
    let bytes = 0;
    async function* csv(): AsyncGenerator<Buffer> {
      const header = Buffer.from(csvLine(columns));
      bytes += header.length;
      yield header;
      for (;;) {
        const batch = await client.query<string[]>({ text: `FETCH ${FETCH_ROWS} FROM report_rows`, rowMode: "array" });
        if (batch.rows.length === 0) return;
        let text = "";
        for (const row of batch.rows) text += csvLine(withDecimal(row));
        rows += batch.rows.length;
        const buffer = Buffer.from(text);
        bytes += buffer.length;
        yield buffer;
      }
    }

    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const data = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await client.query("INSERT INTO report_chunks (report_id, seq, data) VALUES ($1, $2, $3)", [id, seq++, data]);
    };
    // Byte mode with a small buffer: the cursor is read one batch ahead at most (object mode
    // would read 16 batches ahead).
    const source = Readable.from(csv(), { objectMode: false, highWaterMark: 64 * 1024 });
    await pipeline(source, createGzip({ level: 6 }), async (compressed: AsyncIterable<Buffer>) => {
      for await (const part of compressed) {
        pending.push(part);
        pendingBytes += part.length;
        if (pendingBytes >= CHUNK_BYTES) await flush();
      }
      await flush();
    });
    await client.query("CLOSE report_rows");
    await updateJson(
      REPORT,
      { sql: "t.id = $1", values: [id] },
      {
        status: "ready",
        rows,
        byte_size: bytes,
        expires_at: new Date(now() + REPORT_RETENTION_DAYS * 86_400_000),
      },
      "report.updated",
      client,
    );
    await client.query("COMMIT");
    open = false;
    return { status: "ready", rows, bytes, chunks: seq };
  } catch (error) {
    if (open) await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Marks a pending report `failed` (with its `report.updated` event); false if it was not pending. */
export async function markReportFailed(id: string): Promise<boolean> {
  const json = await updateJson(
    REPORT,
    { sql: "t.id = $1 AND t.status = 'pending'", values: [id] },
    { status: "failed" },
    "report.updated",
  );
  return json !== null;
}

/**
 * The job: generate; on failure, let the queue retry (a worker crash, the database gone for a
 * moment) until the last attempt, which marks the report failed instead of throwing.
 */
export async function runReportJob(id: string, attempt: number, maxAttempts: number): Promise<void> {
  try {
    await generateReport(id);
  } catch (error) {
    if (attempt < maxAttempts) throw error;
    console.error(`[reports] report ${id} failed: ${(error as Error).message}`);
    await markReportFailed(id);
  }
}
