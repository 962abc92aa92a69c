/** Zod building blocks shared by every resource's schemas (request and response). */
import { z } from "zod";
import type { IdPrefix } from "../id-prefixes.ts";
import { isCountryCode, isUnsupportedCountryCode } from "./countries.ts";
import { orderByParam, perPageParam } from "./list-query.ts";

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

/** A country this API serves (lib/schemas/countries.ts); a sanctioned one is refused by name. */
export const countryCode = z
  .string({ error: "must be a two-letter ISO 3166-1 alpha-2 country code" })
  .superRefine((value, ctx) => {
    if (isCountryCode(value)) return;
    const message = isUnsupportedCountryCode(value)
      ? `${value} is a country this API does not serve (as the API family: sanctioned and embargoed countries)`
      : "must be a two-letter ISO 3166-1 alpha-2 country code";
    ctx.addIssue({ code: "custom", message });
  });

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

const DATE_TIME_MESSAGE = "must be an RFC 3339 date-time, such as 2030-01-31T00:00:00Z";

/** The parts of a date-time that zod's format check passed (date and time in range, offset `Z` or ±hh:mm). */
const DATE_TIME_PARTS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Fractional-second digits taken: nanoseconds, the finest any common language writes (Go's RFC3339Nano). */
const MAX_FRACTION_DIGITS = 9;

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z, in microseconds since the epoch. */
const FIRST_MICROS = -62_135_596_800_000_000n;
const LAST_MICROS = 253_402_300_799_999_999n;

/**
 * What PostgreSQL would make of an RFC 3339 date-time, or why it cannot store it as the instant
 * the client meant: null when it can. timestamptz takes offsets up to ±15:59, rounds fractions to
 * microseconds, and has years before 1 (BC) and after 9999, which RFC 3339's four-digit years
 * (and our responses) cannot write: `0001-01-01T00:00:00+01:00` is in 1 BC.
 */
export function dateTimeProblem(value: string): string | null {
  const parts = DATE_TIME_PARTS.exec(value);
  if (!parts) return DATE_TIME_MESSAGE;
  const [, year, month, day, hour, minute, second, fraction = "", sign, offsetHours, offsetMinutes] = parts;
  if (sign && Number(offsetHours) > 15) return "must have a UTC offset between -15:59 and +15:59";
  if (fraction.length > MAX_FRACTION_DIGITS) {
    return `must have at most ${MAX_FRACTION_DIGITS} digits of fractional seconds`;
  }
  const utc = new Date(0);
  // setUTCFullYear, unlike Date.UTC, takes years 0-99 as they are.
  utc.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  utc.setUTCHours(Number(hour), Number(minute), Number(second), 0);
  const offset = sign ? (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : 0;
  // Microseconds rounded from the digits themselves (a float would round 0.9999995 either way).
  const digits = fraction.padEnd(7, "0");
  const fractionMicros = BigInt(Number(digits.slice(0, 6)) + (Number(digits[6]) >= 5 ? 1 : 0));
  const micros = BigInt(utc.getTime() - offset * 60_000) * 1000n + fractionMicros;
  if (micros < FIRST_MICROS || micros > LAST_MICROS) {
    return "must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z";
  }
  return null;
}

/**
 * An RFC 3339 date-time with its offset (`Z` or `+01:00`), seconds required, fractions allowed
 * (up to nanoseconds; stored to the microsecond), that PostgreSQL stores as the instant meant
 * (dateTimeProblem): a client's bad date is a field error, never a 500. The one date-time schema
 * of every body field and query filter.
 */
export const dateTime = z.iso
  .datetime({ offset: true, error: DATE_TIME_MESSAGE, abort: true })
  .superRefine((value, ctx) => {
    const problem = dateTimeProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem, continue: false });
  });

/** `include`: a comma-separated list of the related entities the endpoint can add. */
export function includeParam<const V extends readonly [string, ...string[]]>(values: V) {
  return csv(z.enum(values, { error: `must be one of ${values.join(", ")}` }));
}

/** Hosts where a plain-http return address is accepted: the merchant's own machine while developing. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Where the hosted checkout sends a buyer back after paying (a payment link's `success_url`, the
 * client-side library's `successUrl`): an absolute https URL, or http on localhost/127.0.0.1/[::1]
 * (local development). Nothing else: no javascript:, data: or relative URLs, no credentials.
 */
export const successUrl = z
  .string({ error: "must be an https URL" })
  .max(2000, { error: "must be at most 2000 characters", abort: true })
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an absolute https URL, such as https://example.com/thanks" });
      return;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "must not contain a user name or password" });
    } else if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
      ctx.addIssue({ code: "custom", message: "must be https (http is accepted only for localhost and 127.0.0.1)" });
    } else if (url.protocol !== "https:" && url.protocol !== "http:") {
      ctx.addIssue({ code: "custom", message: "must be an absolute https URL, such as https://example.com/thanks" });
    }
  });
