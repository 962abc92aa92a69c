/**
 * The report's API shape, in the API family's field order. `rows` is null until
 * the report is ready; `expires_at` is null until then too (14 days after it became ready).
 */

import type { Report } from "../../schemas/report.ts";
import { type EntityTable, ts } from "../sql.ts";

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
