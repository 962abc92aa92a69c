/**
 * Which events (and the notifications that carry them) a caller may see: those whose entity it may
 * read (lib/events/catalogue.ts eventReadPermission). Lists leave the others out; asking for them
 * by name (`event_type=`) or by ID is 403 forbidden naming the permission, as an `include` of an
 * entity the key may not read is.
 */

import type { Params } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { EVENT_TYPES, eventReadPermission, readableEventTypes } from "../events/catalogue.ts";

/**
 * An SQL condition on `column` (an event type) keeping the types `held` may see, or null when it
 * may see them all. Whichever list is shorter is written: a viewer (all but API key events) gets
 * `<> ALL(excluded)`, which keeps the walk of the primary key in order.
 */
export function visibleEventTypesSql(column: string, held: ReadonlySet<string>, params: Params): string | null {
  const readable = readableEventTypes(held);
  if (readable.length === EVENT_TYPES.length) return null;
  if (readable.length === 0) return "FALSE";
  const allowed = new Set(readable);
  const hidden = EVENT_TYPES.map((t) => t.name).filter((name) => !allowed.has(name));
  return readable.length <= hidden.length
    ? `${column} = ANY(${params.add(readable)}::text[])`
    : `${column} <> ALL(${params.add(hidden)}::text[])`;
}

/** Refuses (403 forbidden) when `held` may not see events of one of `eventTypes`. */
export function assertEventTypesVisible(eventTypes: readonly string[], held: ReadonlySet<string>): void {
  const missing = [...new Set(eventTypes.map(eventReadPermission).filter((p) => !held.has(p)))].sort();
  if (missing.length === 0) return;
  throw new ApiError(
    "forbidden",
    `You aren't permitted to see these events: their data needs the ${missing.join(", ")} permission${missing.length > 1 ? "s" : ""}.`,
  );
}
