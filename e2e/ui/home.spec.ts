import { expect, test } from "@playwright/test";
import { apiCall, shot, signIn, uniqueEmail } from "../helpers";

test("sign-in lands on Home: revenue, what needs attention, recent activity in plain words, first steps", async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByRole("region", { name: "Revenue today" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Revenue this month" })).toContainText("completed transaction");
  await expect(page.getByRole("region", { name: "Needs attention" })).not.toContainText("Checking…");

  // A new customer shows in the activity, in plain words, linked to its page; the raw name on hover.
  const email = uniqueEmail("home");
  const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", { email });
  await page.reload();
  const activity = page.getByRole("list", { name: "Recent events" });
  const created = activity.getByRole("link", { name: "Customer created" }).first();
  await expect(created).toBeVisible();
  await expect(activity.locator('[title="customer.created"]').first()).toBeVisible();
  await shot(page, "home");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "home-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The checklist's steps lead to where each is done; a logo is one of them.
  const steps = page.getByRole("region", { name: "Get started" });
  const settings = await apiCall<{ logo_url: string | null }>(page, "GET", "/api/account-settings");
  if (settings.logo_url === null) {
    await expect(steps.getByRole("link", { name: /Upload your logo/ })).toHaveAttribute("href", "/settings");
  }
  if (await steps.isVisible()) {
    const link = steps.getByRole("link").first();
    const href = await link.getAttribute("href");
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
  }
  await page.goto(`/customers/${customer.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(email);
});
