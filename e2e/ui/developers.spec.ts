import { expect, test } from "@playwright/test";
import { screenshot, signIn } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Developers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
  await expect(page).toHaveTitle(/Developers/);
});

test("permissions: write ticks read, unticking read drops write, select all", async ({ page }) => {
  await page.getByRole("button", { name: "Create API key" }).click();
  const form = page.getByRole("form", { name: "Create API key" });
  await form.getByRole("checkbox", { name: "product.write" }).check();
  await expect(form.getByRole("checkbox", { name: "product.read" })).toBeChecked();
  await form.getByRole("checkbox", { name: "product.read" }).uncheck();
  await expect(form.getByRole("checkbox", { name: "product.write" })).not.toBeChecked();
  await form.getByRole("checkbox", { name: "Select all" }).check();
  await expect(form.getByRole("checkbox", { name: "customer_portal_session.write" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "metrics.read" })).toBeChecked();
  await form.getByRole("checkbox", { name: "Select all" }).uncheck();
  await expect(form.getByRole("checkbox", { name: "metrics.read" })).not.toBeChecked();

  // No permission: the server's error sits beside the permissions.
  await form.getByLabel("Name").fill("No permissions");
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByRole("group", { name: "Permissions" })).toHaveAccessibleDescription(/at least one permission/);
  await screenshot(page, "developers-create-form");
});

test("create a key, see it once, copy it, use it, revoke it, and it stops working", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const name = `E2E key ${Date.now()}`;

  await page.getByRole("button", { name: "Create API key" }).click();
  const form = page.getByRole("form", { name: "Create API key" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Description").fill("Made by the Playwright suite");
  await form.getByRole("checkbox", { name: "customer.write" }).check();
  await expect(form.getByRole("checkbox", { name: "customer.read" })).toBeChecked();
  await form.getByRole("checkbox", { name: "address.read" }).check();
  await form.getByRole("button", { name: "Create key" }).click();

  // Shown once, with a warning and a copy button.
  const panel = page.getByRole("region", { name: `API key “${name}” created` });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("alert")).toContainText("It will not be shown again");
  const key = await panel.getByLabel("New API key").inputValue();
  expect(key).toMatch(/^svc_apikey_sdbx_/);
  expect(key).toHaveLength(69);
  await panel.getByRole("button", { name: "Copy API key" }).click();
  await expect(panel.getByRole("status")).toHaveText("Copied to clipboard");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await screenshot(page, "developers-new-key");

  const table = page.getByRole("table", { name: "API keys" });
  const row = table.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("3 permissions");
  await expect(row).toContainText("active");
  await expect(row).toContainText(`…${key.slice(-4)}`);
  await expect(row).not.toContainText(key);

  // The key works for what it was given, and only that.
  const allowed = await request.get("/api/customers", { headers: { Authorization: `Bearer ${key}` } });
  expect(allowed.status()).toBe(200);
  const forbidden = await request.get("/api/api-keys", { headers: { Authorization: `Bearer ${key}` } });
  expect(forbidden.status()).toBe(403);

  // Dismissed, the key is gone from the page for good.
  await panel.getByRole("button", { name: "I have stored the key" }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByText(key)).toHaveCount(0);
  await page.reload();
  await expect(row).toContainText("active");
  await expect(page.locator(`input[value="${key}"]`)).toHaveCount(0);

  // Revoke: the dialog traps focus and Escape cancels; confirming revokes.
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke this API key?" });
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Revoke key" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "developers-revoke-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("active");

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  await screenshot(page, "developers");

  const refused = await request.get("/api/customers", { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("invalid_token");

  // The status filter shows it among the revoked keys only.
  await page.getByLabel("Status").selectOption({ label: "Revoked" });
  await expect(table.getByRole("row").filter({ hasText: name })).toBeVisible();
  await page.getByLabel("Status").selectOption({ label: "Active" });
  await expect(table.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});
