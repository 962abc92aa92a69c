/**
 * The Developers page's checkout domains, as a person uses them: add a domain (a bad one is refused
 * beside the field), see it listed, and from then on only its pages may use a client-side token;
 * delete it after a confirmation, and every page may again. A viewer sees the list but changes
 * nothing. axe-clean in each state.
 */
import { expect, type Page, test } from "@playwright/test";
import { cli, cliApiKey } from "../cli";
import { expectNoSeriousA11yViolations, screenshot, shot, signIn, uniqueEmail } from "../helpers";

async function openDevelopers(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Developers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
}

/** Other specs call /js-api without an Origin: no domain may be left behind, whatever happens here. */
test.afterEach(async ({ request }) => {
  const key = cliApiKey(["checkout_domain.write"]);
  const headers = { Authorization: `Bearer ${key}` };
  const list = await (await request.get("/api/checkout-domains?per_page=200", { headers })).json();
  for (const domain of list.data ?? []) await request.delete(`/api/checkout-domains/${domain.id}`, { headers });
});

test("add a checkout domain, only its pages may use a token; delete it with confirmation", async ({
  page,
  request,
}) => {
  await signIn(page);
  const token = (
    await page.evaluate(async () => {
      const response = await fetch("/api/client-tokens", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Checkout domains spec" }),
      });
      return (await response.json()).data;
    })
  ).token as string;
  const preview = (origin: string) =>
    request.post("/js-api/pricing-preview", {
      headers: { Authorization: `Bearer ${token}`, Origin: origin },
      data: { items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }] },
    });
  // No domain yet: any website's page may (the unknown price is a field error, not a refusal).
  expect((await preview("https://elsewhere.example")).status()).toBe(400);

  await openDevelopers(page);
  const section = page.getByRole("region", { name: "Checkout domains" });
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByText("No checkout domains yet")).toBeVisible();
  await expectNoSeriousA11yViolations(page, "developers, no checkout domains");

  // A URL is not a domain: refused beside the field, the input kept.
  await section.getByRole("button", { name: "Add checkout domain" }).first().click();
  const form = page.getByRole("form", { name: "Add checkout domain" });
  const field = form.getByLabel("Domain");
  await expect(field).toBeFocused();
  await field.fill("https://shop.example.com/pricing");
  await form.getByRole("button", { name: "Add domain" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveValue("https://shop.example.com/pricing");
  await expectNoSeriousA11yViolations(page, "add checkout domain, field error");
  await shot(page, "checkout-domains-form-error");

  const domain = `shop-${Date.now().toString(36)}.example.com`;
  await field.fill(domain.toUpperCase());
  await form.getByRole("button", { name: "Add domain" }).click();
  await expect(form).toBeHidden();
  const table = section.getByRole("table", { name: "Checkout domains" });
  const row = table.getByRole("row").filter({ hasText: domain });
  await expect(row).toContainText("approved");
  await expect(row).toContainText("unverified");
  await expectNoSeriousA11yViolations(page, "developers, one checkout domain");
  await shot(page, "checkout-domains-listed");

  // Only the domain's pages now.
  expect((await preview(`https://${domain}`)).status()).toBe(400);
  const refused = await preview("https://elsewhere.example");
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("forbidden");

  // Delete: a confirmation first (Escape cancels), then it is gone and every page may again.
  await row.getByRole("button", { name: `Delete ${domain}` }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this checkout domain?" });
  await expect(dialog).toContainText(domain);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectNoSeriousA11yViolations(page, "delete checkout domain dialog");
  await screenshot(page, "checkout-domains-delete-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: `Delete ${domain}` }).click();
  await dialog.getByRole("button", { name: "Delete domain" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(section.getByText("No checkout domains yet")).toBeVisible();
  expect((await preview("https://elsewhere.example")).status()).toBe(400);

  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await shot(page, "checkout-domains-390");
});

test("a viewer sees the checkout domains; adding is disabled with the reason, no delete", async ({ page }) => {
  const email = uniqueEmail("viewer-domains");
  cli(["users", "create", "--email", email, "--password", "e2e-staff-password", "--role", "viewer"]);
  const domain = `viewer-${Date.now().toString(36)}.example.com`;
  await signIn(page);
  await page.evaluate(async (domain) => {
    await fetch("/api/checkout-domains", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain }),
    });
  }, domain);
  await page.context().clearCookies();
  await signIn(page, { email, password: "e2e-staff-password" });
  await openDevelopers(page);
  const section = page.getByRole("region", { name: "Checkout domains" });
  await expect(section.getByRole("row").filter({ hasText: domain })).toBeVisible();
  const add = section.getByRole("button", { name: "Add checkout domain" });
  await expect(add).toBeDisabled();
  await expect(add).toHaveAttribute("title", /Your role \(viewer\) cannot add checkout domains/);
  await expect(section.getByRole("button", { name: /^Delete/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, "developers as a viewer");
  await shot(page, "checkout-domains-viewer");
});
