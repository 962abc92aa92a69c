import { expect, test } from "@playwright/test";
import { cli } from "../cli";
import { expectNoSeriousA11yViolations, screenshot, signIn, uniqueEmail } from "../helpers";

/**
 * A staff member changes their own login on /account: name, password (the old one then fails, the
 * new one signs in), email (signed out, signed in again with the new one). A login of its own, so
 * that the owner's, which every other spec signs in with, stays as it is.
 */
test("a member changes their name, password and email on Your account", async ({ page }) => {
  const email = uniqueEmail("account");
  const first = "first-password-123";
  cli(["users", "create", "--email", email, "--password", first, "--role", "developer"]);
  await signIn(page, { email, password: first });

  await page.getByRole("link", { name: "Your account" }).first().click();
  await page.waitForURL("**/account");
  await expect(page).toHaveTitle(/Your account/);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expectNoSeriousA11yViolations(page, "account");
  await screenshot(page, "account");
  // At a phone's width and in dark mode too.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoSeriousA11yViolations(page, "account: phone, dark");
  await screenshot(page, "account-phone-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Name: no password asked.
  const profile = page.getByRole("form", { name: "Profile" });
  await profile.getByLabel("Name").fill("Maya Chen");
  await profile.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Name saved." })).toBeVisible();

  // Password: a wrong current password is refused beside its field; mismatched new ones too.
  const password = page.getByRole("form", { name: "Password" });
  await password.getByLabel("Current password").fill("not-my-password");
  await password.getByRole("textbox", { name: "New password", exact: true }).fill("second-password-456");
  await password.getByLabel("New password again").fill("second-password-457");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByText("Enter the same new password twice.")).toBeVisible();
  await password.getByLabel("New password again").fill("second-password-456");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByText("The current password is not correct.")).toBeVisible();
  await expect(password.getByLabel("Current password")).toBeFocused();
  await screenshot(page, "account-password-error");
  await password.getByLabel("Current password").fill(first);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toBeVisible();

  // Email: signs out; the new email and the new password sign in; the name was kept.
  const newEmail = uniqueEmail("account-new");
  const emailForm = page.getByRole("form", { name: "Email address" });
  await emailForm.getByLabel("Email").fill(newEmail);
  await emailForm.getByLabel("Current password").fill("second-password-456");
  await emailForm.getByRole("button", { name: "Change email" }).click();
  await page.waitForURL("**/sign-in**");
  await signIn(page, { email: newEmail, password: "second-password-456" });
  await page.goto("/account");
  await expect(page.getByRole("form", { name: "Profile" }).getByLabel("Name")).toHaveValue("Maya Chen");
  await expect(page.getByRole("form", { name: "Email address" }).getByLabel("Email")).toHaveValue(newEmail);
});

test("the dashboard links the API reference", async ({ page }) => {
  await signIn(page);
  const link = page.getByRole("link", { name: /API reference/ }).first();
  await expect(link).toHaveAttribute("href", "/docs/api");
  const response = await page.request.get("/docs/api");
  expect(response.status()).toBe(200);
});
