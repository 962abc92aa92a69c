import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..");
const port = process.env.PORT ?? "3100";
export const baseURL = `http://localhost:${port}`;
/** The suite's loopback SMTP server (e2e/smtp-sink.ts): the app sends every email there. */
export const SMTP_PORT = Number(port) + 2000;
export const SMTP_MESSAGES_URL = `http://127.0.0.1:${SMTP_PORT + 1}/messages`;
/**
 * The suite's Stripe stand-in (lib/dev/stripe, port E2E_PORT + 2050: suites on ports 100 apart,
 * side by side, then use distinct ports for it and for the SMTP server's two): the app's STRIPE_API_URL and
 * STRIPE_JS_URL. Its account's keys are lib/dev/stripe/server.ts DEFAULT_ACCOUNT's; the app uses
 * Stripe only once a spec saves them (Settings → Payments), and a spec that does disconnects after.
 */
export const STRIPE_STAND_IN_URL = `http://127.0.0.1:${Number(port) + 2050}`;
export const STRIPE_WEBHOOK_SECRET = "whsec_e2e_stand_in_signing_secret";

// Debian's Chromium (apt-get install chromium); Playwright cannot download its own browsers here.
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: `${root}/e2e`,
  outputDir: `${root}/test-results`,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "api", testMatch: /api\/.*\.spec\.ts$/ },
    { name: "ui", testMatch: /ui\/.*\.spec\.ts$/, use: { browserName: "chromium" } },
  ],
  webServer: [
    {
      command: `${root}/node_modules/.bin/tsx ${root}/e2e/smtp-sink.ts ${SMTP_PORT} ${SMTP_PORT + 1}`,
      cwd: root,
      url: SMTP_MESSAGES_URL,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: `${root}/node_modules/.bin/tsx ${root}/lib/dev/stripe/cli.ts --port ${Number(port) + 2050} --webhook-url ${baseURL}/webhooks/stripe --webhook-secret ${STRIPE_WEBHOOK_SECRET}`,
      cwd: root,
      url: `${STRIPE_STAND_IN_URL}/_stand-in/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: `${root}/node_modules/.bin/tsx ${root}/lib/cli/main.ts start --port ${port}`,
      cwd: root,
      url: `${baseURL}/api/event-types`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...(process.env as Record<string, string>),
        BILLING_OWNER_EMAIL: "owner@example.com",
        BILLING_OWNER_PASSWORD: "e2e-owner-password",
        // The suite sends thousands of requests a minute from one address: limits on, set out of reach.
        BILLING_RATE_LIMIT: process.env.BILLING_RATE_LIMIT ?? "1000000",
        BILLING_RATE_LIMIT_PREVIEW: process.env.BILLING_RATE_LIMIT_PREVIEW ?? "1000000",
        // Every email goes out through SMTP, to the suite's loopback server (what a real setup does).
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        // Stripe is the local stand-in, never the real one; saved keys are sealed with a fixed test key.
        STRIPE_API_URL: STRIPE_STAND_IN_URL,
        STRIPE_SECRET_KEY: "",
        STRIPE_PUBLISHABLE_KEY: "",
        STRIPE_WEBHOOK_SECRET: "",
        STRIPE_JS_URL: `${STRIPE_STAND_IN_URL}/v3/`,
        BILLING_ENCRYPTION_KEY: process.env.BILLING_ENCRYPTION_KEY ?? "e2e0".repeat(16),
      },
    },
  ],
});
