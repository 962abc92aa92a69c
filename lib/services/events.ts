/** The event stream (`GET /events`): the outbox rows every change writes (lib/db/sql.ts, lib/events/outbox.ts). */
import { type EntityTable, type JsonPage, listJson, Params, ts } from "../db/sql.ts";
import type { Event, ListEventsQuery } from "../schemas/event.ts";

/** An event as the API family returns it; `data` is the entity as stored with the event, as is. */
export const EVENT: EntityTable<Event> = {
  table: "events",
  fields: [
    ["event_id", "t.id"],
    ["event_type", "t.event_type"],
    ["occurred_at", ts("t.occurred_at")],
    ["data", "t.data"],
  ],
};

/**
 * Every event, newest first by default. Events are not limited to the notification retention: the
 * table is the outbox and keeps them all.
 */
export function listEvents(query: ListEventsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (query.event_type) filters.push(params.oneOf("t.event_type", query.event_type));
  if (query.entity_id) filters.push(params.oneOf("t.entity_id", query.entity_id));
  return listJson(EVENT, { filters, params, orderBy: query.order_by, after: query.after, perPage: query.per_page });
}
