import path from "node:path";
import type { TestProject } from "vitest/node";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../db/embedded.ts";
import { applyMigrations } from "../db/migrate.ts";
import { createDatabase, dropDatabase, TEMPLATE_DB } from "./database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    templateDb: string;
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
  // A template of this run's own, so runs sharing a server (developers, CI) never collide.
  const template = `${TEMPLATE_DB}_${process.pid}`;
  const templateUrl = await createDatabase(serverUrl, template);
  await applyMigrations(templateUrl);
  project.provide("serverUrl", serverUrl);
  project.provide("templateDb", template);
  return async () => {
    await dropDatabase(serverUrl, template).catch(() => {});
    await embedded?.stop();
  };
}
