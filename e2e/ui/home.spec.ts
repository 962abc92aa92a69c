import { expect, test } from "@playwright/test";
import { apiCall, createBuyer, shot, signIn, uniqueEmail } from "../helpers";

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
  // "New customer <email>", the email linking to the customer's page.
  const created = activity.getByRole("link", { name: email }).first();
  await expect(created).toBeVisible();
  await expect(created).toHaveAttribute("href", `/customers/${customer.id}`);
  await expect(activity.locator('[title="customer.created"]', { hasText: email })).toContainText(
    `New customer ${email}`,
  );
  await expect(activity.locator('[title="customer.created"]').first()).toBeVisible();
  await shot(page, "home");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "home-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The checklist's steps lead to where each is done. The suite's other specs share this account
  // and finish steps as they run, so the page is shown an account without a webhook destination:
  // the checklist is then known to show, with that step still to do.
  await page.route("**/api/notification-settings?*", (route) =>
    route.fulfill({
      json: {
        data: [],
        meta: { request_id: "e2e-home", pagination: { per_page: 1, next: "", has_more: false, estimated_total: 0 } },
      },
    }),
  );
  await page.reload();
  const steps = page.getByRole("region", { name: "Get started" });
  await expect(steps).toBeVisible();
  await expect(steps).toContainText(/\d of \d+ done/);
  // No spec leaves a logo behind (settings.spec removes its own): the logo step is still to do.
  await expect(steps.getByRole("link", { name: /Upload your logo/ })).toHaveAttribute("href", "/settings");
  const webhook = steps.getByRole("link", { name: "Add a webhook destination for events" });
  await expect(webhook).toHaveAttribute("href", "/notifications");
  await webhook.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await page.unroute("**/api/notification-settings?*");
  await page.goto(`/customers/${customer.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(email);
});

test("Home's failed payments count only unresolved failures and open exactly those transactions", async ({ page }) => {
  await signIn(page);
  const buyer = await createBuyer(page, "failed-payment");
  const txn = await apiCall<{ id: string }>(page, "POST", "/api/transactions", {
    items: [{ price_id: buyer.priceId, quantity: 1 }],
    customer_id: buyer.customerId,
    address_id: buyer.addressId,
  });
  const card = { cardholder_name: "Grace Hopper", expiry: "12/39", cvc: "123" };
  // A declined card at the hosted checkout (its public endpoint answers 201 with the failed attempt).
  await apiCall(page, "POST", `/api/checkout/${txn.id}/payments`, { ...card, number: "4000 0000 0000 0002" });

  await page.goto("/");
  const attention = page.getByRole("region", { name: "Needs attention" });
  await attention.getByRole("link", { name: "Failed payments" }).click();
  await expect(page).toHaveURL(/\/transactions\?payment=failed$/);
  await expect(page.getByLabel("Payment")).toHaveValue("failed");
  await page.getByLabel("Search transactions").fill(txn.id);
  await page.getByLabel("Search transactions").press("Enter");
  const table = page.getByRole("table", { name: "Transactions" });
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText(buyer.email);

  // Paid with another card: no longer a failure to look at.
  await apiCall(page, "POST", `/api/checkout/${txn.id}/payments`, { ...card, number: "4242 4242 4242 4242" });
  await page.reload();
  await expect(page.getByText("No transactions match")).toBeVisible();
});
