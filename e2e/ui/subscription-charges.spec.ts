/**
 * Issue 26, defect 2 and items 7 and 13, as a merchant and a customer meet them:
 * - every dashboard action that charges (resume, change items, one-time charge, activate) shows
 *   what is charged now before it is confirmed, and the transaction it makes charges exactly that;
 * - monthly → yearly from the dashboard's "Change items" dialog, and from the customer portal once
 *   Settings lists the plans;
 * - subscriptions and transactions titled and listed by the customer's name, email beneath.
 * Screenshots at 1440 and 390 px, light and dark (e2e/screenshots/charges-*.png).
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { sdk, subscribeAtCheckout } from "../api/sdk-helpers";
import { apiCall, expectNoSeriousA11yViolations, screenshot, signIn } from "../helpers";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const LOADED = { timeout: 15_000 };
const DAY = 86_400_000;

test.describe.configure({ mode: "serial" });

/** Screenshots at 1440 and 390 px, light and dark, and no serious axe violation. */
async function shots(page: Page, name: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(DESKTOP);
    await screenshot(page, `charges-${name}-${scheme}`);
    await page.setViewportSize(PHONE);
    await screenshot(page, `charges-${name}-${scheme}-phone`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(DESKTOP);
  await expectNoSeriousA11yViolations(page, name);
}

const usd = (minor: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(minor) / 100);

interface Txn {
  id: string;
  origin: string;
  status: string;
  details: { totals: { grand_total: string } };
}

async function lastTransaction(page: Page, subscriptionId: string): Promise<Txn> {
  const list = await apiCall<Txn[]>(
    page,
    "GET",
    `/api/transactions?subscription_id=${subscriptionId}&order_by=id[DESC]&per_page=1`,
  );
  return list[0]!;
}

async function advance(page: Page, subscriptionId: string, to: Date): Promise<void> {
  await apiCall(page, "POST", `/api/subscriptions/${subscriptionId}/test-clock/advance`, { to: to.toISOString() });
}

/** The "Charged now" amount the dialog shows, once its preview has answered. */
async function chargedNow(dialog: ReturnType<Page["getByRole"]>): Promise<string> {
  const amount = dialog.getByTestId("charged-now");
  await expect(amount).toHaveText(/^\$\d/, LOADED);
  return (await amount.textContent()) ?? "";
}

test("pause now, then resume: the dialog shows the charge (less the paused period's credit), and that is charged", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const bought = await subscribeAtCheckout(sdk(), { quantity: 1 });
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  const sub = await apiCall<{ current_billing_period: { starts_at: string } }>(
    page,
    "GET",
    `/api/subscriptions/${bought.subscriptionId}`,
  );
  await advance(page, bought.subscriptionId, new Date(Date.parse(sub.current_billing_period.starts_at) + 10 * DAY));
  await page.goto(`/subscriptions/${bought.subscriptionId}`);
  await expect(page.getByRole("heading", { level: 1, name: /^Ada Buyer · SDK plan/ })).toBeVisible(LOADED);

  await page.getByRole("button", { name: "Pause", exact: true }).click();
  const pause = page.getByRole("dialog", { name: "Pause this subscription?" });
  await pause.getByLabel("Now").check();
  await expect(pause).toContainText("unused rest of the current period is credited");
  await pause.getByRole("button", { name: "Pause now" }).click();
  await expect(pause).toBeHidden();

  await page.getByRole("button", { name: "Resume", exact: true }).click();
  const resume = page.getByRole("dialog", { name: "Resume this subscription?" });
  await expect(resume.getByLabel("Start a new billing period")).toBeChecked();
  const shown = await chargedNow(resume);
  // About a third of $30.00: twenty-odd paid days of the paused period are credited.
  expect(Number(shown.replace(/[$,]/g, ""))).toBeGreaterThan(5);
  expect(Number(shown.replace(/[$,]/g, ""))).toBeLessThan(15);
  await expect(resume.getByRole("region", { name: "Preview" })).toContainText("charged to Visa •••• 4242");
  await expect(resume.getByRole("region", { name: "Preview" })).toContainText("credited");
  await shots(page, "resume-dialog");

  // Continuing the paused period instead charges nothing.
  await resume.getByLabel("Continue the paused billing period").check();
  await expect(resume.getByTestId("charged-now")).toHaveText("$0.00", LOADED);
  await expect(resume.getByRole("region", { name: "Preview" })).toContainText("Nothing is charged now");
  await resume.getByLabel("Start a new billing period").check();
  await expect(resume.getByTestId("charged-now")).toHaveText(shown, LOADED);

  await resume.getByRole("button", { name: "Resume now" }).click();
  await expect(resume).toBeHidden();
  const txn = await lastTransaction(page, bought.subscriptionId);
  expect(txn.origin).toBe("subscription_recurring");
  expect(usd(txn.details.totals.grand_total)).toBe(shown);
});

test("change items, a one-time charge and monthly → yearly: each dialog's charge is what is charged", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const bought = await subscribeAtCheckout(sdk(), { quantity: 1 });
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  const tag = Date.now();
  await apiCall(page, "POST", "/api/prices", {
    product_id: bought.product.id,
    description: `Setup ${tag}`,
    unit_price: { amount: "1500", currency_code: "USD" },
  });
  await apiCall(page, "POST", "/api/prices", {
    product_id: bought.product.id,
    description: "Yearly",
    name: "Yearly",
    unit_price: { amount: "30000", currency_code: "USD" },
    billing_cycle: { interval: "year", frequency: 1 },
  });
  await page.goto(`/subscriptions/${bought.subscriptionId}`);
  await expect(page.getByRole("heading", { level: 1, name: /^Ada Buyer · SDK plan/ })).toBeVisible(LOADED);

  // Two seats instead of one, prorated now.
  await page.getByRole("button", { name: "Change items" }).click();
  const items = page.getByRole("dialog", { name: "Change items" });
  await items.getByRole("spinbutton", { name: /^Quantity of / }).fill("2");
  const seat = await chargedNow(items);
  await items.getByRole("button", { name: "Apply change" }).click();
  await expect(items).toBeHidden();
  let txn = await lastTransaction(page, bought.subscriptionId);
  expect(txn.origin).toBe("subscription_update");
  expect(usd(txn.details.totals.grand_total)).toBe(seat);

  // A one-time charge, now.
  await page.getByRole("button", { name: "Add one-time charge" }).click();
  const charge = page.getByRole("dialog", { name: "Add a one-time charge" });
  await charge.getByLabel("Price").selectOption({ label: `${bought.product.name} · Setup ${tag} · $15.00` });
  const fee = await chargedNow(charge);
  expect(fee).toBe("$15.00");
  await charge.getByRole("button", { name: "Charge now" }).click();
  await expect(charge).toBeHidden();
  txn = await lastTransaction(page, bought.subscriptionId);
  expect(txn.origin).toBe("subscription_charge");
  expect(usd(txn.details.totals.grand_total)).toBe(fee);

  // Monthly → yearly: one step, previewed, charged as shown.
  await page.getByRole("button", { name: "Change items" }).click();
  const cycle = page.getByRole("dialog", { name: "Change items" });
  await cycle.getByRole("button", { name: "Switch to yearly" }).click();
  await expect(cycle.getByRole("spinbutton", { name: /Yearly/ })).toHaveValue("2");
  await expect(cycle.getByLabel("Proration")).toHaveValue("prorated_immediately");
  const yearly = await chargedNow(cycle);
  await expect(cycle.getByRole("button", { name: "Switch to yearly" }).last()).toBeEnabled();
  await shots(page, "switch-yearly-dialog");
  await cycle.getByRole("button", { name: "Switch to yearly" }).last().click();
  await expect(cycle).toBeHidden();
  txn = await lastTransaction(page, bought.subscriptionId);
  expect(usd(txn.details.totals.grand_total)).toBe(yearly);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("× 2 · $600.00/yr");
  await expect(page.getByRole("region", { name: "Details" })).toContainText("Every year");
});

test("end a trial now: the dialog shows the first charge, and that is charged", async ({ page }) => {
  test.setTimeout(120_000);
  const trial = await subscribeAtCheckout(sdk(), { quantity: 1, trialDays: 14 });
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto(`/subscriptions/${trial.subscriptionId}`);
  await expect(page.getByRole("heading", { level: 1, name: /^Ada Buyer · SDK plan/ })).toBeVisible(LOADED);
  await page.getByRole("button", { name: "Activate now" }).click();
  const activate = page.getByRole("dialog", { name: "End the trial and activate now?" });
  const shown = await chargedNow(activate);
  expect(shown).toBe("$30.00");
  await shots(page, "activate-dialog");
  await activate.getByRole("button", { name: "Activate now" }).click();
  await expect(activate).toBeHidden();
  const txn = await lastTransaction(page, trial.subscriptionId);
  expect(txn.origin).toBe("subscription_recurring");
  expect(usd(txn.details.totals.grand_total)).toBe(shown);
});

async function customerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

test("the customer switches monthly → yearly in the portal once Settings offers both plans", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const paddle = sdk();
  const bought = await subscribeAtCheckout(paddle, { quantity: 1 });
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  const tag = Date.now();
  await apiCall(page, "PATCH", `/api/prices/${bought.price.id}`, { name: `Monthly ${tag}` });
  const yearly = await apiCall<{ id: string }>(page, "POST", "/api/prices", {
    product_id: bought.product.id,
    description: "Yearly",
    name: `Yearly ${tag}`,
    unit_price: { amount: "30000", currency_code: "USD" },
    billing_cycle: { interval: "year", frequency: 1 },
  });

  // Settings → Customer portal: tick both plans.
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Plans customers may switch between" });
  await form.getByLabel(`Monthly ${tag} · $30.00 every month`).check(LOADED);
  await form.getByLabel(`Yearly ${tag} · $300.00 every year`).check();
  await form.getByRole("button", { name: "Save portal plans" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Portal plans saved." })).toBeVisible();
  await page.getByRole("region", { name: "Customer portal" }).scrollIntoViewIfNeeded();
  await shots(page, "settings-portal-plans");
  const settings = await apiCall<{ portal_plan_price_ids: string[] }>(page, "GET", "/api/account-settings");
  expect(settings.portal_plan_price_ids).toEqual(expect.arrayContaining([bought.price.id, yearly.id]));

  const session = await paddle.customerPortalSessions.create(bought.customer.id, [bought.subscriptionId]);
  const customer = await customerPage(browser);
  await customer.goto(session.urls.general.overview);
  await customer.getByRole("link", { name: "Change plan" }).click();
  await expect(customer.getByRole("heading", { level: 1, name: "Change plan" })).toBeVisible();
  await customer.getByLabel(new RegExp(`Yearly ${tag}`)).check();
  const preview = customer.getByTestId("plan-preview");
  await expect(preview).toContainText("is charged today", LOADED);
  const text = (await preview.textContent()) ?? "";
  const shown = /(\$[\d,]+\.\d\d) is charged today/.exec(text)?.[1];
  expect(shown).toBeTruthy();
  await expect(preview).toContainText("Visa ending 4242");
  await shots(customer, "portal-change-plan");
  await customer.getByRole("button", { name: "Switch plan" }).click();
  const confirm = customer.getByRole("dialog", { name: new RegExp(`Switch to .*Yearly ${tag}`) });
  await expect(confirm).toContainText(shown as string);
  await confirm.getByRole("button", { name: "Yes, switch" }).click();
  await expect(customer.getByTestId("plan-changed")).toContainText(`Yearly ${tag}`);

  const txn = await lastTransaction(page, bought.subscriptionId);
  expect(txn.origin).toBe("subscription_update");
  expect(usd(txn.details.totals.grand_total)).toBe(shown);
  const after = await apiCall<{ billing_cycle: { interval: string } }>(
    page,
    "GET",
    `/api/subscriptions/${bought.subscriptionId}`,
  );
  expect(after.billing_cycle.interval).toBe("year");

  // Settings back as they were for the other specs: no plans offered.
  await apiCall(page, "PATCH", "/api/account-settings", { portal_plan_price_ids: [] });
  await customer.context().close();
});

test("subscriptions and transactions are titled and listed by the customer's name, email beneath", async ({ page }) => {
  const bought = await subscribeAtCheckout(sdk(), { quantity: 5 });
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/subscriptions");
  await page.getByLabel("Filter by customer ID or email").fill(bought.customer.email);
  const table = page.getByRole("table", { name: "Subscriptions" });
  await expect(table.getByRole("row")).toHaveCount(2, LOADED);
  const row = table.getByRole("row").nth(1);
  await expect(row.getByRole("link", { name: "Ada Buyer subscription" })).toBeVisible();
  await expect(row).toContainText(bought.customer.email);
  await expect(row).toContainText(`${bought.product.name} × 5`);
  await expect(row).toContainText("$150.00/mo");
  await shots(page, "subscriptions-list-names");
  await row.getByRole("link", { name: "Ada Buyer subscription" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `Ada Buyer · ${bought.product.name} × 5 · $150.00/mo`,
    LOADED,
  );
  await expect(page.locator("header").filter({ has: page.getByRole("heading", { level: 1 }) })).toContainText(
    bought.customer.email,
  );

  await page.goto("/transactions");
  await page.getByRole("searchbox", { name: "Search transactions" }).fill(bought.customer.email);
  const txns = page.getByRole("table", { name: "Transactions" });
  await expect(txns.getByRole("row")).toHaveCount(2, LOADED);
  await expect(txns.getByRole("row").nth(1)).toContainText("Ada Buyer", LOADED);
  await expect(txns.getByRole("row").nth(1)).toContainText(bought.customer.email);
  await shots(page, "transactions-list-names");
  await txns.getByRole("row").nth(1).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    new RegExp(`^Ada Buyer · ${bought.product.name} × 5 · \\$\\d`),
    LOADED,
  );
  await expect(page.getByTestId("transaction-kind")).toHaveText(/^Invoice \S+/);
});
