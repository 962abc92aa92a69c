/**
 * axe-core on every page of the product in its main states (issue #14): the dashboard's lists with
 * rows and empty, detail pages, open dialogs and forms showing their errors; the sign-in, 404 and
 * error-reference pages; the checkout and the customer portal. No serious or critical violation
 * anywhere, in light mode and (for a sample of pages) in dark mode.
 *
 * The data comes from the API, as a merchant's integration makes it: a subscription bought at the
 * checkout (customer, product, price, completed transaction), a manual transaction ready to bill,
 * a discount, a discount group and a notification destination.
 */
import { expect, type Page, test } from "@playwright/test";
import { makePng } from "../../lib/dev/test/images";
import { makeManualTransaction, sdk, subscribeAtCheckout } from "../api/sdk-helpers";
import { cliApiKey } from "../cli";
import { apiCall, expectNoSeriousA11yViolations, OWNER, signIn, uniqueEmail } from "../helpers";
import { baseURL } from "../playwright.config";

const DESKTOP = { width: 1280, height: 900 };

interface Seed {
  subscriptionId: string;
  customerId: string;
  productId: string;
  completedTransactionId: string;
  readyTransactionId: string;
  checkoutTransactionId: string;
  discountId: string;
  destinationId: string;
  portalOverview: string;
  paymentLinkId: string;
}
let seed: Seed;

async function api(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()).data;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const key = cliApiKey();
  const paddle = sdk(key);
  // A destination first, so that what follows leaves notifications in the log.
  const destination = await api(key, "POST", "/notification-settings", {
    description: "A11y receiver",
    destination: "http://127.0.0.1:9/webhooks",
    subscribed_events: ["transaction.created", "customer.created"],
  });
  const bought = await subscribeAtCheckout(paddle);
  const completed = await api(key, "GET", `/transactions?subscription_id=${bought.subscriptionId}`);
  const ready = await makeManualTransaction(paddle, `A11y product ${Date.now()}`, "a11y");
  const checkout = await paddle.transactions.create({
    items: [{ priceId: bought.price.id, quantity: 1 }],
    customerId: bought.customer.id,
    addressId: bought.address.id,
  });
  const discount = await paddle.discounts.create({ amount: "10", description: "A11y ten percent", type: "percentage" });
  await api(key, "POST", "/discount-groups", { name: `A11y group ${Date.now()}` });
  const link = await api(key, "POST", "/payment-links", { items: [{ price_id: bought.price.id, quantity: 1 }] });
  const session = await paddle.customerPortalSessions.create(bought.customer.id, [bought.subscriptionId]);
  // Deactivated once the seed's notifications exist: other specs' customers must not reach it.
  await api(key, "PATCH", `/notification-settings/${destination.id}`, { active: false });
  seed = {
    subscriptionId: bought.subscriptionId,
    customerId: bought.customer.id,
    productId: bought.product.id,
    completedTransactionId: completed[0].id,
    readyTransactionId: ready.id,
    checkoutTransactionId: checkout.id,
    discountId: discount.id,
    destinationId: destination.id,
    portalOverview: session.urls.general.overview,
    paymentLinkId: link.id,
  };
});

/** Waits until the page shows its data: a heading, no skeleton, no busy table. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole("heading").first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator(".animate-pulse")).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
}

/** Opens `path`, waits for its data and runs axe on it. */
async function check(page: Page, path: string, state = path): Promise<void> {
  await page.goto(path);
  await settled(page);
  await expectNoSeriousA11yViolations(page, state);
}

/** Clicks the button named `name` and checks the page with what it opened (a dialog, a panel). */
async function checkAfterClick(page: Page, name: string | RegExp, state: string): Promise<void> {
  await page.getByRole("button", { name }).first().click();
  await expectNoSeriousA11yViolations(page, state);
}

/** Submits the open form (its submit button named `submit`) empty, and checks it with its errors. */
async function checkFormErrors(page: Page, submit: string | RegExp, state: string): Promise<void> {
  await page.getByRole("button", { name: submit }).first().click();
  await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, state);
}

test("public pages: sign-in (with its error), 404 and the error reference", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await check(page, "/sign-in");
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, "sign-in with an error");

  await check(page, "/no-such-page", "404");
  await check(page, "/docs/errors");
  await page.getByRole("main").getByRole("link").first().click();
  await settled(page);
  await expectNoSeriousA11yViolations(page, "an error code's page");
});

test("customers and transactions: lists, empty lists, details, panels, dialogs and form errors", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page);

  await check(page, "/customers", "customers list");
  await checkAfterClick(page, "New customer", "customers: new customer panel");
  await checkFormErrors(page, "Create customer", "customers: new customer with errors");
  await page.goto("/customers");
  await settled(page);
  await page.getByRole("searchbox", { name: "Search customers" }).fill("no-such-customer-zzz");
  await expect(page.getByText("No customers match")).toBeVisible();
  await expectNoSeriousA11yViolations(page, "customers: empty list");
  await check(page, `/customers/${seed.customerId}`, "customer page");

  await check(page, "/transactions", "transactions list");
  await check(page, `/transactions/${seed.completedTransactionId}`, "completed transaction");
  await check(page, `/transactions/${seed.readyTransactionId}`, "ready transaction");
  await checkAfterClick(page, "Cancel transaction", "transaction: cancel dialog");
  await page.keyboard.press("Escape");
  await check(page, "/transactions/new", "new invoice");
});

test("subscriptions: list, empty list, detail and its dialogs", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await check(page, "/subscriptions", "subscriptions list");
  await page.getByLabel("Filter by customer ID or email").fill("no-such-customer-zzz@example.com");
  await expect(page.getByText(/^No (subscriptions|customer) match/)).toBeVisible();
  await expectNoSeriousA11yViolations(page, "subscriptions: empty list");
  await check(page, `/subscriptions/${seed.subscriptionId}`, "subscription page");
  await checkAfterClick(page, "Pause", "subscription: pause dialog");
  await page.keyboard.press("Escape");
  await checkAfterClick(page, "Change items", "subscription: change items dialog");
  await page.keyboard.press("Escape");
  await checkAfterClick(page, "Cancel subscription", "subscription: cancel dialog");
});

test("catalogue: products, discounts, discount groups", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await check(page, "/catalogue/products", "products list");
  await checkAfterClick(page, "New product", "products: new product panel");
  await checkFormErrors(page, "Create product", "products: new product with errors");
  await check(page, `/catalogue/products/${seed.productId}`, "product page");
  await checkAfterClick(page, "Add price", "product: new price panel");
  await check(page, "/catalogue/discounts", "discounts list");
  await checkAfterClick(page, "New discount", "discounts: new discount panel");
  await check(page, `/catalogue/discounts/${seed.discountId}`, "discount page");
  await check(page, "/catalogue/discount-groups", "discount groups list");
  await page.getByLabel("Status").selectOption({ label: "Archived" });
  await settled(page);
  await expectNoSeriousA11yViolations(page, "discount groups: empty list");
  await check(page, "/catalogue/payment-links", "payment links list");
  await checkAfterClick(page, "New payment link", "payment links: new link panel");
  await check(page, `/pay/${seed.paymentLinkId}`, "a payment link's public page");
  await checkFormErrors(page, "Continue to payment", "payment link page with errors");
});

test("notifications, metrics, reports, developers and settings", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await check(page, "/notifications/destinations", "destinations list");
  await checkAfterClick(page, "New destination", "destinations: new destination panel");
  await check(page, `/notifications/destinations/${seed.destinationId}`, "destination page");
  await check(page, "/notifications/log", "notification log");
  const firstNotification = page.getByRole("table").getByRole("link").first();
  if ((await firstNotification.count()) > 0) {
    await firstNotification.click();
    await page.waitForURL(/\/notifications\/log\/ntf_/);
    await settled(page);
    await expectNoSeriousA11yViolations(page, "notification page");
  }
  await check(page, "/notifications/simulator", "simulator");

  await check(page, "/metrics", "metrics: charts");
  // Every chart's table view.
  for (const button of await page.getByRole("button", { name: /^Table/ }).all()) await button.click();
  await expectNoSeriousA11yViolations(page, "metrics: tables");
  await check(page, "/reports", "reports");
  await check(page, "/developers", "developers");
  await checkAfterClick(page, /Create API key/, "developers: new key form");
  await check(page, "/settings", "settings");
  // With a logo: its preview, Replace and Remove, and the removal's confirmation.
  const png = makePng(240, 80).toString("base64");
  await api(cliApiKey(), "PUT", "/account-settings/logo", { content_type: "image/png", data: png });
  await check(page, "/settings", "settings: with a logo");
  await checkAfterClick(page, "Remove logo", "settings: remove the logo (confirmation)");
  await api(cliApiKey(), "DELETE", "/account-settings/logo");
});

test("home, the global search, the emails log and a hosted invoice page", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await check(page, "/", "home");
  await page.keyboard.press("Control+k");
  await page.getByRole("combobox", { name: /Find customers/ }).fill("a11y");
  await expect(page.getByRole("option").first()).toBeVisible({ timeout: 15_000 });
  await expectNoSeriousA11yViolations(page, "global search with results");
  await page.keyboard.press("Escape");
  await check(page, "/emails", "emails log");

  const key = cliApiKey();
  const invoice = await makeManualTransaction(sdk(key), `A11y invoice ${Date.now()}`, "a11y-invoice");
  await api(key, "PATCH", `/transactions/${invoice.id}`, { status: "billed" });
  const link = await api(key, "GET", `/transactions/${invoice.id}/invoice-link`);
  await check(page, new URL(link.url).pathname, "hosted invoice page");
});

test("team with an invitation pending, the audit log (with filters), sorted lists and the invitation page", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  const invite = await apiCall<{ url: string }>(page, "POST", "/api/team/invites", {
    email: uniqueEmail("a11y-invited"),
    role: "viewer",
  });
  await check(page, "/team", "team with an invitation pending");
  await expect(page.getByRole("table", { name: "Pending invitations" })).toBeVisible();
  await check(page, "/audit-log", "audit log");
  await expect(page.getByRole("table", { name: "Audit log" }).locator("tbody tr").first()).toBeVisible();
  await check(page, "/audit-log?actor_type=user&action=POST%20%2Fapi%2Fteam*&from=2020-01-01", "audit log filtered");
  await expect(page.getByRole("table", { name: "Audit log" }).locator("tbody tr").first()).toBeVisible();
  await check(page, "/audit-log?entity_id=ctm_00000000000000000000000000", "audit log: nothing matches");
  // Sort buttons in the headers, one of them active.
  await check(page, "/transactions?order_by=billed_at%5BASC%5D", "transactions sorted by billed date");
  await check(page, "/catalogue/products?order_by=name%5BDESC%5D", "products sorted by name");

  // The invitation page is public: a fresh browser, no session.
  const fresh = await browser.newContext();
  const invitee = await fresh.newPage();
  await invitee.setViewportSize(DESKTOP);
  await check(invitee, new URL(invite.url).pathname, "invitation page");
  await expect(invitee.getByRole("button", { name: "Join and sign in" })).toBeVisible();
  await invitee.getByRole("button", { name: "Join and sign in" }).click();
  await expectNoSeriousA11yViolations(invitee, "invitation page after an empty submit");
  await check(invitee, `/invite/${"A".repeat(43)}`, "invitation page with an unknown token");
  await expect(invitee.getByRole("main").getByRole("alert")).toContainText("not valid");
  await check(invitee, "/invite/not-a-token", "invitation page with a malformed token");
  await fresh.close();
});

test("the checkout (with its errors) and the customer portal", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await check(page, `/checkout?_ptxn=${seed.checkoutTransactionId}`, "checkout");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, "checkout with errors");
  await check(page, "/checkout?_ptxn=txn_00000000000000000000000000", "checkout of an unknown transaction");

  await check(page, "/portal/overview", "portal without a link");
  await page.goto(seed.portalOverview);
  await settled(page);
  await expectNoSeriousA11yViolations(page, "portal overview");
  await check(page, "/portal/payments", "portal payments");
  await check(page, "/portal/billing", "portal billing details");
  await check(page, `/portal/subscriptions/${seed.subscriptionId}/cancel`, "portal cancel");
  await check(page, `/portal/subscriptions/${seed.subscriptionId}/update-payment-method`, "portal update card");
});

test("dark mode: a sample of pages", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: "dark" });
  await check(page, "/sign-in", "dark: sign-in");
  await check(page, `/checkout?_ptxn=${seed.checkoutTransactionId}`, "dark: checkout");
  await signIn(page);
  await check(page, "/customers", "dark: customers list");
  await check(page, `/transactions/${seed.completedTransactionId}`, "dark: transaction page");
  await check(page, `/subscriptions/${seed.subscriptionId}`, "dark: subscription page");
  await checkAfterClick(page, "Cancel subscription", "dark: cancel dialog");
  await check(page, "/metrics", "dark: metrics");
  await check(page, "/settings", "dark: settings");
  await check(page, "/developers", "dark: developers");
});
