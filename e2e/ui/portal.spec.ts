/**
 * The customer portal (issue #11), as a customer uses it in a browser with no dashboard session:
 * the checkout's recurring terms, a renewal declined into past_due by the sandbox's test clock, a
 * portal session made with the official SDK, the overview, an invoice download, the card updated
 * while past due (the subscription is active again), a cancel at the end of the period, billing
 * details, and the pages for expired, tampered and plain links. Screenshots of every page at
 * desktop and 390 px widths (e2e/screenshots/portal-*.png).
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { issueToken } from "../../lib/services/portal/tokens";
import { sdk } from "../api/sdk-helpers";
import { cliApiKey } from "../cli";
import { screenshot } from "../helpers";
import { baseURL } from "../playwright.config";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Screenshots of the page as it is, at desktop and phone widths. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `portal-${name}-desktop`);
  await page.setViewportSize(PHONE);
  await screenshot(page, `portal-${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel("Name on card").fill("Ada Buyer");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/39");
  await page.getByLabel("CVC").fill("123");
}

async function customerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  return context.newPage();
}

/** A new customer's ready transaction for a monthly 30.00 USD plan (with a trial of `trialDays`). */
async function planTransaction(trialDays?: number) {
  const paddle = sdk();
  const product = await paddle.products.create({ name: `Portal plan ${Date.now()}`, taxCategory: "standard" });
  const price = await paddle.prices.create({
    productId: product.id,
    description: "Monthly",
    unitPrice: { amount: "3000", currencyCode: "USD" },
    billingCycle: { interval: "month", frequency: 1 },
    ...(trialDays ? { trialPeriod: { interval: "day", frequency: trialDays } } : {}),
  });
  const customer = await paddle.customers.create({ email: `portal-${Date.now()}@example.com`, name: "Ada Buyer" });
  const address = await paddle.addresses.create(customer.id, { countryCode: "US", postalCode: "10001" });
  const txn = await paddle.transactions.create({
    items: [{ priceId: price.id, quantity: 1 }],
    customerId: customer.id,
    addressId: address.id,
  });
  return { paddle, product, customer, address, txn };
}

async function api(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()).data;
}

test("a past-due customer updates the card in the portal, downloads an invoice and cancels at period end", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { paddle, product, customer, txn } = await planTransaction();
  const page = await customerPage(browser);

  // The checkout shows what the subscription costs after today; the card that declines renewals pays now.
  await page.goto(`/checkout?_ptxn=${txn.id}`);
  const terms = page.getByTestId("recurring-terms");
  await expect(terms).toContainText("Then $30.00 every month");
  await expect(terms).toContainText("card will be saved");
  await shots(page, "checkout-terms");
  await fillCard(page, "4000 0000 0000 0341");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Payment successful")).toBeVisible();
  const subscriptionId = (await paddle.transactions.get(txn.id)).subscriptionId as string;
  expect(subscriptionId).toMatch(/^sub_/);

  // The renewal is declined: past due.
  const key = cliApiKey();
  const sub = await api(key, "GET", `/subscriptions/${subscriptionId}`);
  const advanced = await api(key, "POST", `/subscriptions/${subscriptionId}/test-clock/advance`, {
    to: new Date(Date.parse(sub.next_billed_at) + 60_000).toISOString(),
  });
  expect(advanced.status).toBe("past_due");

  // A portal session through the official SDK, in the family's shape.
  const session = await paddle.customerPortalSessions.create(customer.id, [subscriptionId]);
  expect(session.id).toMatch(/^cpls_/);
  expect(session.urls.subscriptions[0]!.id).toBe(subscriptionId);
  expect(session.urls.general.overview).toContain("/portal/overview?token=pga_");

  // The overview: the token leaves the address bar; the failed payment and what to do.
  await page.goto(session.urls.general.overview);
  await expect(page).toHaveURL(`${baseURL}/portal/overview`);
  await expect(page.getByTestId("portal-merchant")).toBeVisible();
  const card = page.getByTestId("subscription-card");
  await expect(card).toContainText(product.name);
  await expect(card.getByTestId("subscription-status")).toHaveText("Payment failed");
  await expect(card.getByRole("alert")).toContainText("Your last payment of $30.00 failed");
  await expect(card.getByTestId("payment-method")).toHaveText("Visa ending 0341 (expires 12/39)");
  await expect(card).toContainText("$30.00 every month");
  await shots(page, "overview-past-due");

  // Invoice download of the first payment.
  const downloaded = page.waitForEvent("download");
  await page
    .getByRole("link", { name: /^Download invoice/ })
    .first()
    .click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await (await download.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe("%PDF-");

  await page.getByRole("link", { name: "Payments" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await expect(page.getByTestId("payment-row")).toHaveCount(2);
  await shots(page, "payments");

  // Update the card while past due: the checkout of the past-due renewal; paying recovers.
  await page.getByRole("link", { name: "Subscriptions" }).click();
  await page.getByRole("link", { name: "Update card and pay" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Update payment method" })).toBeVisible();
  await shots(page, "update-payment-method");
  await page.getByRole("button", { name: "Pay with a new card" }).click();
  await page.waitForURL(/\/checkout\?_ptxn=txn_/);
  await expect(page.getByTestId("recurring-terms")).toContainText("Your subscription: $30.00 every month");
  await expect(page.getByTestId("total-due")).toHaveText("$30.00");
  await shots(page, "checkout-past-due");
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Payment successful")).toBeVisible();
  await page.goto("/portal/overview");
  await expect(card.getByTestId("subscription-status")).toHaveText("Active");
  await expect(card.getByTestId("payment-method")).toHaveText("Visa ending 4242 (expires 12/39)");
  await expect(card.getByRole("alert")).toHaveCount(0);
  await shots(page, "overview-active");

  // Cancel at the end of the period, after a confirmation.
  await card.getByRole("link", { name: "Cancel subscription" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Cancel subscription" })).toBeVisible();
  await expect(page.getByText(/ends at the end of the billing period, on/)).toBeVisible();
  await shots(page, "cancel");
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel your subscription?" });
  await expect(dialog).toBeVisible();
  await shots(page, "cancel-confirm");
  await dialog.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByTestId("cancel-done")).toContainText("You keep access until then");
  await shots(page, "cancel-done");
  const canceled = await api(key, "GET", `/subscriptions/${subscriptionId}`);
  expect(canceled.status).toBe("active");
  expect(canceled.scheduled_change.action).toBe("cancel");
  await page.getByRole("link", { name: "Back to your subscriptions" }).click();
  await expect(card.getByTestId("cancel-scheduled")).toBeVisible();
  await expect(card.getByRole("link", { name: "Cancel subscription" })).toHaveCount(0);

  // An unknown subscription ID, or no ID at all: not found, whatever the address says (another
  // customer's subscription answers the same: app/portal/portal.test.ts).
  const stranger = await planTransaction();
  await page.goto(`/portal/subscriptions/${stranger.txn.id.replace("txn_", "sub_")}/cancel`);
  await expect(page.getByText("This subscription is not one of yours")).toBeVisible();
  await page.goto("/portal/subscriptions/%3Cscript%3E/update-payment-method");
  await expect(page.getByText("This subscription is not one of yours")).toBeVisible();

  // Billing details: edit the address.
  await page.getByRole("link", { name: "Billing details" }).click();
  const address = page.getByRole("form", { name: "Billing address" });
  await address.getByLabel("Address line 1").fill("5 Portal Street");
  await address.getByLabel("City").fill("Albany");
  await address.getByRole("button", { name: "Save address" }).click();
  await expect(address.getByRole("status")).toHaveText("Saved.");
  await address.getByLabel("Postal code").fill("");
  await address.getByRole("button", { name: "Save address" }).click();
  await expect(address.getByText("is required for addresses in US")).toBeVisible();
  await expect(address.getByLabel("City")).toHaveValue("Albany");
  await shots(page, "billing-details");
});

test("expired, tampered and plain links each get a 4xx page that says what to do", async ({ browser }) => {
  test.setTimeout(120_000);
  const { paddle, customer, txn } = await planTransaction(14);
  const page = await customerPage(browser);

  // A trial at checkout: its length and what follows.
  await page.goto(`/checkout?_ptxn=${txn.id}`);
  await expect(page.getByTestId("recurring-terms")).toContainText("14 days free, then $30.00 every month");
  await shots(page, "checkout-trial");

  // Expired: made 25 hours ago with the server's own signing key (the same database).
  // Statuses: app/portal/link/problem-page.ts (410 expired, 403 otherwise).
  const expired = await issueToken("portal", customer.id, { now: Date.now() - 25 * 3_600_000 });
  const gone = await page.goto(`/portal/overview?token=${encodeURIComponent(expired.token)}`);
  expect(gone?.status()).toBe(410);
  await expect(page).toHaveURL(`${baseURL}/portal/link?reason=expired`);
  await expect(page.getByRole("heading", { level: 1, name: "This link has expired" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("open the billing link again to get a new one");
  await shots(page, "link-expired");

  const session = await paddle.customerPortalSessions.create(customer.id, []);
  const tampered = await page.goto(`${session.urls.general.overview.slice(0, -4)}AAAA`);
  expect(tampered?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "This link is not valid" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("exactly as it was sent");
  // Cut short, and garbage.
  for (const token of [session.urls.general.overview.split("token=")[1]!.slice(0, 30), "garbage%00%F0%9F%92%A9"]) {
    const refused = await page.goto(`/portal/overview?token=${token}`);
    expect(refused?.status(), token).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "This link is not valid" })).toBeVisible();
  }
  await shots(page, "link-invalid");

  // A plain management URL (a key without customer_portal_session.write) opened with no session.
  const subscriptionId = await (async () => {
    const res = await fetch(`${baseURL}/api/checkout/${txn.id}/payments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cardholder_name: "Ada", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" }),
    });
    expect(res.status).toBe(201);
    return (await paddle.transactions.get(txn.id)).subscriptionId as string;
  })();
  const plainKey = cliApiKey(["subscription.read"]);
  const plain = await api(plainKey, "GET", `/subscriptions/${subscriptionId}`);
  expect(plain.management_urls.cancel).toBe(`${baseURL}/portal/subscriptions/${subscriptionId}/cancel`);
  const fresh = await customerPage(browser);
  const plainPage = await fresh.goto(plain.management_urls.cancel);
  expect(plainPage?.status()).toBe(403);
  await expect(fresh.getByRole("heading", { level: 1, name: "Open this page from your account" })).toBeVisible();
  await expect(fresh.getByTestId("portal-merchant")).toBeVisible();
  await shots(fresh, "link-plain");

  // The session's link opens the trialing subscription's overview.
  await fresh.goto(session.urls.general.overview);
  await expect(fresh.getByTestId("subscription-status")).toHaveText("Free trial");
  await shots(fresh, "overview-trial");
});
