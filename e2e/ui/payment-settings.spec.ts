/**
 * Settings → Payments against the suite's Stripe stand-in (e2e/playwright.config.ts starts it; the
 * app's STRIPE_API_URL points at it): connect Stripe with the stand-in's test keys, the secret never
 * shown again, "Test connection" naming the account, a refused key, and disconnecting.
 */
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { DEFAULT_ACCOUNT } from "../../lib/dev/stripe/server";
import { expectNoSeriousA11yViolations, shot, signIn } from "../helpers";

/** Disconnects Stripe: the suite expects no processor but the sandbox's. */
async function disconnect(page: Page) {
  const status = await page.evaluate(async () => (await fetch("/api/payment-settings", { method: "DELETE" })).status);
  expect(status).toBe(200);
}

// The settings page is long (every tax rate) and the suite's machines are shared: wait longer than 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });

// Each test saves keys, tests them against the stand-in and runs axe: slower than the suite's default.
test.describe.configure({ timeout: 180_000 });

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await disconnect(page);
});

test.afterEach(async ({ page }) => {
  await disconnect(page);
});

function payments(page: Page) {
  return page.getByRole("region", { name: "Payments" });
}

test("connect Stripe, test the connection, and disconnect", async ({ page }) => {
  await page.goto("/settings");
  const section = payments(page);
  await expect(section.getByTestId("active-processor")).toHaveText("Sandbox test cards (no processor connected)");
  await section.getByText("Webhook endpoint to register in Stripe").click();
  await expect(section.getByTestId("stripe-webhook-url")).toHaveText(/\/webhooks\/stripe$/);
  await expect(section.getByText("payment_intent.succeeded")).toBeVisible();
  await expectNoSeriousA11yViolations(page, "Settings → Payments, not connected");

  const form = page.getByRole("form", { name: "Connect Stripe" });
  // Live keys are refused in the sandbox, beside the field.
  await form.getByLabel("Secret key").fill("sk_live_standin_0000000000000000000000000000");
  await form.getByLabel("Publishable key").fill("pk_live_standin_0000000000000000000000000000");
  await form.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(form.getByLabel("Secret key")).toHaveAccessibleDescription(
    /is a live key, but this deployment is the sandbox/,
  );
  await expect(form.getByLabel("Secret key")).toBeFocused();

  await form.getByLabel("Secret key").fill(DEFAULT_ACCOUNT.secretKey);
  await form.getByLabel("Publishable key").fill(DEFAULT_ACCOUNT.publishableKey);
  await form.getByLabel("Webhook signing secret").fill("whsec_e2e_stand_in_signing_secret");
  await form.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(page.getByText("Stripe connected.")).toBeVisible();
  await expect(section.getByTestId("active-processor")).toHaveText("Stripe, test mode");
  await expect(section.getByText("sk_test_…0000")).toBeVisible();
  await expect(section.getByText(DEFAULT_ACCOUNT.publishableKey)).toBeVisible();

  // Saved secrets are never shown again: not in the page, not in the form, not after a reload.
  await page.reload();
  await expect(section.getByTestId("active-processor")).toHaveText("Stripe, test mode");
  const replace = page.getByRole("form", { name: "Replace the Stripe keys" });
  await expect(replace.getByLabel("Secret key")).toHaveValue("");
  await expect(replace.getByLabel("Webhook signing secret")).toHaveAccessibleDescription(
    /leave empty to keep the saved one/,
  );
  expect(await page.content()).not.toContain(DEFAULT_ACCOUNT.secretKey);
  expect(await page.content()).not.toContain("whsec_e2e_stand_in_signing_secret");

  await section.getByRole("button", { name: "Test connection" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Connected to" })).toHaveText(
    "Connected to Stand-in Test Shop (US), default currency USD, in test mode.",
  );
  await expectNoSeriousA11yViolations(page, "Settings → Payments, connected and tested");
  await section.scrollIntoViewIfNeeded();
  await shot(page, "settings-payments-connected");

  await section.getByRole("button", { name: "Disconnect Stripe" }).click();
  const dialog = page.getByRole("dialog", { name: "Disconnect Stripe?" });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, "the disconnect confirmation");
  await dialog.getByRole("button", { name: "Disconnect Stripe" }).click();
  await expect(page.getByText("Stripe disconnected.")).toBeVisible();
  await expect(section.getByTestId("active-processor")).toHaveText("Sandbox test cards (no processor connected)");
  await expect(page.getByRole("form", { name: "Connect Stripe" })).toBeVisible();
});

test("Test connection shows Stripe's refusal of a key in plain words", async ({ page }) => {
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Connect Stripe" });
  await form.getByLabel("Secret key").fill("sk_test_revoked_key_000000009999");
  await form.getByLabel("Publishable key").fill(DEFAULT_ACCOUNT.publishableKey);
  await form.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(page.getByText("Stripe connected.")).toBeVisible();
  const section = payments(page);
  await section.getByRole("button", { name: "Test connection" }).click();
  await expect(section.getByRole("alert")).toHaveText(
    "The secret key was refused by Stripe: Invalid API Key provided: sk_test_****9999.",
  );
  await shot(page, "settings-payments-refused-key");
});
