/**
 * The Developers page's client-side tokens: create one, see and copy it, revoke it after a
 * confirmation, and it stops working; a viewer sees the tokens but no button that changes them.
 */
import { expect, test } from "@playwright/test";
import { cli } from "../cli";
import { screenshot, shot, signIn, uniqueEmail } from "../helpers";

async function openDevelopers(page: import("@playwright/test").Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Developers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
}

test("create a client-side token, copy it, revoke it with confirmation; it stops working", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await signIn(page);
  await openDevelopers(page);
  const section = page.getByRole("region", { name: "Client-side tokens" });
  await expect(section).toBeVisible();

  // Field errors beside the field, input kept.
  // The header's button (an empty list has one of its own).
  await section.getByRole("button", { name: "Create client-side token" }).first().click();
  const form = page.getByRole("form", { name: "Create client-side token" });
  await expect(form.getByLabel("Name")).toBeFocused();
  await form.getByLabel("Description").fill("Kept after the error");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Description")).toHaveValue("Kept after the error");
  await shot(page, "client-tokens-form-error");

  const name = `Pricing page ${Date.now()}`;
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Description").fill("Marketing site");
  await form.getByRole("button", { name: "Create token" }).click();

  const created = section.getByRole("region", { name: `Client-side token “${name}” created` });
  await expect(created).toBeVisible();
  const token = await created.getByLabel("Token", { exact: true }).inputValue();
  expect(token).toMatch(/^test_[0-9a-f]{27}$/);
  await expect(created.locator("pre")).toContainText(`Billing.init({ token: "${token}" })`);
  await created.getByRole("button", { name: "Copy client-side token" }).click();
  await expect(created.getByRole("status")).toHaveText("Copied to clipboard");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await shot(page, "client-tokens-created");

  const table = section.getByRole("table", { name: "Client-side tokens" });
  const row = table.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(token);
  await expect(row).toContainText("active");
  await expect(row).toContainText("Marketing site");

  const preview = () =>
    request.post("/js-api/pricing-preview", {
      headers: { Authorization: `Bearer ${token}` },
      data: { items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }] },
    });
  // The token is accepted (the unknown price is a field error, not an authentication error).
  expect((await preview()).status()).toBe(400);

  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toBeHidden();

  // Revoke: a confirmation first (Escape cancels), then the token stops working.
  await row.getByRole("button", { name: `Revoke token ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke this client-side token?" });
  await expect(dialog).toContainText(token);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "client-tokens-revoke-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("active");

  await row.getByRole("button", { name: `Revoke token ${name}` }).click();
  await dialog.getByRole("button", { name: "Revoke token" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button", { name: `Revoke token ${name}` })).toHaveCount(0);
  const refused = await preview();
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("invalid_client_token");

  await shot(page, "developers-client-tokens");
  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await shot(page, "developers-client-tokens-390");
});

test("a viewer sees client-side tokens, create disabled with the reason, no revoke; API keys hidden", async ({
  page,
}) => {
  // One token exists (made by the owner through the CLI's key, as an integration would).
  const email = uniqueEmail("viewer");
  cli(["users", "create", "--email", email, "--password", "e2e-staff-password", "--role", "viewer"]);
  await signIn(page);
  await page.evaluate(async () => {
    await fetch("/api/client-tokens", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Seen by the viewer" }),
    });
  });
  await page.context().clearCookies();
  await signIn(page, { email, password: "e2e-staff-password" });
  await openDevelopers(page);
  const section = page.getByRole("region", { name: "Client-side tokens" });
  await expect(section.getByRole("row").filter({ hasText: "Seen by the viewer" }).first()).toBeVisible();
  // Offered but disabled, with the reason (the dashboard's rule for what a role cannot do).
  const create = section.getByRole("button", { name: "Create client-side token" });
  await expect(create).toBeDisabled();
  await expect(create).toHaveAttribute("title", /Your role \(viewer\) cannot create client-side tokens/);
  await expect(section.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  // API keys: the role cannot see them; creating one is offered disabled, with the reason.
  const createKey = page.getByRole("button", { name: "Create API key" });
  await expect(createKey).toBeDisabled();
  await expect(createKey).toHaveAttribute("title", /Your role \(viewer\) cannot/);
  await expect(page.getByText("Your role cannot see API keys")).toBeVisible();
  await shot(page, "client-tokens-viewer");
});
