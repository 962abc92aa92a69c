/**
 * The signed report link (GET /api/documents/reports/{report_id}?…, made by
 * GET /reports/{report_id}/download-url and valid for 3 minutes): checks the signature, then the
 * report (it may have expired since the link was made), and streams the CSV, decompressing the
 * stored gzip chunks one at a time (memory flat whatever the report's size).
 */
import { pipeline, Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { query } from "../../db/sql.ts";
import type { ReceivedLink } from "../../documents/signed-links.ts";
import { notFound } from "../../errors.ts";
import { FileResult } from "../../http/results.ts";
import { checkDocumentLink } from "../documents.ts";
import { downloadRefusal, reportState } from "./reports.ts";

export async function reportCsv(id: string, received: ReceivedLink): Promise<FileResult> {
  await checkDocumentLink("report", id, received);
  const refusal = downloadRefusal(id, await reportState(id));
  if (refusal) throw refusal;
  const [meta] = await query<{ type: string; byte_size: string; chunks: number }>(
    `SELECT type, byte_size::text, (SELECT count(*)::int FROM report_chunks c WHERE c.report_id = r.id) AS chunks
     FROM reports r WHERE id = $1`,
    [id],
  );
  if (!meta) throw notFound(id);
  const chunkCount = meta.chunks;
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let seq = 0; seq < chunkCount; seq++) {
      const [row] = await query<{ data: Buffer }>("SELECT data FROM report_chunks WHERE report_id = $1 AND seq = $2", [
        id,
        seq,
      ]);
      if (!row) throw new Error(`report ${id}: its file was deleted during the download`);
      yield row.data;
    }
  }
  const gunzip = createGunzip();
  pipeline(Readable.from(chunks()), gunzip, () => {});
  return new FileResult({
    body: Readable.toWeb(gunzip) as ReadableStream<Uint8Array>,
    contentType: "text/csv; charset=utf-8",
    size: meta.byte_size,
    disposition: "attachment",
    fileName: `${meta.type}-${id}.csv`,
  });
}
