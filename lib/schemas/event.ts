import { z } from "zod";
import { isEventType } from "../events/catalogue.ts";
import { csv, listQuery } from "./common.ts";

/** An event as `GET /events` returns it: the entity as it was right after the change. */
export const eventSchema = z.object({
  event_id: z.string(),
  event_type: z.string(),
  occurred_at: z.string(),
  data: z.unknown(),
});
export type Event = z.infer<typeof eventSchema>;

/** An entry of `GET /event-types` (lib/events/catalogue.ts EVENT_TYPES). */
export const eventTypeSchema = z.object({
  name: z.string(),
  description: z.string(),
  group: z.string(),
  available_versions: z.array(z.number().int()),
});

export const listEventsQuery = z.object({
  // Newest first unless asked otherwise, as in the API family.
  ...listQuery(["id"], "desc"),
  event_type: csv(z.string().refine(isEventType, "is not a known event type")).optional(),
  /**
   * Extension of ours: the events of these entities (the ID of the entity an event is about, such
   * as a `txn_` ID), matched on the indexed `events.entity_id` column, not inside the payload.
   */
  entity_id: csv(z.string().regex(/^[a-z]+_[a-z0-9]{26}$/, "must be an entity ID, such as txn_01h…")).optional(),
});
export type ListEventsQuery = z.infer<typeof listEventsQuery>;
