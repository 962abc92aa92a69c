/** The event stream (`GET /events`): the outbox rows every change writes (lib/db/sql.ts). */

import { EVENT } from "../db/entities/event.ts";
import { type JsonPage, listJson, Params } from "../db/sql.ts";
import type { ListEventsQuery } from "../schemas/event.ts";
import { assertEventTypesVisible, visibleEventTypesSql } from "./event-visibility.ts";

/**
 * Every event `held` may see (lib/services/event-visibility.ts), newest first by default. Events
 * are not limited to the notification retention: the table is the outbox and keeps them all.
 */
export function listEvents(query: ListEventsQuery, held: ReadonlySet<string>): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (query.event_type) {
    // Named types are all visible or the request is refused: no further condition needed.
    assertEventTypesVisible(query.event_type, held);
    filters.push(params.oneOf("t.event_type", query.event_type));
  } else {
    const visible = visibleEventTypesSql("t.event_type", held, params);
    if (visible) filters.push(visible);
  }
  if (query.entity_id) filters.push(params.oneOf("t.entity_id", query.entity_id));
  return listJson(EVENT, { filters, params, orderBy: query.order_by, after: query.after, perPage: query.per_page });
}
