/**
 * Subscriptions in the dashboard: found in the list by the customer's email (listed by name), paused at period end
 * (the banner) and the pause taken back, a quantity changed after reading the proration preview,
 * the sandbox test clock run to the next renewal (its transaction in the timeline), canceled; the
 * customer's page shows the subscription, the saved card and the credit balance; a viewer sees it
 * all with no write button. Subscriptions are bought at the checkout, as e2e/api/sdk-helpers.ts does.
 */
import { expect, type Page, test } from "@playwright/test";
import { sdk, subscribeAtCheckout } from "../api/sdk-helpers";
import { cli } from "../cli";
import { apiCall, screenshot, signIn, uniqueEmail } from "../helpers";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** A page's first data on a busy machine (the title waits for the customer's email). */
const LOADED = { timeout: 15_000 };

/** Closes the toasts (unless a dialog covers them); one that closes on its own meanwhile is fine. */
async function closeToasts(page: Page): Promise<void> {
  if ((await page.getByRole("dialog").count()) > 0) return;
  const dismiss = page.getByRole("button", { name: "Dismiss" });
  while ((await dismiss.count()) > 0)
    await dismiss
      .first()
      .click({ timeout: 2_000 })
      .catch(() => {});
}

/** Screenshots at desktop and phone widths (`<name>` and `<name>-phone`). */
async function shots(page: Page, name: string): Promise<void> {
  await closeToasts(page);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  // The phone's top bar is fixed: from the top, it is where it belongs in a full-page screenshot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

function viewer(): { email: string; password: string } {
  const email = uniqueEmail("viewer");
  cli(["users", "create", "--email", email, "--password", "e2e-staff-password", "--role", "viewer"]);
  return { email, password: "e2e-staff-password" };
}

test.describe.configure({ mode: "serial" });

let bought: Awaited<ReturnType<typeof subscribeAtCheckout>>;

test.beforeAll(async () => {
  bought = await subscribeAtCheckout(sdk(), { quantity: 1 });
});

test("find, pause, take back, change quantity, renew with the test clock and cancel a subscription", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Subscriptions" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Subscriptions" })).toBeVisible();
  // Counts per status beside the status buttons.
  await expect(page.getByRole("button", { name: /^Active \d+ subscriptions$/ })).toBeVisible();

  await page.getByLabel("Filter by customer ID or email").fill(bought.customer.email);
  const table = page.getByRole("table", { name: "Subscriptions" });
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText("$30.00/mo");
  await expect(page.getByRole("button", { name: "Active 1 subscriptions" })).toBeVisible();
  // Its product, and a next billing range that holds its renewal, keep it; a scheduled change does not.
  await page.getByLabel("Product or price").selectOption(bought.product.id);
  const nextMonth = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Next billing from").fill(new Date().toISOString().slice(0, 10));
  await page.getByLabel("to", { exact: true }).fill(nextMonth);
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Active 1 subscriptions" })).toBeVisible();
  await expect(table).not.toHaveAttribute("aria-busy", "true");
  await shots(page, "subscriptions-list");
  await page.getByLabel("Scheduled change").selectOption({ label: "Any scheduled change" });
  await expect(page.getByText("No subscriptions match")).toBeVisible();
  await page.getByLabel("Scheduled change").selectOption({ label: "Any or none" });
  await expect(table.getByRole("row")).toHaveCount(2);

  await table.getByRole("link", { name: "Ada Buyer subscription" }).click();
  await page.waitForURL(`**/subscriptions/${bought.subscriptionId}`);
  await expect(page.getByRole("heading", { level: 1, name: `Ada Buyer · ${bought.product.name}` })).toBeVisible(LOADED);
  await expect(page.getByRole("region", { name: "Next payment" })).toContainText("$30.00");
  await expect(page.getByRole("region", { name: "Details" })).toContainText("Visa •••• 4242");
  await shots(page, "subscription-detail");

  // Pause at the end of the period: the banner says when, and Remove takes it back.
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  const pause = page.getByRole("dialog", { name: "Pause this subscription?" });
  await expect(pause).toContainText("At the end of the billing period");
  await shots(page, "subscription-pause-dialog");
  await pause.getByRole("button", { name: "Pause at period end" }).click();
  await expect(pause).toBeHidden();
  const banner = page.getByRole("status").filter({ hasText: "Scheduled to pause on" });
  await expect(banner).toBeVisible();
  await expect(page.getByRole("region", { name: "Next payment" })).toContainText("No next payment");
  // Not "Next billed" for a renewal that will not happen.
  await expect(page.locator("dt").filter({ hasText: /^Pauses$/ })).toBeVisible();
  await expect(page.locator("dt").filter({ hasText: /^Next billed$/ })).toHaveCount(0);
  await shots(page, "subscription-scheduled-pause");

  await banner.getByRole("button", { name: "Remove scheduled pause" }).click();
  const remove = page.getByRole("dialog", { name: "Remove the scheduled pause?" });
  await remove.getByRole("button", { name: "Remove scheduled pause" }).click();
  await expect(remove).toBeHidden();
  await expect(page.getByText("Scheduled to pause on")).toHaveCount(0);

  // Change the quantity: the preview's summary before confirming.
  await page.getByRole("button", { name: "Change items" }).click();
  const items = page.getByRole("dialog", { name: "Change items" });
  await expect(items.getByRole("button", { name: "Apply change" })).toBeDisabled();
  await items.getByRole("spinbutton", { name: /^Quantity of / }).fill("3");
  await expect(items.getByLabel("Proration")).toHaveValue("prorated_immediately");
  const preview = items.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText("charged to Visa •••• 4242");
  await expect(preview).toContainText("Charged now");
  await expect(items.getByRole("button", { name: "Apply change" })).toBeEnabled();
  await shots(page, "subscription-items-dialog");
  await items.getByRole("button", { name: "Apply change" }).click();
  await expect(items).toBeHidden();
  await expect(page.getByRole("table", { name: "Items" }).getByRole("cell", { name: "3", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Next payment" })).toContainText("$90.00");

  // The test clock: to the next renewal, and its transaction on the timeline.
  const clock = page.getByRole("region", { name: "Test clock" });
  await clock.getByRole("button", { name: "Advance to next renewal" }).click();
  const happened = clock.getByRole("status", { name: "What happened" });
  await expect(happened).toContainText("1 new transaction", { timeout: 30_000 });
  await expect(happened).toContainText("Subscription recurring");
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline).toContainText("Subscription recurring transaction");
  await expect(timeline).toContainText("Subscription update transaction");
  await expect(timeline).toContainText("Subscription updated");
  await shots(page, "subscription-test-clock");

  // Down to one seat for the rest of the new period: a credit, kept as the customer's balance.
  await page.getByRole("button", { name: "Change items" }).click();
  const down = page.getByRole("dialog", { name: "Change items" });
  await down.getByRole("spinbutton", { name: /^Quantity of / }).fill("1");
  await expect(down.getByRole("region", { name: "Preview" })).toContainText("credited");
  await shots(page, "subscription-items-credit");
  await down.getByRole("button", { name: "Apply change" }).click();
  await expect(down).toBeHidden();
  await expect(page.getByRole("region", { name: "Next payment" })).toContainText("$30.00");

  // Advance some days: nothing due, nothing made.
  await clock.getByLabel("Days").fill("2");
  await clock.getByRole("button", { name: "Advance 2 days" }).click();
  await expect(happened).toContainText("No transaction was made.");

  // Cancel now.
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  const cancel = page.getByRole("dialog", { name: "Cancel this subscription?" });
  await cancel.getByLabel("Now").check();
  await expect(cancel).toContainText("Canceling is final");
  await shots(page, "subscription-cancel-dialog");
  await cancel.getByRole("button", { name: "Cancel now" }).click();
  await expect(cancel).toBeHidden();
  await expect(page.getByRole("region", { name: "Details" })).toContainText("Canceled");
  await expect(page.getByRole("button", { name: "Pause", exact: true })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Test clock" })).toHaveCount(0);
  await shots(page, "subscription-canceled");

  // The customer's page.
  await page.getByRole("region", { name: "Details" }).getByRole("link", { name: bought.customer.email }).click();
  await page.waitForURL(`**/customers/${bought.customer.id}`);
  await expect(page.getByRole("table", { name: "Subscriptions" })).toContainText("canceled");
  await expect(page.getByRole("table", { name: "Payment methods" })).toContainText("Visa •••• 4242");
  await expect(page.getByRole("table", { name: "Credit balances" })).toContainText("USD");
  await expect(page.getByRole("table", { name: "Transactions" })).toContainText("Subscription recurring");
  await shots(page, "customer-billing");

  await page.getByRole("button", { name: "Delete Visa •••• 4242" }).click();
  const del = page.getByRole("dialog", { name: "Delete this payment method?" });
  await expect(del).toContainText("deleted for good");
  await del.getByRole("button", { name: "Delete payment method" }).click();
  await expect(del).toBeHidden();
  await expect(page.getByRole("region", { name: "Payment methods" })).toContainText("No saved payment methods");
});

test("a refused action keeps the dialog open with the API's reason and what was entered", async ({ page }) => {
  const other = await subscribeAtCheckout(sdk(), { quantity: 2 });
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto(`/subscriptions/${other.subscriptionId}`);
  // The API refuses a resume date of a pause that ends before it starts (the period's end).
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  const pause = page.getByRole("dialog", { name: "Pause this subscription?" });
  await pause.getByLabel("Now").check();
  await pause.getByLabel("Resume on (optional)").fill("2020-01-01");
  await pause.getByRole("button", { name: "Pause now" }).click();
  await expect(pause.getByRole("alert")).toContainText("resume_at");
  await expect(pause.getByLabel("Resume on (optional)")).toHaveValue("2020-01-01");
  await expect(pause.getByLabel("Now")).toBeChecked();
  await shots(page, "subscription-refused");
  await pause.getByRole("button", { name: "Go back" }).click();
  await expect(pause).toBeHidden();
});

test("end a trial now, add a one-time charge, apply and remove a discount", async ({ page }) => {
  test.setTimeout(120_000);
  const trial = await subscribeAtCheckout(sdk(), { quantity: 1, trialDays: 14 });
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  const fee = `Setup fee ${Date.now()}`;
  await apiCall(page, "POST", "/api/prices", {
    product_id: trial.product.id,
    description: fee,
    unit_price: { amount: "1500", currency_code: "USD" },
  });
  const off = `Ten off ${Date.now()}`;
  const tenOff = await apiCall<{ id: string }>(page, "POST", "/api/discounts", {
    description: off,
    type: "percentage",
    amount: "10",
    recur: true,
  });

  await page.goto(`/subscriptions/${trial.subscriptionId}`);
  await expect(page.getByRole("heading", { level: 1, name: `Ada Buyer · ${trial.product.name}` })).toBeVisible(LOADED);
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText("trialing");
  await expect(details).toContainText("Trial");
  await page.getByRole("button", { name: "Activate now" }).click();
  const activate = page.getByRole("dialog", { name: "End the trial and activate now?" });
  await expect(activate).toContainText(/charged to (Visa •••• 4242|the saved payment method) now/);
  await expect(activate.getByTestId("charged-now")).toHaveText("$30.00");
  await shots(page, "subscription-activate-dialog");
  await activate.getByRole("button", { name: "Activate now" }).click();
  await expect(activate).toBeHidden();
  await expect(details).toContainText("active");

  // A one-time charge, billed now: its preview first.
  await page.getByRole("button", { name: "Add one-time charge" }).click();
  const charge = page.getByRole("dialog", { name: "Add a one-time charge" });
  await charge.getByLabel("Price").selectOption({ label: `${trial.product.name} · ${fee} · $15.00` });
  await expect(charge.getByRole("region", { name: "Preview" })).toContainText("$15.00");
  await shots(page, "subscription-charge-dialog");
  await charge.getByRole("button", { name: "Charge now" }).click();
  await expect(charge).toBeHidden();
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("Subscription charge transaction");

  // A discount from the next period, then removed.
  await page.getByRole("button", { name: "Apply discount" }).click();
  const discount = page.getByRole("dialog", { name: "Apply a discount" });
  await discount.getByLabel("Discount").selectOption(tenOff.id);
  await discount.getByRole("button", { name: "Apply discount" }).click();
  await expect(discount).toBeHidden();
  const section = page.getByRole("region", { name: "Discount" });
  await expect(section).toContainText(off);
  await expect(page.getByRole("region", { name: "Next payment" })).toContainText("$27.00");
  await shots(page, "subscription-discount");
  await section.getByRole("button", { name: "Remove discount" }).click();
  const removeDiscount = page.getByRole("dialog", { name: "Remove the discount?" });
  await removeDiscount.getByRole("button", { name: "Remove discount" }).click();
  await expect(removeDiscount).toBeHidden();
  await expect(section).toContainText("No discount.");
});

test("a viewer sees the subscription and the customer's billing with no write button", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const other = await subscribeAtCheckout(sdk(), { quantity: 1 });
  await signIn(page, viewer());
  await page.goto(`/subscriptions/${other.subscriptionId}`);
  await expect(page.getByRole("heading", { level: 1, name: `Ada Buyer · ${other.product.name}` })).toBeVisible(LOADED);
  await expect(page.getByRole("region", { name: "Next payment" })).toContainText("$30.00");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("Subscription created");
  for (const name of ["Pause", "Cancel subscription", "Change items", "Add one-time charge", "Apply discount"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole("region", { name: "Test clock" })).toHaveCount(0);
  await shots(page, "subscription-viewer");

  await page.goto(`/customers/${other.customer.id}`);
  await expect(page.getByRole("table", { name: "Payment methods" })).toContainText("Visa •••• 4242");
  await expect(page.getByRole("table", { name: "Subscriptions" })).toContainText("active");
  await expect(page.getByRole("button", { name: /^Delete / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Archive" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "New address" })).toHaveCount(0);
  await shots(page, "customer-viewer");
});
