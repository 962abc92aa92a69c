/**
 * POST /reports, GET /reports, GET /reports/{report_id} and GET /reports/{report_id}/download-url
 * (decision: report-types-and-filters). A report is created `pending` with its generation queued in the same database
 * transaction (and its `report.created` event: the transactional outbox); the worker writes the
 * CSV (generate.ts) and the download link is a signed document link valid for 3 minutes.
 */

import { REPORT } from "../../db/entities/report.ts";
import {
  getJson,
  insertJson,
  type JsonPage,
  listJson,
  Params,
  query,
  type RawJson,
  sqlTransaction,
  storableJson,
} from "../../db/sql.ts";
import { REPORT_LINK_LIFETIME_SECONDS } from "../../documents/signed-links.ts";
import { ApiError, notFound } from "../../errors.ts";
import { queueReportGeneration } from "../../events/jobs/generate-report.ts";
import { newId } from "../../ids.ts";
import {
  type CreateReportInput,
  DEFAULT_DATE_FILTER,
  DEFAULT_LOOKBACK_DAYS,
  hasDateFilter,
  type ListReportsQuery,
  type Report,
  type ReportFilter,
  type ReportStatus,
  type ReportUrl,
} from "../../schemas/report.ts";
import { documentUrl } from "../documents.ts";

/**
 * The filters stored with a report: those sent (operator null for non-date filters), plus the
 * default "updated in the last 30 days" when none of them is a date filter.
 */
export function effectiveFilters(input: CreateReportInput, now = Date.now()): ReportFilter[] {
  const filters: ReportFilter[] = (input.filters ?? []).map((f) => ({
    name: f.name,
    operator: f.operator ?? null,
    value: f.value,
  }));
  if (!hasDateFilter(input.type, filters)) {
    const since = new Date(now - DEFAULT_LOOKBACK_DAYS * 86_400_000).toISOString();
    filters.push({ name: DEFAULT_DATE_FILTER[input.type], operator: "gte", value: since });
  }
  return filters;
}

export async function createReport(input: CreateReportInput): Promise<RawJson<Report>> {
  const id = newId("rep");
  return sqlTransaction(async (client) => {
    const json = await insertJson(
      REPORT,
      { id, type: input.type, status: "pending", filters: storableJson(effectiveFilters(input)) },
      "report.created",
      client,
    );
    await queueReportGeneration(client, id);
    return json;
  });
}

export async function getReport(id: string): Promise<RawJson<Report>> {
  const json = await getJson(REPORT, "t.id = $1", [id]);
  if (!json) throw notFound(id);
  return json;
}

/** As the API family: without `status`, pending and ready reports. */
export async function listReports(options: ListReportsQuery): Promise<JsonPage> {
  const params = new Params();
  const statuses: readonly ReportStatus[] = options.status ?? ["pending", "ready"];
  const filters = [params.oneOf("t.status", statuses)];
  return listJson(REPORT, {
    filters,
    params,
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
}

interface ReportState {
  status: ReportStatus;
  rows: number | null;
  expired: boolean;
}

/** The API error refusing a download of a report in `state`, or null when it can be downloaded. */
export function downloadRefusal(id: string, state: ReportState): ApiError | null {
  if (state.status === "expired" || (state.status === "ready" && state.expired)) {
    return new ApiError("report_expired", `Report ${id} is unavailable to download as it is expired.`);
  }
  if (state.status === "pending") {
    return new ApiError("report_not_ready", `Report ${id} is not ready to download yet: its status is pending.`);
  }
  if (state.status === "failed") {
    return new ApiError("report_failed", `Report ${id} failed to generate. Create the report again.`);
  }
  if (!state.rows) {
    return new ApiError("report_empty", `Report ${id} has no rows: nothing matched its filters.`);
  }
  return null;
}

/** The state downloads check (a ready report past expires_at counts as expired before the cron runs). */
export async function reportState(id: string): Promise<ReportState> {
  const [row] = await query<ReportState>(
    `SELECT status, rows, coalesce(expires_at <= now(), false) AS expired FROM reports WHERE id = $1`,
    [id],
  );
  if (!row) throw notFound(id);
  return row;
}

/** GET /reports/{report_id}/download-url: a signed link to the CSV, valid for 3 minutes. */
export async function reportDownloadUrl(id: string): Promise<ReportUrl> {
  const refusal = downloadRefusal(id, await reportState(id));
  if (refusal) throw refusal;
  return documentUrl("report", id, "attachment", Date.now(), REPORT_LINK_LIFETIME_SECONDS);
}
