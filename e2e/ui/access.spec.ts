/**
 * Access in the dashboard, as staff of each role see it: a developer can only give a new API key
 * what the developer role has, a viewer does not see destinations' signing secrets, and failed
 * sign-ins make that address wait (a spoofed X-Forwarded-For changes nothing).
 */
import { expect, test } from "@playwright/test";
import { cli, cliApiKey } from "../cli";
import { screenshot, signIn, uniqueEmail } from "../helpers";

const PASSWORD = "e2e-staff-password";

function staff(role: "developer" | "viewer"): { email: string; password: string } {
  const email = uniqueEmail(role);
  cli(["users", "create", "--email", email, "--password", PASSWORD, "--role", role]);
  return { email, password: PASSWORD };
}

test("a developer's new key can only get the developer role's permissions", async ({ page, request }) => {
  await signIn(page, staff("developer"));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Developers" }).click();
  await page.getByRole("button", { name: "Create API key" }).click();
  const form = page.getByRole("form", { name: "Create API key" });
  await expect(form).toContainText("A key can only be given permissions that your role has");
  for (const name of ["customer.write", "transaction.write", "settings.write", "product.write"]) {
    await expect(form.getByRole("checkbox", { name })).toBeDisabled();
  }
  for (const name of ["customer.read", "api_key.write", "notification_setting.write"]) {
    await expect(form.getByRole("checkbox", { name })).toBeEnabled();
  }
  await form.getByRole("checkbox", { name: "Select all" }).check();
  await expect(form.getByRole("checkbox", { name: "customer.read" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "customer.write" })).not.toBeChecked();
  await screenshot(page, "access-developer-permissions");

  const name = `Developer key ${Date.now()}`;
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create key" }).click();
  const panel = page.getByRole("region", { name: `API key “${name}” created` });
  const key = await panel.getByLabel("New API key").inputValue();
  // The key reads customers but cannot write them.
  expect((await request.get("/api/customers", { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);
  const write = await request.post("/api/customers", {
    headers: { Authorization: `Bearer ${key}` },
    data: { email: uniqueEmail("nope") },
  });
  expect(write.status()).toBe(403);
});

test("a viewer sees a destination but not its signing secret", async ({ page, request }) => {
  const owner = cliApiKey();
  const created = await request.post("/api/notification-settings", {
    headers: { Authorization: `Bearer ${owner}` },
    data: {
      description: `Secret kept ${Date.now()}`,
      destination: "https://example.com/hooks",
      subscribed_events: ["customer.created"],
      // Inactive and deleted at the end: other specs count the notifications of new customers.
      active: false,
    },
  });
  expect(created.status()).toBe(201);
  const destination = (await created.json()).data;

  await signIn(page, staff("viewer"));
  await page.goto(`/notifications/destinations/${destination.id}`);
  await expect(page.getByRole("heading", { level: 1, name: destination.description })).toBeVisible();
  await expect(page.getByText("Hidden: only staff who can manage notification destinations")).toBeVisible();
  await expect(page.getByRole("button", { name: /Reveal/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Copy endpoint secret key/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rotate secret" })).toHaveCount(0);
  expect(await page.content()).not.toContain(destination.endpoint_secret_key);
  await screenshot(page, "access-viewer-destination");
  const deleted = await request.delete(`/api/notification-settings/${destination.id}`, {
    headers: { Authorization: `Bearer ${owner}` },
  });
  expect(deleted.status()).toBe(204);
});

test("failed sign-ins make the address wait, whatever X-Forwarded-For the client sends", async ({ page }) => {
  const email = uniqueEmail("guessed");
  await page.goto("/sign-in");
  // (Next's route announcer is an empty alert too.)
  const alert = page.getByRole("alert").filter({ hasText: /\S/ });
  const tryOnce = async (i: number) => {
    // A new forwarded address each time: not believed (no trusted proxy), so the same client.
    await page.setExtraHTTPHeaders({ "x-forwarded-for": `198.51.100.${i}` });
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(`wrong password ${i}`);
    const answered = page.waitForResponse((r) => r.url().includes("/api/auth/callback/credentials"));
    await page.getByRole("button", { name: "Sign in" }).click();
    await answered;
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
    await expect(alert).toBeVisible();
    return (await alert.textContent()) ?? "";
  };
  // Five free attempts, then waits that double from 1 s: one of the next few lands inside a wait.
  for (let i = 1; i <= 5; i++) expect(await tryOnce(i)).toBe("That email and password do not match a staff login.");
  const later: string[] = [];
  for (let i = 6; i <= 10 && !later.some((text) => text.startsWith("Too many")); i++) later.push(await tryOnce(i));
  expect(later.at(-1)).toMatch(/^Too many failed sign-ins\. Wait \d+ seconds?, then try again\.$/);
  await screenshot(page, "access-sign-in-throttled");
});
