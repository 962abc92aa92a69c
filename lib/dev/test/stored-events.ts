/**
 * After each test file (lib/dev/test/setup.ts): every event the file's database holds matches its
 * type's payload schema strictly (lib/schemas/event-payloads.ts), so a producer whose event data
 * drifts from the entity's schema fails the file that made it, naming the event. Checked here, in
 * tests, never when an event is written.
 */
import type { z } from "zod";
import { query } from "../../db/sql.ts";
import { EVENT_DATA_SCHEMAS } from "../../schemas/event-payloads.ts";
import { strictProblems } from "../../schemas/strict.ts";

/**
 * Test files that insert bare events in bulk (`{ id }` as a customer.created's data) to load the
 * worker and the fan-out, not to test a payload: their events are not checked.
 */
const BARE_EVENT_FILES = [
  "lib/worker/restart.test.ts",
  "lib/worker/worker.test.ts",
  "lib/worker/worker-connections.test.ts",
];

/**
 * Entities whose events a test made carry a record it stored by hand in an older shape on purpose
 * (e.g. a payment recorded before a fix): their events are not checked in that file.
 */
const exemptEntities = new Set<string>();

export function exemptStoredEventsOf(entityId: string): void {
  exemptEntities.add(entityId);
}

export function checksStoredEvents(testPath: string | undefined): boolean {
  return !BARE_EVENT_FILES.some((file) => testPath?.replaceAll("\\", "/").endsWith(file));
}

/**
 * The first problem of each event that does not match its type's schema (at most `limit`), as
 * `evt_… transaction.updated: payments.0.amount: …`. Events with the same type and the same data
 * (a change announced twice) are checked once.
 */
export async function storedEventProblems(limit = 20): Promise<string[]> {
  const rows = await query<{ id: string; event_type: string; data: string }>(
    "SELECT id, event_type, data::text AS data FROM events ORDER BY id",
  );
  const checked = new Map<z.ZodType, Set<string>>();
  const problems: string[] = [];
  for (const row of rows) {
    if (exemptEntities.size > 0 && exemptEntities.has((JSON.parse(row.data) as { id?: string }).id ?? "")) continue;
    const schema = EVENT_DATA_SCHEMAS[row.event_type];
    if (!schema) {
      problems.push(`${row.id} ${row.event_type}: not an event type of the catalogue (lib/events/catalogue.ts)`);
    } else {
      const seen = checked.get(schema) ?? new Set<string>();
      checked.set(schema, seen);
      if (seen.has(row.data)) continue;
      seen.add(row.data);
      const [first] = strictProblems(schema, JSON.parse(row.data));
      if (first) problems.push(`${row.id} ${row.event_type}: ${first}`);
    }
    if (problems.length >= limit) break;
  }
  return problems;
}
