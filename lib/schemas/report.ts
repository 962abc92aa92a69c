/**
 * Reports (CSV exports): the body of POST /reports, the query of GET /reports, path parameters and
 * the response shapes. Client-safe: the dashboard's Reports page builds its form from these tables.
 *
 * Types and their filters are the API family's. Decisions where it is silent (decision:
 * report-types-and-filters):
 * - `payout_reconciliation` is not offered (this service makes no payouts), nor `checkouts`.
 * - A filter's `operator` is `lt` or `gte` for date filters and must be null (or left out) for the
 *   others. A date filter's `value` is an RFC 3339 full-date (`2024-04-15`, midnight UTC) or
 *   date-time; the others take one value or a list of them (at most 100), each one of the values
 *   the API itself has for that field.
 * - Filters are ANDed, so a name may appear more than once (a date range is a `gte` and an `lt`);
 *   a range that selects nothing (the latest `gte` not before the earliest `lt`) is refused.
 * - When no date filter is sent, the default "updated in the last 30 days" is added and stored
 *   (`updated_at` gte, as a date-time; `price_updated_at` for products_prices, whose rows are prices).
 */
import { z } from "zod";
import { ADJUSTMENT_STATUSES, ALL_ADJUSTMENT_ACTIONS } from "../billing/adjustments.ts";
import { CURRENCY_CODES } from "../billing/currencies.ts";
import { csv, dateTimeProblem, entityId, listQuery } from "./common.ts";
import { DISCOUNT_STATUSES, DISCOUNT_TYPES } from "./discount.ts";
import { CATALOG_TYPES } from "./product.ts";
import { COLLECTION_MODES, TRANSACTION_ORIGINS, TRANSACTION_STATUSES } from "./transaction.ts";

export const REPORT_TYPES = [
  "transactions",
  "transaction_line_items",
  "adjustments",
  "adjustment_line_items",
  "products_prices",
  "discounts",
  "balance",
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const REPORT_TYPE_LABELS: Record<ReportType, string> = {
  transactions: "Transactions",
  transaction_line_items: "Transaction line items",
  adjustments: "Adjustments",
  adjustment_line_items: "Adjustment line items",
  products_prices: "Products and prices",
  discounts: "Discounts",
  balance: "Balance",
};

export const REPORT_STATUSES = ["pending", "ready", "failed", "expired"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_FILTER_OPERATORS = ["lt", "gte"] as const;
export type ReportFilterOperator = (typeof REPORT_FILTER_OPERATORS)[number];

/** As the API family: at most 10 filters per report. */
export const MAX_REPORT_FILTERS = 10;
/** Our bound on the values of one filter (the API family gives none). */
export const MAX_FILTER_VALUES = 100;
/** The default date filter looks back this many days. */
export const DEFAULT_LOOKBACK_DAYS = 30;

export type FilterRule = { kind: "date" } | { kind: "values"; values: readonly string[] };

const date: FilterRule = { kind: "date" };
const values = (list: readonly string[]): FilterRule => ({ kind: "values", values: list });
const STANDARD_STATUSES = ["active", "archived"] as const;

const TRANSACTION_FILTERS: Record<string, FilterRule> = {
  collection_mode: values(COLLECTION_MODES),
  currency_code: values(CURRENCY_CODES),
  origin: values(TRANSACTION_ORIGINS),
  status: values(TRANSACTION_STATUSES),
  updated_at: date,
};
const ADJUSTMENT_FILTERS: Record<string, FilterRule> = {
  action: values(ALL_ADJUSTMENT_ACTIONS),
  currency_code: values(CURRENCY_CODES),
  status: values(ADJUSTMENT_STATUSES),
  updated_at: date,
};

/** Each type's filters: name → rule. */
export const REPORT_FILTERS: Record<ReportType, Record<string, FilterRule>> = {
  transactions: TRANSACTION_FILTERS,
  transaction_line_items: TRANSACTION_FILTERS,
  adjustments: ADJUSTMENT_FILTERS,
  adjustment_line_items: ADJUSTMENT_FILTERS,
  products_prices: {
    product_status: values(STANDARD_STATUSES),
    price_status: values(STANDARD_STATUSES),
    product_type: values(CATALOG_TYPES),
    price_type: values(CATALOG_TYPES),
    product_updated_at: date,
    price_updated_at: date,
  },
  discounts: { type: values(DISCOUNT_TYPES), status: values(DISCOUNT_STATUSES), updated_at: date },
  balance: { updated_at: date },
};

/** The date filter the default ("updated in the last 30 days") is put on. */
export const DEFAULT_DATE_FILTER: Record<ReportType, string> = {
  transactions: "updated_at",
  transaction_line_items: "updated_at",
  adjustments: "updated_at",
  adjustment_line_items: "updated_at",
  products_prices: "price_updated_at",
  discounts: "updated_at",
  balance: "updated_at",
};

export interface ReportFilter {
  name: string;
  operator: ReportFilterOperator | null;
  value: string | string[];
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Why `value` is not a date filter's value (RFC 3339 full-date or date-time), or null. */
export function dateValueProblem(value: string): string | null {
  const day = FULL_DATE.exec(value);
  if (day) {
    const [, y = 0, m = 0, d = 0] = day.map(Number);
    const check = new Date(0);
    check.setUTCFullYear(y, m - 1, d);
    const ok = y >= 1 && check.getUTCFullYear() === y && check.getUTCMonth() === m - 1 && check.getUTCDate() === d;
    return ok ? null : "must be a valid date (YYYY-MM-DD) or RFC 3339 date-time";
  }
  if (value.length > 40) return "must be a date (YYYY-MM-DD) or RFC 3339 date-time";
  return dateTimeProblem(value) === null ? null : "must be a date (YYYY-MM-DD) or RFC 3339 date-time";
}

/** The instant a date filter value stands for, in milliseconds (a full-date is midnight UTC). */
export function dateValueMillis(value: string): number {
  return FULL_DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
}

export interface FilterProblem {
  path: (string | number)[];
  message: string;
}

/** What is wrong with `filters` for a report of `type` (the rules in this file's header). */
export function reportFilterProblems(type: ReportType, filters: readonly ReportFilter[]): FilterProblem[] {
  const rules = REPORT_FILTERS[type];
  const problems: FilterProblem[] = [];
  // Per date filter name: the latest `gte` and the earliest `lt` (filters are ANDed).
  const dates = new Map<string, { gte?: number; lt?: number; ltIndex?: number }>();
  filters.forEach((filter, i) => {
    // Own names only: `__proto__` or `constructor` name no filter.
    const rule = Object.hasOwn(rules, filter.name) ? rules[filter.name] : undefined;
    if (!rule) {
      problems.push({
        path: ["filters", i, "name"],
        message: `is not a filter of ${type} reports; use one of ${Object.keys(rules).join(", ")}`,
      });
      return;
    }
    if (rule.kind === "date") {
      if (filter.operator === null) {
        problems.push({ path: ["filters", i, "operator"], message: "must be lt or gte for a date filter" });
      }
      if (typeof filter.value !== "string") {
        problems.push({ path: ["filters", i, "value"], message: "must be one date for a date filter" });
        return;
      }
      const problem = dateValueProblem(filter.value);
      if (problem) problems.push({ path: ["filters", i, "value"], message: problem });
      else if (filter.operator) {
        const range = dates.get(filter.name) ?? {};
        const at = dateValueMillis(filter.value);
        if (filter.operator === "gte") range.gte = Math.max(range.gte ?? at, at);
        else if (range.lt === undefined || at < range.lt) {
          range.lt = at;
          range.ltIndex = i;
        }
        dates.set(filter.name, range);
      }
      return;
    }
    if (filter.operator !== null) {
      problems.push({ path: ["filters", i, "operator"], message: "must be null: only date filters take an operator" });
    }
    const list = typeof filter.value === "string" ? [filter.value] : filter.value;
    if (list.length === 0) problems.push({ path: ["filters", i, "value"], message: "must list at least one value" });
    list.forEach((v, j) => {
      if (!rule.values.includes(v)) {
        const path = typeof filter.value === "string" ? ["filters", i, "value"] : ["filters", i, "value", j];
        const shown = rule.values.length > 12 ? "a supported value" : `one of ${rule.values.join(", ")}`;
        problems.push({ path, message: `must be ${shown}` });
      }
    });
  });
  for (const [name, range] of dates) {
    if (range.gte !== undefined && range.lt !== undefined && range.gte >= range.lt) {
      problems.push({
        path: ["filters", range.ltIndex ?? 0, "value"],
        message: `must be after the ${name} gte date (an empty range)`,
      });
    }
  }
  return problems;
}

/** Whether `filters` has a date filter of `type` (else the default is added). */
export function hasDateFilter(type: ReportType, filters: readonly ReportFilter[]): boolean {
  const rules = REPORT_FILTERS[type];
  return filters.some((f) => Object.hasOwn(rules, f.name) && rules[f.name]?.kind === "date");
}

const filterValue = z.union(
  [
    z.string().max(200, "must be at most 200 characters"),
    z
      .array(z.string({ error: "must be a string" }).max(200, "must be at most 200 characters"))
      .max(MAX_FILTER_VALUES, `must list at most ${MAX_FILTER_VALUES} values`),
  ],
  { error: "must be a string or a list of strings" },
);

export const reportFilterInput = z.strictObject(
  {
    name: z.string({ error: "must be a string" }).max(100, "must be at most 100 characters"),
    operator: z
      .enum(REPORT_FILTER_OPERATORS, { error: "must be lt, gte or null" })
      .nullable()
      .optional()
      .transform((v) => v ?? null),
    value: filterValue,
  },
  { error: "must be an object with name, operator and value" },
);

export const reportType = z.enum(REPORT_TYPES, { error: `must be one of ${REPORT_TYPES.join(", ")}` });

export const createReportBody = z
  .strictObject({
    type: reportType,
    filters: z
      .array(reportFilterInput, { error: "must be a list of filters" })
      .max(MAX_REPORT_FILTERS, `must list at most ${MAX_REPORT_FILTERS} filters`)
      .nullable()
      .optional(),
  })
  .superRefine((body, ctx) => {
    for (const p of reportFilterProblems(body.type, body.filters ?? [])) {
      ctx.addIssue({ code: "custom", path: p.path, message: p.message });
    }
  });
export type CreateReportInput = z.infer<typeof createReportBody>;

export const reportParams = z.object({ report_id: entityId("rep") });

/** As the API family: without `status`, the list shows pending and ready reports. */
export const listReportsQuery = z.object({
  ...listQuery(["id"]),
  status: csv(z.enum(REPORT_STATUSES, { error: `must be one of ${REPORT_STATUSES.join(", ")}` })).optional(),
});
export type ListReportsQuery = z.infer<typeof listReportsQuery>;

export const reportFilterSchema = z.object({
  name: z.string(),
  operator: z.enum(REPORT_FILTER_OPERATORS).nullable(),
  value: z.union([z.string(), z.array(z.string())]),
});

export const reportSchema = z.object({
  id: z.string(),
  type: z.enum(REPORT_TYPES),
  status: z.enum(REPORT_STATUSES),
  rows: z.number().int().nullable(),
  filters: z.array(reportFilterSchema),
  expires_at: z.string().nullable(),
  updated_at: z.string(),
  created_at: z.string(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportUrlSchema = z.object({ url: z.string() });
export type ReportUrl = z.infer<typeof reportUrlSchema>;
