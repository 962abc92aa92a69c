/**
 * `npm test`: the whole suite. Unit and integration tests (vitest, real PostgreSQL), then the
 * Playwright suite (API over HTTP and the dashboard in Chromium) against `next start`.
 * DATABASE_URL names the PostgreSQL server to use; without it an embedded one is started.
 */
import { parseArgs } from "node:util";
import { createDatabase } from "../dev/test/database.ts";
import { bin, buildIfStale, database, EMBEDDED, generate, run } from "./tasks.ts";

// Overridable so that several checkouts can run their suites side by side on one server.
export const E2E_DATABASE = process.env.E2E_DATABASE ?? "billing_e2e";
export const E2E_PORT = process.env.E2E_PORT ?? "3100";

export async function runTests(argv: string[]): Promise<number> {
  // Positionals narrow both runners to the files named (`npm test -- --skip-unit e2e/ui/portal.spec.ts`).
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { "skip-unit": { type: "boolean" }, "skip-e2e": { type: "boolean" } },
  });
  await generate();
  // The test suite's own embedded server (when DATABASE_URL is unset), so that it runs beside `npm start`.
  const { url, embedded } = await database(EMBEDDED.test);
  try {
    let failed = 0;
    // The production build (minutes) runs beside the unit tests rather than after them: on two
    // cores the pair finishes sooner than one after the other. Its failure is reported before e2e.
    const building = values["skip-e2e"]
      ? null
      : buildIfStale().then(
          () => null,
          (error: unknown) => error,
        );
    if (!values["skip-unit"]) {
      const code = await run(bin("vitest"), ["run", "--config", "lib/dev/test/vitest.config.ts", ...positionals], {
        ...process.env,
        DATABASE_URL: url,
      });
      if (code !== 0) failed++;
    }
    if (!values["skip-e2e"]) {
      const buildError = await building;
      if (buildError) throw buildError;
      const e2eUrl = await createDatabase(url, E2E_DATABASE);
      const code = await run(bin("playwright"), ["test", "-c", "e2e/playwright.config.ts", ...positionals], {
        ...process.env,
        DATABASE_URL: e2eUrl,
        PORT: E2E_PORT,
      });
      if (code !== 0) failed++;
    }
    console.log(failed === 0 ? "\nAll test suites passed." : `\n${failed} test suite(s) failed.`);
    return failed === 0 ? 0 : 1;
  } finally {
    await embedded?.stop();
  }
}
