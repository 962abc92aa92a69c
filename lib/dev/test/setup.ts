/** Runs before each test file: the file gets a fresh database copied from the migrated template. */
import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { disconnectDb } from "../../db/connection.ts";
import { createDatabase, dropDatabase } from "./database.ts";

const serverUrl = inject("serverUrl");
const name = `billing_test_${randomBytes(6).toString("hex")}`;
process.env.DATABASE_URL = await createDatabase(serverUrl, name, inject("templateDb"));

afterAll(async () => {
  await disconnectDb();
  await dropDatabase(serverUrl, name);
});
