import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../../..");

export default defineConfig({
  root,
  resolve: { alias: { "@": root } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".next/**"],
    globalSetup: [path.join(root, "lib/dev/test/global-setup.ts")],
    setupFiles: [path.join(root, "lib/dev/test/setup.ts")],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: {
      BILLING_ENVIRONMENT: "sandbox",
      NEXTAUTH_SECRET: "test-secret-for-vitest-only-0123456789abcdef",
      // Tests call handlers directly, all from one "client": the rate limits' own tests turn them on.
      BILLING_RATE_LIMIT: "off",
      BILLING_RATE_LIMIT_PREVIEW: "off",
    },
  },
});
