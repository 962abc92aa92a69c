import type { Event } from "../../schemas/event.ts";
import { type EntityTable, ts } from "../sql.ts";

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
