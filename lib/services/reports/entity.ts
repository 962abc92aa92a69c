/**
 * The report's API shape (reference §17), in the API family's field order. `rows` is null until
 * the report is ready; `expires_at` is null until then too (14 days after it became ready).
 */
import { type EntityTable, ts } from "../../db/sql.ts";
import type { Report } from "../../schemas/report.ts";

export const REPORT: EntityTable<Report> = {
  table: "reports",
  fields: [
    ["id", "t.id"],
    ["type", "t.type"],
    ["status", "t.status"],
    ["rows", "t.rows"],
    ["filters", "t.filters"],
    ["expires_at", ts("t.expires_at")],
    ["updated_at", ts("t.updated_at")],
    ["created_at", ts("t.created_at")],
  ],
};

/**
 * As the API family (its reports are downloadable for 14 days): a ready report expires 14 days
 * after it was generated; the expiry cron then marks it `expired` and deletes its file.
 */
export const REPORT_RETENTION_DAYS = 14;

/** A report still pending this long after it was created is given up: marked `failed`. */
export const PENDING_TIMEOUT_HOURS = 6;
