/**
 * The emailed event types have one home in TypeScript (EMAILED_EVENT_TYPES) and a twin in SQL
 * (`emails_wanted`, asked by the trigger that queues an event's email job): for every event type
 * of the catalogue, the two agree on whether it is emailed.
 */
import { expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { EVENT_TYPES } from "@/lib/events/catalogue";
import { EMAILED_EVENT_TYPES, isEmailedEventType } from "./templates";

it("emails_wanted agrees with EMAILED_EVENT_TYPES on every event type of the catalogue", async () => {
  const names = EVENT_TYPES.map((type) => type.name);
  for (const name of EMAILED_EVENT_TYPES) expect(names).toContain(name);
  const rows = await query<{ name: string; wanted: boolean }>(
    "SELECT name, emails_wanted(name) AS wanted FROM unnest($1::text[]) AS name",
    [names],
  );
  expect(rows.filter((row) => row.wanted).map((row) => row.name)).toEqual(names.filter(isEmailedEventType));
});
