import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../db/embedded.ts";
import { applyMigrations } from "../db/migrate.ts";
import { createDatabase, TEMPLATE_DB } from "./database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
  }
}

let embedded: EmbeddedDatabase | undefined;

export default async function setup(project: TestProject) {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    embedded = await startEmbeddedPostgres({
      dir: path.resolve(import.meta.dirname, "../../.data/test-postgres"),
      port: 54339,
    });
    serverUrl = embedded.url;
  }
  const templateUrl = await createDatabase(serverUrl, TEMPLATE_DB);
  await applyMigrations(templateUrl);
  project.provide("serverUrl", serverUrl);
  return async () => {
    await embedded?.stop();
  };
}
