/** Shared by the Playwright specs: the first-start owner login and small helpers. */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Created on first start by e2e/playwright.config.ts (BILLING_OWNER_EMAIL / BILLING_OWNER_PASSWORD). */
export const OWNER = { email: "owner@example.com", password: "e2e-owner-password" };

/** Signs in through the sign-in page, as a person would, and waits for the dashboard. */
export async function signIn(page: Page, user: { email: string; password: string } = OWNER): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
}

/** An email no other test (or earlier run on the same database) has used. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Full-page screenshot in e2e/screenshots/ (git-ignored), to look at the layout. Taken from the top
 * of the page: a full-page capture keeps the scroll position, which would draw the sticky sidebar
 * halfway down the picture.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(import.meta.dirname, "screenshots", `${name}.png`), fullPage: true });
}

/** Closes the toasts, so that screenshots show what is under them. */
export async function dismissToasts(page: Page): Promise<void> {
  const dismiss = page.getByRole("button", { name: "Dismiss" });
  for (let n = await dismiss.count(); n > 0; n--) await dismiss.first().click();
  await expect(dismiss).toHaveCount(0);
}

/** Screenshot without the toasts in the corner (unless a modal dialog is open: it covers them). */
export async function shot(page: Page, name: string): Promise<void> {
  if ((await page.getByRole("dialog").count()) === 0) await dismissToasts(page);
  await screenshot(page, name);
}

/** Creates a customer through the dashboard's form and opens its page. Returns the customer's ID. */
export async function createCustomerInUi(page: Page, values: { email: string; name?: string }): Promise<string> {
  await page.goto("/customers");
  await page.getByRole("button", { name: "New customer" }).first().click();
  const form = page.getByRole("form", { name: "New customer" });
  await form.getByLabel("Email").fill(values.email);
  if (values.name) await form.getByLabel("Name", { exact: true }).fill(values.name);
  await form.getByRole("button", { name: "Create customer" }).click();
  await expect(form).toBeHidden();
  await page.getByRole("table", { name: "Customers" }).getByRole("link", { name: values.email }).click();
  await page.waitForURL(/\/customers\/ctm_[a-z0-9]{26}$/);
  return page.url().split("/").at(-1)!;
}

/** A short tag no other test (or earlier run on the same database) has used: letters and digits only. */
export function uniqueTag(prefix = ""): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
}

/**
 * Creates a product (and optionally prices) through the API with the dashboard's session, for
 * tests that need a catalogue without going through its forms. Returns the product's ID.
 */
export async function createProductViaApi(
  page: Page,
  product: { name: string; tax_category?: string },
  prices: { description: string; name?: string; amount: string; currency_code: string; interval?: string }[] = [],
): Promise<string> {
  return page.evaluate(
    async ({ product, prices }) => {
      const send = async (path: string, body: unknown) => {
        const response = await fetch(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return (await response.json()).data as { id: string };
      };
      const created = await send("/api/products", { tax_category: "standard", ...product });
      for (const price of prices) {
        await send("/api/prices", {
          product_id: created.id,
          description: price.description,
          name: price.name,
          unit_price: { amount: price.amount, currency_code: price.currency_code },
          billing_cycle: price.interval ? { interval: price.interval, frequency: 1 } : null,
        });
      }
      return created.id;
    },
    { product, prices },
  );
}

/**
 * A list page's loading and error states: the list API answers slowly and then fails (503), so
 * the table shows a skeleton (aria-busy), then an alert with the API's detail and request ID; with
 * the API back, "Try again" clears it. Screenshots `<name>-loading` and `<name>-error`.
 */
export async function checkListLoadingAndError(
  page: Page,
  list: { api: string; path: string; table: string; name: string },
): Promise<void> {
  let fail = true;
  const requestId = `req-e2e-${list.name}-503`;
  await page.route(list.api, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (!fail) return route.continue();
    await route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({
        error: { type: "api_error", code: "internal_error", detail: "The service is unavailable." },
        meta: { request_id: requestId },
      }),
    });
  });
  await page.goto(list.path);
  await expect(page.getByRole("table", { name: list.table })).toHaveAttribute("aria-busy", "true");
  await shot(page, `${list.name}-loading`);
  // 5xx is retried twice before the error shows.
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("The service is unavailable.", { timeout: 15_000 });
  await expect(alert).toContainText(requestId);
  await shot(page, `${list.name}-error`);
  fail = false;
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(alert).toBeHidden();
}

/** Sends a request to the API with the dashboard's session; fails the test unless it succeeds. */
export async function apiCall<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? undefined : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()).data;
    },
    { method, path, body },
  );
}

/**
 * axe-core on the page as it is now: fails the test on serious or critical violations, listing each
 * rule with up to five of its elements. Soft, so that one run reports every page state's problems.
 */
export async function expectNoSeriousA11yViolations(page: Page, state: string = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious.map((v) => {
    const nodes = v.nodes
      .slice(0, 5)
      .map((n) => `  ${n.target.join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ")}`);
    const more = v.nodes.length > 5 ? [`  … ${v.nodes.length} elements in all`] : [];
    return [`${v.id} (${v.impact}): ${v.help}`, ...nodes, ...more].join("\n");
  });
  expect.soft(report, `axe: serious or critical violations on ${state}`).toEqual([]);
}

/** A product with one USD price of $49.50 ("Hourly rate") and a customer with a New York address. */
export interface Buyer {
  productName: string;
  priceId: string;
  customerId: string;
  addressId: string;
  email: string;
}

export async function createBuyer(page: Page, emailPrefix: string, name = "Grace Hopper"): Promise<Buyer> {
  const productName = `Consulting ${uniqueTag()}`;
  const productId = await createProductViaApi(page, { name: productName }, [
    { description: "Hourly rate", amount: "4950", currency_code: "USD" },
  ]);
  const [price] = await apiCall<{ id: string }[]>(page, "GET", `/api/prices?product_id=${productId}`);
  const email = uniqueEmail(emailPrefix);
  const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", { email, name });
  const address = await apiCall<{ id: string }>(page, "POST", `/api/customers/${customer.id}/addresses`, {
    first_line: "1 Main Street",
    city: "New York",
    region: "NY",
    postal_code: "10001",
    country_code: "US",
  });
  return { productName, priceId: price!.id, customerId: customer.id, addressId: address.id, email };
}

export interface SentEmail {
  to: string[];
  subject: string;
  text: string | null;
  html: string | null;
}

/**
 * The emails the app sent to `to` through SMTP, as the suite's loopback SMTP server received them
 * (e2e/smtp-sink.ts), waiting until at least `count` have arrived (delivery runs in the worker).
 */
export async function sentEmails(to: string, count = 1): Promise<SentEmail[]> {
  const { SMTP_MESSAGES_URL } = await import("./playwright.config");
  let mine: SentEmail[] = [];
  await expect(async () => {
    const all = (await (await fetch(SMTP_MESSAGES_URL)).json()) as SentEmail[];
    mine = all.filter((mail) => mail.to.includes(to));
    expect(mine.length, `emails to ${to} received by the SMTP server`).toBeGreaterThanOrEqual(count);
  }).toPass({ timeout: 30_000 });
  return mine;
}
