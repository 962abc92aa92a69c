import { z } from "zod";
import type { RawJson } from "../json.ts";

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;

/** `per_page`: a whole number from 1; larger than the maximum is capped (and reported in meta). */
export const perPageParam = z
  .string()
  .regex(/^\d+$/, { error: "must be a whole number", abort: true })
  .refine((value) => Number(value) >= 1, "must be at least 1")
  .transform((value) => Math.min(Number(value), MAX_PER_PAGE))
  .default(DEFAULT_PER_PAGE);

export interface OrderBy {
  field: string;
  direction: "asc" | "desc";
}

/**
 * `order_by=<field>[ASC|DESC]` over the fields the endpoint allows; without it, `fallback` in
 * `fallbackDirection` (ascending, except for logs such as events and notifications: newest first).
 */
export function orderByParam<const F extends readonly [string, ...string[]]>(
  fields: F,
  fallback: F[number] = "id",
  fallbackDirection: OrderBy["direction"] = "asc",
) {
  return z
    .string()
    .optional()
    .transform((value, ctx): OrderBy & { field: F[number] } => {
      if (value === undefined) return { field: fallback, direction: fallbackDirection };
      const match = /^([a-z_]+)\[(ASC|DESC)\]$/i.exec(value);
      if (!match || !fields.includes(match[1])) {
        ctx.addIssue({
          code: "custom",
          message: `must be one of ${fields.map((f) => `${f}[ASC]`).join(", ")} (or [DESC])`,
        });
        return z.NEVER;
      }
      return { field: match[1], direction: match[2].toLowerCase() as "asc" | "desc" };
    });
}

/** A list response: the route wrapper adds `meta.pagination` with `next` built from the request. */
export class ListResult<T = unknown> {
  constructor(
    readonly data: T[] | RawJson,
    readonly perPage: number,
    readonly hasMore: boolean,
    readonly estimatedTotal: number,
    readonly lastId: string | null,
  ) {}
}

/** `next`: the original query with `after` set to the last ID of this page (always present). */
export function nextUrl(requestUrl: URL, lastId: string | null): string {
  const url = new URL(requestUrl.toString());
  if (lastId) url.searchParams.set("after", lastId);
  return url.toString();
}

/** A page whose entities PostgreSQL already rendered as a JSON array. */
export function listOfJson(page: {
  data: RawJson;
  perPage: number;
  hasMore: boolean;
  estimatedTotal: number;
  lastId: string | null;
}): ListResult {
  return new ListResult(page.data, page.perPage, page.hasMore, page.estimatedTotal, page.lastId);
}
