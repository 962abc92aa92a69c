/**
 * The pages' Content-Security-Policy in Chromium (next.config.js, lib/http/csp.js): the dashboard,
 * sign-in and the hosted checkout work under it with no violation reported, and no other site can
 * frame them. Only the checkout's policy opens Stripe.js's origin (STRIPE_JS_URL's: the suite's
 * stand-in), set per request by the proxy; every other page keeps the strict one.
 */
import { expect, type Page, test } from "@playwright/test";
import { apiCall, createProductViaApi, signIn, uniqueEmail, uniqueTag } from "../helpers";
import { baseURL, STRIPE_STAND_IN_URL } from "../playwright.config";

/** Every CSP violation the page reports, in the console or as a securitypolicyviolation event. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.push(message.text());
  });
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  return seen;
}

test("sign-in, dashboard pages and the hosted checkout run with no CSP violation", async ({ page, browser }) => {
  const violations = watchViolations(page);
  await signIn(page);
  for (const [path, heading] of [
    ["/", "Home"],
    ["/customers", "Customers"],
    ["/transactions", "Transactions"],
    ["/catalogue/products", "Products"],
    ["/metrics", "Metrics"],
    ["/developers", "Developers"],
    ["/settings", "Settings"],
  ]) {
    await page.goto(path!);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  }
  // Client-side navigation (RSC fetches) too.
  await page.getByRole("link", { name: "Customers" }).first().click();
  await page.waitForURL("**/customers");
  await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();

  // A transaction to pay at the hosted checkout, signed out, as a customer would.
  const productId = await createProductViaApi(page, { name: `CSP gadget ${uniqueTag()}` }, [
    { description: "One gadget", amount: "1000", currency_code: "USD" },
  ]);
  const [price] = await apiCall<{ id: string }[]>(page, "GET", `/api/prices?product_id=${productId}`);
  const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", { email: uniqueEmail("csp") });
  const address = await apiCall<{ id: string }>(page, "POST", `/api/customers/${customer.id}/addresses`, {
    postal_code: "10001",
    country_code: "US",
  });
  const txn = await apiCall<{ checkout: { url: string } }>(page, "POST", "/api/transactions", {
    items: [{ price_id: price!.id, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
  });
  const context = await browser.newContext();
  const checkout = await context.newPage();
  const checkoutViolations = watchViolations(checkout);
  await checkout.goto(txn.checkout.url);
  await checkout.getByLabel("Name on card").fill("Ada Lovelace");
  await checkout.getByLabel("Card number").fill("4242 4242 4242 4242");
  await checkout.getByLabel("Expiry (MM/YY)").fill("12/34");
  await checkout.getByLabel("CVC").fill("123");
  await checkout.getByRole("button", { name: /^Pay / }).click();
  await expect(checkout.getByRole("status").filter({ hasText: "Payment successful" })).toBeVisible();
  await context.close();

  expect(violations).toEqual([]);
  expect(checkoutViolations).toEqual([]);
});

test("another site cannot frame the sign-in page or the checkout", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => violations.push(message.text()));
  // A page of another origin (about:blank here) framing ours.
  await page.setContent(
    `<iframe id="a" src="${baseURL}/sign-in"></iframe><iframe id="b" src="${baseURL}/checkout?_ptxn=txn_x"></iframe>`,
  );
  await page.waitForTimeout(2_000);
  for (const frame of page.frames().slice(1)) {
    // A blocked frame shows Chromium's error page, never our content.
    expect(await frame.locator("text=Sign in to Billing").count()).toBe(0);
    expect(await frame.locator("form").count()).toBe(0);
  }
  expect(violations.join("\n")).toMatch(/frame-ancestors|X-Frame-Options/);
});

test("only the checkout's policy opens Stripe.js's origin, for scripts, connections and frames", async ({
  request,
}) => {
  const directives = (policy: string) =>
    Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
  const policies = async (path: string) =>
    (await request.get(path, { maxRedirects: 0 }))
      .headersArray()
      .filter((h) => h.name.toLowerCase() === "content-security-policy");

  const checkout = await policies("/checkout?_ptxn=txn_01hv8x0000000000000000000a");
  expect(checkout).toHaveLength(1);
  const open = directives(checkout[0]!.value);
  for (const name of ["script-src", "connect-src", "frame-src"])
    expect(open[name], name).toContain(STRIPE_STAND_IN_URL);
  expect(open["frame-ancestors"]).toEqual(["'none'"]);
  expect(open["default-src"]).toEqual(["'self'"]);

  for (const path of ["/sign-in", "/portal/overview", "/invoices/nope", "/checkouts"]) {
    const strict = await policies(path);
    expect(strict, path).toHaveLength(1);
    expect(strict[0]!.value, path).not.toContain(STRIPE_STAND_IN_URL);
    expect(directives(strict[0]!.value)["connect-src"], path).toEqual(["'self'"]);
  }
});
