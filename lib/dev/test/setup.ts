/**
 * Runs before each test file: the file gets a fresh database copied from the migrated template.
 * After the file, every event it stored must match its type's payload schema (stored-events.ts).
 */
import { randomBytes } from "node:crypto";
import { afterAll, expect, inject } from "vitest";
import { disconnectDb } from "../../db/connection.ts";
import { createDatabase, dropDatabase } from "./database.ts";
import { checksStoredEvents, storedEventProblems } from "./stored-events.ts";

const serverUrl = inject("serverUrl");
const name = `billing_test_${randomBytes(6).toString("hex")}`;
const databaseUrl = await createDatabase(serverUrl, name, inject("templateDb"));
process.env.DATABASE_URL = databaseUrl;

afterAll(async () => {
  try {
    // On the file's own database, whatever connection a test left behind.
    await disconnectDb();
    process.env.DATABASE_URL = databaseUrl;
    const problems = checksStoredEvents(expect.getState().testPath) ? await storedEventProblems() : [];
    if (problems.length > 0) {
      throw new Error(
        `events stored by this file do not match their type's payload schema (lib/schemas/event-payloads.ts):\n  ${problems.join("\n  ")}`,
      );
    }
  } finally {
    await disconnectDb();
    await dropDatabase(serverUrl, name);
  }
});
