/**
 * The query parameters every list endpoint shares (`per_page`, `order_by`) and the order a list
 * is read in. Below lib/http, so that the resources' schemas and lib/db's keyset pagination use
 * them without importing HTTP.
 */
import { z } from "zod";

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
      const [, field, direction] = /^([a-z_]+)\[(ASC|DESC)\]$/i.exec(value) ?? [];
      if (field === undefined || direction === undefined || !fields.includes(field)) {
        ctx.addIssue({
          code: "custom",
          message: `must be one of ${fields.map((f) => `${f}[ASC]`).join(", ")} (or [DESC])`,
        });
        return z.NEVER;
      }
      return { field, direction: direction.toLowerCase() as "asc" | "desc" };
    });
}
