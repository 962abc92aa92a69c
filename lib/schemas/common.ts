/** Zod building blocks shared by every resource's schemas (request and response). */
import { z } from "zod";
import { orderByParam, perPageParam } from "../http/pagination.ts";
import { ID_PREFIX, type IdPrefix } from "../id-prefixes.ts";
import { isCountryCode } from "./countries.ts";

export function entityId(prefix: IdPrefix) {
  return z.string().regex(new RegExp(`^${prefix}_[a-z0-9]{26}$`), `must be a valid ${prefix}_ ID`);
}

/** `custom_data`: a JSON object of the caller's own data, or null. */
export const customData = z
  .record(z.string(), z.unknown(), { error: "must be a JSON object or null" })
  .nullable()
  .refine((value) => value === null || (typeof value === "object" && !Array.isArray(value)), {
    message: "must be a JSON object or null",
  });

export const statusEnum = z.enum(["active", "archived"], { error: "must be active or archived" });

export const countryCode = z
  .string({ error: "must be a two-letter ISO 3166-1 alpha-2 country code" })
  .refine(isCountryCode, "must be a two-letter ISO 3166-1 alpha-2 country code");

export const email = z
  .string({ error: "must be a string" })
  .min(1, "must be 1 to 320 characters")
  .max(320, "must be 1 to 320 characters")
  .pipe(z.email({ error: "must be a valid email address" }));

/** An IETF BCP 47 tag (`en`, `pt-BR`). */
export const locale = z
  .string()
  .min(1, { error: "must be an IETF BCP 47 language tag, such as en or pt-BR", abort: true })
  .max(35, { error: "must be an IETF BCP 47 language tag, such as en or pt-BR", abort: true })
  .refine((value) => {
    try {
      return Intl.getCanonicalLocales(value).length === 1;
    } catch {
      return false;
    }
  }, "must be an IETF BCP 47 language tag, such as en or pt-BR");

export function maxText(max: number) {
  return z.string().max(max, `must be at most ${max} characters`);
}

export function requiredText(max: number, min = 1) {
  return z
    .string()
    .min(min, { error: `must be ${min} to ${max} characters`, abort: true })
    .max(max, `must be ${min} to ${max} characters`)
    .refine((value) => value.trim().length > 0, "must contain a non-whitespace character");
}

/** Comma-separated list of values in a query parameter, each checked by `item`. */
export function csv<T extends z.ZodType<unknown, string>>(item: T) {
  return z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v !== ""),
    )
    .pipe(z.array(item).min(1, "must list at least one value"));
}

/** The query parameters every list has; `direction`: the order by id without `order_by`. */
export function listQuery<const F extends readonly [string, ...string[]]>(
  orderFields: F,
  direction: "asc" | "desc" = "asc",
) {
  return {
    after: z.string().max(200).optional(),
    per_page: perPageParam,
    order_by: orderByParam(orderFields, undefined, direction),
  };
}

/**
 * An RFC 3339 date-time with its offset (`Z` or `+01:00`), seconds required, fractions allowed.
 * Year 0000 is refused: PostgreSQL has no year 0, and a client's bad date is never a 500.
 */
export const dateTime = z.iso
  .datetime({ offset: true, error: "must be an RFC 3339 date-time, such as 2030-01-31T00:00:00Z", abort: true })
  .refine((value) => !value.startsWith("0000"), "must be an RFC 3339 date-time, such as 2030-01-31T00:00:00Z");

/** `include`: a comma-separated list of the related entities the endpoint can add. */
export function includeParam<const V extends readonly [string, ...string[]]>(values: V) {
  return csv(z.enum(values, { error: `must be one of ${values.join(", ")}` }));
}

export function idParam(prefix: IdPrefix) {
  return entityId(prefix);
}

export { ID_PREFIX };
