import type { TestProject } from "vitest/node";
import { EMBEDDED, embeddedFailure } from "../../cli/tasks.ts";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../db/embedded.ts";
import { applyMigrations } from "../../db/migrate.ts";
import { createDatabase, dropDatabase, TEMPLATE_DB } from "./database.ts";
import { prepareFamilyDocument } from "./family-openapi.ts";

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    templateDb: string;
  }
}

let embedded: EmbeddedDatabase | undefined;

export default async function setup(project: TestProject) {
  // Parsed once here and cached, so each test file reads JSON instead of 36,000 lines of YAML.
  prepareFamilyDocument();
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // The same server as `npm test` starts (lib/cli/test.ts), beside `npm start`'s.
    embedded = await startEmbeddedPostgres(EMBEDDED.test).catch((error: unknown) => {
      // The message says what happened and what to do; a stack trace would only bury it.
      const failure = embeddedFailure(error);
      failure.stack = failure.message;
      throw failure;
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
