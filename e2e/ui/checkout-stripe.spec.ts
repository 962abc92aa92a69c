/**
 * The hosted checkout through Stripe (issue 21 §3), in Chromium against the suite's Stripe stand-in
 * (its Stripe.js at STRIPE_JS_URL, its API at STRIPE_API_URL: e2e/playwright.config.ts). Stripe is
 * connected in Settings → Payments before the tests and disconnected after, as the rest of the suite
 * expects the sandbox's test cards. A customer, signed out, pays through the Payment Element:
 * a subscription with 4242; 3-D Secure passed; 3-D Secure failed and then paid with another card at
 * the same address; declines in plain words; and the portal's update-payment-method flow (a past-due
 * subscription recovered, then a new card saved with a SetupIntent). Card numbers never reach our
 * server, and the page reports no CSP violation. Screenshots at 1440 and 390 px
 * (e2e/screenshots/checkout-stripe-*.png).
 */
import { type Browser, expect as baseExpect, type Page, test } from "@playwright/test";
import { DEFAULT_ACCOUNT } from "../../lib/dev/stripe/server";
import { sdk } from "../api/sdk-helpers";
import { cliApiKey } from "../cli";
import {
  apiCall,
  createProductViaApi,
  expectNoSeriousA11yViolations,
  screenshot,
  signIn,
  uniqueEmail,
  uniqueTag,
} from "../helpers";
import { baseURL, STRIPE_WEBHOOK_SECRET } from "../playwright.config";

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const DESKTOP = { width: 1440, height: 1000 };
const PHONE = { width: 390, height: 844 };

let admin: Page;

async function connectStripeViaApi(page: Page) {
  await apiCall(page, "PUT", "/api/payment-settings", {
    secret_key: DEFAULT_ACCOUNT.secretKey,
    publishable_key: DEFAULT_ACCOUNT.publishableKey,
    webhook_secret: STRIPE_WEBHOOK_SECRET,
  });
}

async function disconnectStripe(page: Page) {
  const status = await page.evaluate(async () => (await fetch("/api/payment-settings", { method: "DELETE" })).status);
  expect(status).toBe(200);
}

test.beforeAll(async ({ browser }) => {
  admin = await browser.newPage();
  await signIn(admin);
  await disconnectStripe(admin);
  // Connected as an owner does it: Settings → Payments.
  await admin.goto("/settings");
  const form = admin.getByRole("form", { name: "Connect Stripe" });
  await form.getByLabel("Secret key").fill(DEFAULT_ACCOUNT.secretKey);
  await form.getByLabel("Publishable key").fill(DEFAULT_ACCOUNT.publishableKey);
  await form.getByLabel("Webhook signing secret").fill(STRIPE_WEBHOOK_SECRET);
  await form.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(admin.getByText("Stripe connected.")).toBeVisible();
});

test.afterAll(async () => {
  await disconnectStripe(admin);
  await admin.close();
});

interface Txn {
  id: string;
  status: string;
  checkout: { url: string };
  customer_id: string;
}

/** A ready transaction for a new US customer: one $49.50 item, or a $30.00 monthly plan. */
async function createTransaction(recurring = false): Promise<Txn> {
  const productId = await createProductViaApi(admin, { name: `Stripe gadget ${uniqueTag()}` }, [
    {
      description: "Internal",
      name: recurring ? "Monthly plan" : "One gadget",
      amount: recurring ? "3000" : "4950",
      currency_code: "USD",
      ...(recurring ? { interval: "month" } : {}),
    },
  ]);
  const [price] = await apiCall<{ id: string }[]>(admin, "GET", `/api/prices?product_id=${productId}`);
  const customer = await apiCall<{ id: string }>(admin, "POST", "/api/customers", {
    email: uniqueEmail("stripe-payer"),
    name: "Ada Lovelace",
  });
  const address = await apiCall<{ id: string }>(admin, "POST", `/api/customers/${customer.id}/addresses`, {
    postal_code: "10001",
    country_code: "US",
  });
  const txn = await apiCall<Txn>(admin, "POST", "/api/transactions", {
    items: [{ price_id: price!.id, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
  });
  expect(txn.status).toBe("ready");
  return txn;
}

/**
 * A signed-out customer's page that records CSP violations and every request body sent to our own
 * server (a card number must never be among them).
 */
async function customerPage(browser: Browser) {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const violations: string[] = [];
  const sentToUs: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  page.on("pageerror", (error) => violations.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    if (request.url().startsWith(baseURL)) sentToUs.push(`${request.url()} ${request.postData() ?? ""}`);
  });
  return { page, violations, sentToUs, close: () => context.close() };
}

async function enterCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill("12/34");
  await page.getByLabel("Security code").fill("123");
}

function challenge(page: Page) {
  return page.getByRole("dialog", { name: "3D Secure authentication" });
}

async function shots(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `checkout-stripe-${name}-1440`);
  await page.setViewportSize(PHONE);
  await screenshot(page, `checkout-stripe-${name}-390`);
  await page.setViewportSize(DESKTOP);
}

test("a customer subscribes through Stripe's Payment Element with 4242; Stripe's card is on the transaction", async ({
  browser,
}) => {
  const txn = await createTransaction(true);
  const customer = await customerPage(browser);
  const page = customer.page;
  await page.goto(txn.checkout.url);
  await expect(page.getByTestId("total-due")).toHaveText("$30.00");
  // Stripe's element at once, without a click; no card field of our own.
  await expect(page.getByLabel("Card number")).toBeVisible();
  await expect(page.getByLabel("Name on card")).toHaveCount(0);
  const pay = page.getByRole("button", { name: "Subscribe and pay $30.00" });
  await expect(pay).toBeEnabled();
  await expect(page.getByRole("region", { name: "Stripe test cards" })).toContainText("4242 4242 4242 4242");
  await expectNoSeriousA11yViolations(page, "the Stripe checkout");
  await shots(page, "checkout");

  // Nothing typed: the element says so beside its fields, nothing is sent.
  await pay.click();
  await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");

  await enterCard(page, "4242 4242 4242 4242");
  await pay.click();
  const success = page.getByRole("status").filter({ hasText: "Payment successful" });
  await expect(success).toContainText("$30.00 was paid with the card ending 4242");
  await shots(page, "paid");

  const done = await apiCall<Record<string, any>>(admin, "GET", `/api/transactions/${txn.id}`);
  expect(done.status).toBe("completed");
  expect(done.payments[0].method_details.card).toMatchObject({ type: "visa", last4: "4242", expiry_year: 2034 });
  expect(done.subscription_id).toMatch(/^sub_/);
  expect(done.payments[0].payment_method_id).toMatch(/^paymtd_/);
  // Stripe's fee (2.9% + 0.30), not the sandbox's.
  expect(done.details.totals.fee).toBe("117");

  // A reload shows it paid.
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Already paid" })).toBeVisible();
  expect(customer.sentToUs.filter((r) => /4242\s?4242|424242424242/.test(r))).toEqual([]);
  expect(customer.violations).toEqual([]);
  await customer.close();

  // The merchant's side: the payment at Stripe, linked to Stripe's dashboard; its webhooks received.
  await admin.goto(`/transactions/${txn.id}`);
  const atStripe = admin.getByRole("table", { name: "At Stripe" });
  await expect(atStripe).toContainText("succeeded");
  await expect(atStripe.getByRole("link", { name: /^pi_/ })).toHaveAttribute(
    "href",
    /^https:\/\/dashboard\.stripe\.com\/test\/payments\/pi_/,
  );
  await admin.goto("/settings");
  await expect(async () => {
    await admin.reload();
    await expect(admin.getByTestId("last-webhook")).toContainText(/^(payment_intent|charge|setup_intent)\./, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 20_000 });
  await expect(admin.getByRole("region", { name: "Webhooks from Stripe" })).toContainText("Waiting to be applied");
  await shots(admin, "settings-payments-webhooks");
});

test("3-D Secure passed: Stripe's challenge, then paid", async ({ browser }) => {
  const txn = await createTransaction();
  const customer = await customerPage(browser);
  const page = customer.page;
  await page.goto(txn.checkout.url);
  await enterCard(page, "4000 0025 0000 3155");
  await page.getByRole("button", { name: "Pay $49.50" }).click();
  await expect(challenge(page)).toBeVisible();
  await screenshot(page, "checkout-stripe-3ds-challenge-1440");
  await challenge(page).frameLocator("iframe").getByRole("button", { name: "Complete" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Payment successful" })).toContainText("ending 3155");
  expect(customer.violations).toEqual([]);
  await customer.close();
});

test("3-D Secure failed, in plain words; the same checkout then takes another card", async ({ browser }) => {
  const txn = await createTransaction();
  const customer = await customerPage(browser);
  const page = customer.page;
  await page.goto(txn.checkout.url);
  await enterCard(page, "4000 0027 6000 3184");
  await page.getByRole("button", { name: "Pay $49.50" }).click();
  await challenge(page).frameLocator("iframe").getByRole("button", { name: "Fail" }).click();
  const declined = page.getByRole("alert").filter({ hasText: "Payment declined" });
  await expect(declined).toContainText("not confirmed with the bank (3-D Secure)");
  await shots(page, "3ds-failed");
  await expect(page).toHaveURL(txn.checkout.url);

  await enterCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $49.50" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Payment successful" })).toContainText("ending 4242");
  const done = await apiCall<Record<string, any>>(admin, "GET", `/api/transactions/${txn.id}`);
  expect(done.payments.map((p: { status: string }) => p.status)).toEqual(["captured", "error"]);
  expect(customer.violations).toEqual([]);
  await customer.close();
});

test("declines are shown in plain words, each replaced by the next try", async ({ browser }) => {
  const txn = await createTransaction();
  const customer = await customerPage(browser);
  const page = customer.page;
  await page.goto(txn.checkout.url);
  const declined = page.getByRole("alert").filter({ hasText: "Payment declined" });
  await enterCard(page, "4000 0000 0000 0002");
  await page.getByRole("button", { name: "Pay $49.50" }).click();
  await expect(declined).toContainText("The card was declined by the bank. Try another card.");
  await shots(page, "declined");
  await enterCard(page, "4000 0000 0000 9995");
  await page.getByRole("button", { name: "Pay $49.50" }).click();
  await expect(declined).toContainText("declined for insufficient funds");
  const row = await apiCall<Record<string, any>>(admin, "GET", `/api/transactions/${txn.id}`);
  expect(row.status).toBe("ready");
  expect(row.payments.map((p: { error_code: string }) => p.error_code)).toEqual(["not_enough_balance", "declined"]);
  await customer.close();
});

test("the portal's update-payment-method flow: a past-due subscription recovered, then a card saved", async ({
  browser,
}) => {
  // The subscription is bought and declined into past_due with the sandbox's cards and test clock.
  await disconnectStripe(admin);
  const paddle = sdk();
  const key = cliApiKey();
  const txn = await createTransaction(true);
  const buyer = await customerPage(browser);
  const page = buyer.page;
  await page.goto(txn.checkout.url);
  await page.getByLabel("Name on card").fill("Ada Buyer");
  await page.getByLabel("Card number").fill("4000 0000 0000 0341");
  await page.getByLabel("Expiry (MM/YY)").fill("12/39");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Payment successful")).toBeVisible();
  const subscriptionId = (await paddle.transactions.get(txn.id)).subscriptionId as string;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const sub = await (await fetch(`${baseURL}/api/subscriptions/${subscriptionId}`, { headers })).json();
  const advanced = await fetch(`${baseURL}/api/subscriptions/${subscriptionId}/test-clock/advance`, {
    method: "POST",
    headers,
    body: JSON.stringify({ to: new Date(Date.parse(sub.data.next_billed_at) + 60_000).toISOString() }),
  });
  expect((await advanced.json()).data.status).toBe("past_due");

  // Now Stripe takes the payments: the portal's "Pay with a new card" goes to the Stripe checkout.
  await connectStripeViaApi(admin);
  const session = await paddle.customerPortalSessions.create(txn.customer_id, [subscriptionId]);
  await page.goto(session.urls.general.overview);
  const card = page.getByTestId("subscription-card");
  await expect(card.getByTestId("subscription-status")).toHaveText("Payment failed");
  await page.getByRole("link", { name: "Update card and pay" }).click();
  await page.getByRole("button", { name: "Pay with a new card" }).click();
  await page.waitForURL(/\/checkout\?_ptxn=txn_/);
  await expect(page.getByTestId("total-due")).toHaveText("$30.00");
  await enterCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $30.00" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Payment successful" })).toBeVisible();
  await page.goto("/portal/overview");
  await expect(card.getByTestId("subscription-status")).toHaveText("Active");
  await expect(card.getByTestId("payment-method")).toHaveText("Visa ending 4242 (expires 12/34)");

  // An active subscription's card update: a SetupIntent, 3-D Secure once, nothing charged.
  await card.getByRole("link", { name: /Update (card|payment method)/ }).click();
  await page.getByRole("button", { name: "Enter a new card" }).click();
  await page.waitForURL(/\/checkout\?_ptxn=txn_/);
  await expect(page.getByText("Nothing is charged today")).toBeVisible();
  const save = page.getByRole("button", { name: "Save card" });
  await enterCard(page, "4000 0025 0000 3155");
  await shots(page, "save-card");
  await save.click();
  await challenge(page).frameLocator("iframe").getByRole("button", { name: "Complete" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Card saved" })).toContainText("ending 3155");
  await shots(page, "card-saved");
  await page.goto("/portal/overview");
  await expect(card.getByTestId("payment-method")).toHaveText("Visa ending 3155 (expires 12/34)");
  expect(buyer.violations).toEqual([]);
  await buyer.close();
});
