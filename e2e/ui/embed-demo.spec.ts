/**
 * The client-side library on a merchant's page: the demo page (public/demo/embed.html) loads
 * /js/billing.js with a client-side token, shows prices localized for the buyer's country, and its
 * Buy button reaches the hosted checkout, where the sandbox card pays. A page on another origin uses
 * the library the same way (real CORS in the browser).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { apiCall, shot, signIn, uniqueEmail, uniqueTag } from "../helpers";

interface Setup {
  token: string;
  monthly: string;
  yearly: string;
}

/** As the merchant: a product with two `location` prices (USD, with a EUR override for DE) and a token. */
async function merchantSetup(page: Page): Promise<Setup> {
  await signIn(page);
  const product = await apiCall<{ id: string }>(page, "POST", "/api/products", {
    name: `Acme Notes Pro ${uniqueTag()}`,
    tax_category: "standard",
  });
  const price = (name: string, usd: string, eur: string, interval: string) =>
    apiCall<{ id: string }>(page, "POST", "/api/prices", {
      product_id: product.id,
      name,
      // Internal: the demo page must never show it to buyers.
      description: `${name} plan (internal, USD list price)`,
      tax_mode: "location",
      billing_cycle: { interval, frequency: 1 },
      unit_price: { amount: usd, currency_code: "USD" },
      unit_price_overrides: [{ country_codes: ["DE", "FR"], unit_price: { amount: eur, currency_code: "EUR" } }],
    });
  const monthly = await price("Monthly", "1000", "1190", "month");
  const yearly = await price("Yearly", "10000", "11900", "year");
  const token = await apiCall<{ token: string }>(page, "POST", "/api/client-tokens", { name: "Demo page" });
  return { token: token.token, monthly: monthly.id, yearly: yearly.id };
}

test("the demo page shows localized prices and its Buy button reaches the checkout, which takes 4242", async ({
  page,
  browser,
}) => {
  const setup = await merchantSetup(page);
  // The buyer: no dashboard session.
  const buyer = await (await browser.newContext()).newPage();
  await buyer.goto(`/demo/embed.html?token=${setup.token}&prices=${setup.monthly},${setup.yearly}`);
  await expect(buyer.getByRole("heading", { level: 1, name: "Choose your plan" })).toBeVisible();

  const monthly = buyer.locator(`[data-price="${setup.monthly}"]`);
  const yearly = buyer.locator(`[data-price="${setup.yearly}"]`);
  // The United States first: the USD price, no tax (no US rate is set).
  await expect(monthly.locator(".price")).toHaveText("$10.00");
  await expect(yearly.locator(".price")).toHaveText("$100.00");
  await expect(monthly.locator(".desc")).toHaveText("Monthly");
  await expect(buyer.getByText(/internal/)).toHaveCount(0);
  await expect(buyer.getByRole("status")).toHaveText("Prices in USD for United States.");

  // Germany: the EUR override, VAT included (tax mode location).
  await buyer.getByLabel("Country").selectOption("DE");
  await expect(monthly.locator(".price")).toHaveText("€11.90");
  await expect(monthly.locator(".price-note")).toHaveText("per month · incl. €1.90 tax");
  await expect(yearly.locator(".price")).toHaveText("€119.00");
  await expect(buyer.getByLabel("Postal code")).toHaveValue("10115");
  await shot(buyer, "embed-demo");
  await buyer.setViewportSize({ width: 390, height: 844 });
  await shot(buyer, "embed-demo-390");
  await buyer.setViewportSize({ width: 1280, height: 800 });

  // Buy without an email: the error is shown and the email field gets focus.
  await monthly.getByRole("button").click();
  await expect(buyer.getByRole("alert")).toHaveText("Enter your email address to buy.");
  await expect(buyer.getByLabel("Email")).toBeFocused();

  await buyer.getByLabel("Email").fill(uniqueEmail("demo-buyer"));
  await monthly.getByRole("button").click();
  await buyer.waitForURL(/\/checkout\?_ptxn=txn_[a-z0-9]{26}$/);
  await expect(buyer.getByTestId("total-due")).toHaveText("€11.90");
  await shot(buyer, "embed-demo-checkout");
  await buyer.getByLabel("Name on card").fill("Ada Lovelace");
  await buyer.getByLabel("Card number").fill("4242 4242 4242 4242");
  await buyer.getByLabel("Expiry (MM/YY)").fill("12/34");
  await buyer.getByLabel("CVC").fill("123");
  await buyer.getByRole("button", { name: "Pay €11.90" }).click();
  await expect(buyer.getByRole("status").filter({ hasText: "Payment successful" })).toContainText("ending 4242");
  await shot(buyer, "embed-demo-paid");

  // The merchant sees the transaction completed.
  const txnId = new URL(buyer.url()).searchParams.get("_ptxn");
  const txn = await apiCall<{ status: string; origin: string }>(page, "GET", `/api/transactions/${txnId}`);
  expect(txn.status).toBe("completed");
});

test("without a token the demo explains what to paste; a revoked token shows the error", async ({ page, browser }) => {
  const setup = await merchantSetup(page);
  const buyer = await (await browser.newContext()).newPage();
  await buyer.goto("/demo/embed.html");
  await expect(buyer.getByRole("heading", { level: 1, name: "Try the client-side library" })).toBeVisible();
  await buyer.getByLabel("Client-side token").fill(setup.token);
  await buyer.getByLabel("Price IDs").fill(setup.monthly);
  await shot(buyer, "embed-demo-setup");
  await buyer.getByRole("button", { name: "Show the pricing page" }).click();
  await expect(buyer.locator(`[data-price="${setup.monthly}"] .price`)).toHaveText("$10.00");

  const tokens = await apiCall<{ id: string; token: string }[]>(page, "GET", "/api/client-tokens?per_page=200");
  const id = tokens.find((t) => t.token === setup.token)?.id;
  await apiCall(page, "PATCH", `/api/client-tokens/${id}`, { status: "revoked" });
  await buyer.reload();
  await expect(buyer.getByRole("alert")).toContainText("Invalid, revoked or expired client-side token.");
  const card = buyer.locator(`[data-price="${setup.monthly}"]`);
  await expect(card.getByRole("heading")).toHaveText("Price unavailable");
  await expect(card.getByRole("button")).toBeDisabled();
  await shot(buyer, "embed-demo-revoked");
});

test("a page on another origin uses the library: CORS lets it preview prices", async ({ page, browser, baseURL }) => {
  const setup = await merchantSetup(page);
  // The merchant's site: a server of its own on another origin (127.0.0.1 and another port).
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
    <p>Monthly: <span id="price" data-billing-price="${setup.monthly}">…</span></p>
    <p id="error"></p>
    <script src="${baseURL}/js/billing.js"></script>
    <script>
      Billing.init({ token: "${setup.token}" })
        .renderPrices({ address: { countryCode: "FR" } })
        .catch((e) => { document.getElementById("error").textContent = e.message; });
    </script></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const shop = await (await browser.newContext()).newPage();
    await shop.goto(`http://127.0.0.1:${port}/`);
    await expect(shop.locator("#price")).toHaveText("€11.90");
    await expect(shop.locator("#error")).toHaveText("");
  } finally {
    server.close();
  }
});
