/**
 * Reports in the dashboard: the hooks over GET/POST /api/reports, the download link, and the
 * report form's model (a type, an optional date range in UTC days, and one value per value filter)
 * turned into the API's filters. The form's choices come from lib/schemas/report.ts, the same
 * tables the API validates with.
 */

import { dayStart, zoneDay } from "../billing/zoned-days.ts";
import {
  DEFAULT_DATE_FILTER,
  REPORT_FILTERS,
  REPORT_TYPE_LABELS,
  type Report,
  type ReportFilter,
  type ReportType,
  type ReportUrl,
} from "../schemas/report.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, NEWEST_FIRST, useList, useSave } from "./hooks.ts";

export type { Report, ReportType };

export const reportKeys = { all: ["reports"] as const, lists: ["reports", "list"] as const };

/** Every status (the API lists pending and ready ones by default), newest first. */
export function useReports(after: string | undefined) {
  return useList<Report>(
    reportKeys.lists,
    "/reports",
    { status: "pending,ready,failed,expired", order_by: NEWEST_FIRST, per_page: 20, after },
    true,
    // Poll while a report on screen is being generated.
    (page) => (page?.data.some((r) => r.status === "pending") ? 2_000 : false),
  );
}

export function useCreateReport() {
  return useSave(
    async (body: { type: ReportType; filters: ReportFilter[] }) =>
      (await api<EntityResponse<Report>>("/reports", { method: "POST", body })).data,
    () => [reportKeys.all],
  );
}

/** A link to the report's CSV, valid for 3 minutes. */
export async function fetchReportUrl(id: string): Promise<string> {
  return (await api<EntityResponse<ReportUrl>>(`/reports/${enc(id)}/download-url`)).data.url;
}

/** The report form: `from`/`to` are UTC days (both included, empty = open); `values`: filter → value ("" = any). */
export interface ReportForm {
  type: ReportType;
  from: string;
  to: string;
  values: Record<string, string>;
}

/** The value filters a type offers (name → allowed values), in the API's order. */
export function valueFilters(type: ReportType): [string, readonly string[]][] {
  return Object.entries(REPORT_FILTERS[type]).flatMap(([name, rule]) =>
    rule.kind === "values" ? [[name, rule.values] as [string, readonly string[]]] : [],
  );
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** What is wrong with the form's dates (field → message), before anything is sent. */
export function reportFormErrors(form: ReportForm): Record<string, string> {
  const errors: Record<string, string> = {};
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (form.from && !day.test(form.from)) errors.from = "Enter a date.";
  if (form.to && !day.test(form.to)) errors.to = "Enter a date.";
  if (!errors.from && !errors.to && form.from && form.to && form.to < form.from) {
    errors.to = "The end date must not be before the start date.";
  }
  return errors;
}

/**
 * The API's filters for the form, with where each came from (`from`, `to` or a filter name) so the
 * API's field errors (`filters[2].value`) are shown at the input that made them. No dates: the
 * API's default, updated in the last 30 days.
 */
export function reportFilters(form: ReportForm, zone = "UTC"): { filters: ReportFilter[]; sources: string[] } {
  // The dates are days of the account's time zone: sent as the instants they start there (the
  // API takes an RFC 3339 date-time; a bare date would be a UTC day).
  const start = (day: string) => (zone === "UTC" ? day : new Date(dayStart(day, zone)).toISOString());
  const filters: ReportFilter[] = [];
  const sources: string[] = [];
  for (const [name] of valueFilters(form.type)) {
    const value = form.values[name];
    if (value) {
      filters.push({ name, operator: null, value: [value] });
      sources.push(name);
    }
  }
  const dateName = DEFAULT_DATE_FILTER[form.type];
  if (form.from) {
    filters.push({ name: dateName, operator: "gte", value: start(form.from) });
    sources.push("from");
  }
  if (form.to) {
    filters.push({ name: dateName, operator: "lt", value: start(nextDay(form.to)) });
    sources.push("to");
  }
  return { filters, sources };
}

/**
 * A date filter's value as shown: the day (a date, or a date-time at the start of a day in
 * `zone`), else the date-time's day and minute in UTC.
 */
function shownDate(value: string, zone: string): string {
  if (value.length <= 10) return zone === "UTC" ? value : `${value} (UTC)`;
  const at = Date.parse(value);
  if (!Number.isNaN(at)) {
    const day = zoneDay(new Date(at), zone);
    if (dayStart(day, zone) === at) return day;
  }
  return `${value.slice(0, 16).replace("T", " ")} UTC`;
}

/** "status: completed · updated on or after 2024-01-01 · updated before 2024-02-01" for a report's filters. */
export function describeFilters(report: Pick<Report, "filters">, zone = "UTC"): string {
  const parts: string[] = [];
  for (const f of report.filters) {
    const value = Array.isArray(f.value) ? f.value.join(", ") : f.value;
    if (f.operator) {
      const label = f.name.replace(/_at$/, "").replace(/_/g, " ");
      parts.push(`${label} ${f.operator === "gte" ? "on or after" : "before"} ${shownDate(value, zone)}`);
    } else {
      parts.push(`${f.name.replace(/_/g, " ")}: ${value}`);
    }
  }
  return parts.join(" · ");
}

export function reportTypeLabel(type: string): string {
  return REPORT_TYPE_LABELS[type as ReportType] ?? type;
}
