import { z } from "zod";
import { isEventType } from "../events/catalogue.ts";
import { csv, listQuery } from "./common.ts";
import { EVENT_SCHEMAS } from "./event-payloads.ts";

/**
 * An event as `GET /events` returns it: the entity as it was right after the change, typed by the
 * event type (lib/schemas/event-payloads.ts). Only tests and the OpenAPI document parse with it.
 */
export const eventSchema = z.discriminatedUnion(
  "event_type",
  Object.values(EVENT_SCHEMAS) as [z.ZodObject, ...z.ZodObject[]],
);
/** An event of any type, its `data` an object whose fields depend on `event_type`. */
export interface Event {
  event_id: string;
  event_type: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

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
