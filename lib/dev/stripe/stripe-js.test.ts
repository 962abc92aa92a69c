/**
 * The stand-in Stripe.js in a real browser (Debian's Chromium through Playwright's library): a page
 * on another origin, under a Content-Security-Policy like the checkout's, mounts the Payment Element,
 * confirms payments and setups, passes and fails 3-D Secure in the challenge dialog, and shows
 * declines, as the product's checkout will. The page's own server sees no card data.
 * Skipped where no Chromium is installed (CHROMIUM_PATH or /usr/bin/chromium).
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, chromium, type Page } from "@playwright/test";
import type Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_ACCOUNT, type StripeStandIn, startStripeStandIn } from "./server.ts";

const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

let standIn: StripeStandIn;
let stripe: Stripe;
let browser: Browser;
let shop: Server;
let shopUrl: string;
const shopRequests: string[] = [];

/** The merchant's page: Stripe.js from the stand-in, a form with the Payment Element and a Pay button. */
function page(apiUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head>
<body><main>
<h1>Checkout</h1>
<form id="pay" method="post" action="/must-never-be-posted">
  <div id="payment-element"></div>
  <button type="submit">Pay</button>
</form>
<p id="result" role="status"></p>
</main>
<script src="${apiUrl}/v3/"></script>
<script>
  const params = new URLSearchParams(location.search);
  const stripe = Stripe(params.get("pk"));
  const clientSecret = params.get("cs");
  const kind = clientSecret.startsWith("seti_") ? "setup" : "payment";
  const elements = stripe.elements({ clientSecret, appearance: { theme: "stripe", variables: { colorPrimary: "#0a7" } } });
  const element = elements.create("payment");
  element.on("ready", () => document.body.dataset.ready = "yes");
  element.mount("#payment-element");
  const result = document.getElementById("result");
  window.handleNext = async () => {
    const res = await stripe.handleNextAction({ clientSecret });
    result.textContent = res.error ? "error: " + res.error.code : "ok: " + (res.paymentIntent || res.setupIntent).status;
  };
  document.getElementById("pay").addEventListener("submit", async (event) => {
    event.preventDefault();
    const submitted = await elements.submit();
    if (submitted.error) { result.textContent = "invalid: " + submitted.error.code; return; }
    const redirect = params.get("redirect") === "always" ? undefined : "if_required";
    const res = kind === "setup"
      ? await stripe.confirmSetup({ elements, redirect })
      : await stripe.confirmPayment({ elements, redirect, confirmParams: { return_url: location.origin + "/done" } });
    result.textContent = res.error
      ? "error: " + res.error.code + (res.error.decline_code ? " " + res.error.decline_code : "")
      : "ok: " + (res.paymentIntent || res.setupIntent).status;
  });
</script>
</body></html>`;
}

beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = standIn.client();
  shop = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      shopRequests.push(`${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`);
      // A policy like the checkout's: scripts, connections and frames only from here and the stand-in.
      const csp = `default-src 'self'; script-src 'self' 'unsafe-inline' ${standIn.url}; connect-src 'self' ${standIn.url}; frame-src ${standIn.url}; style-src 'self' 'unsafe-inline'; form-action 'self'`;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp });
      res.end(req.url?.startsWith("/done") ? "<!doctype html><title>Done</title><h1>Done</h1>" : page(standIn.url));
    });
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  // Another origin than the stand-in's (localhost, not 127.0.0.1): cross-origin, like js.stripe.com.
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}`;
  if (executablePath) {
    browser = await chromium.launch({
      executablePath,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
    });
  }
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => shop.close(() => resolve()));
  await standIn.close();
});

beforeEach(() => {
  standIn.reset();
  shopRequests.length = 0;
});

async function open(clientSecret: string, extra = ""): Promise<Page> {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const errors: string[] = [];
  tab.on("pageerror", (error) => errors.push(error.message));
  tab.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  (tab as Page & { errors?: string[] }).errors = errors;
  await tab.goto(`${shopUrl}/?pk=${DEFAULT_ACCOUNT.publishableKey}&cs=${encodeURIComponent(clientSecret)}${extra}`);
  await expect.poll(() => tab.evaluate(() => document.body.dataset.ready)).toBe("yes");
  return tab;
}

async function fillCard(tab: Page, number: string, expiry = "12 / 34", cvc = "123") {
  await tab.getByLabel("Card number").fill(number);
  await tab.getByLabel("Expiration date").fill(expiry);
  await tab.getByLabel("Security code").fill(cvc);
}

async function result(tab: Page): Promise<string> {
  await expect.poll(() => tab.locator("#result").textContent(), { timeout: 10_000 }).not.toBe("");
  return (await tab.locator("#result").textContent()) ?? "";
}

async function axe(tab: Page, state: string) {
  const results = await new AxeBuilder({ page: tab }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe on ${state}`,
  ).toEqual([]);
}

const intent = (extra: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
  stripe.paymentIntents.create({ amount: 2500, currency: "usd", ...extra });

describe.skipIf(!executablePath)("stand-in Stripe.js", { timeout: 90_000 }, () => {
  it("mounts labelled card inputs and pays with 4242, card data going to the stand-in only", async () => {
    const pi = await intent();
    const tab = await open(pi.client_secret!);
    await axe(tab, "the mounted Payment Element");
    await fillCard(tab, "4242 4242 4242 4242");
    await expect.poll(() => tab.getByLabel("Card number").inputValue()).toBe("4242 4242 4242 4242");
    await tab.screenshot({ path: "test-results/stand-in-payment-element.png" });
    await tab.getByRole("button", { name: "Pay" }).click();
    expect(await result(tab)).toBe("ok: succeeded");
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe("succeeded");
    const confirm = standIn.requests.find((r) => r.path === `/v1/payment_intents/${pi.id}/confirm`);
    expect(confirm).toMatchObject({ publishable: true, status: 200 });
    expect(shopRequests.join("\n")).not.toContain("4242");
    expect(shopRequests.every((r) => r.startsWith("GET "))).toBe(true);
    expect((tab as Page & { errors?: string[] }).errors).toEqual([]);
    await tab.context().close();
  });

  it("validates before confirming: inline messages, aria-invalid, and an error code", async () => {
    const pi = await intent();
    const tab = await open(pi.client_secret!);
    await tab.getByRole("button", { name: "Pay" }).click();
    expect(await result(tab)).toBe("invalid: incomplete_number");
    await expect.poll(() => tab.getByText("Your card number is incomplete.").isVisible()).toBe(true);
    expect(await tab.getByLabel("Card number").getAttribute("aria-invalid")).toBe("true");
    await axe(tab, "the element showing errors");
    await tab.locator("#result").evaluate((el) => {
      el.textContent = "";
    });
    await fillCard(tab, "4242 4242 4242 4241");
    await tab.getByRole("button", { name: "Pay" }).click();
    expect(await result(tab)).toBe("invalid: invalid_number");
    expect(standIn.requests.filter((r) => r.path.endsWith("/confirm"))).toHaveLength(0);
    await tab.context().close();
  });

  it("shows the 3-D Secure challenge for 4000 0025 0000 3155 and pays once completed", async () => {
    const customer = await stripe.customers.create({});
    const pi = await intent({ customer: customer.id, setup_future_usage: "off_session" });
    const tab = await open(pi.client_secret!);
    await fillCard(tab, "4000 0025 0000 3155");
    await tab.getByRole("button", { name: "Pay" }).click();
    const dialog = tab.getByRole("dialog", { name: "3D Secure authentication" });
    await dialog.waitFor();
    const frame = tab.frameLocator('iframe[title="3D Secure authentication"]');
    await frame.getByRole("heading", { name: "3D Secure 2 Test Page" }).waitFor();
    await axe(tab, "the challenge dialog");
    await tab.screenshot({ path: "test-results/stand-in-3ds-challenge.png" });
    await frame.getByRole("button", { name: "Complete" }).click();
    expect(await result(tab)).toBe("ok: succeeded");
    await expect.poll(() => dialog.count()).toBe(0);
    const paid = await stripe.paymentIntents.retrieve(pi.id);
    expect(paid.status).toBe("succeeded");
    expect((await stripe.paymentMethods.retrieve(paid.payment_method as string)).customer).toBe(customer.id);
    await tab.context().close();
  });

  it("a failed challenge answers payment_intent_authentication_failure; the same page then pays", async () => {
    const pi = await intent();
    const tab = await open(pi.client_secret!);
    await fillCard(tab, "4000 0025 0000 3155");
    await tab.getByRole("button", { name: "Pay" }).click();
    await tab.frameLocator('iframe[title="3D Secure authentication"]').getByRole("button", { name: "Fail" }).click();
    expect(await result(tab)).toBe("error: payment_intent_authentication_failure");
    await tab.locator("#result").evaluate((el) => {
      el.textContent = "";
    });
    await fillCard(tab, "4242 4242 4242 4242");
    await tab.getByRole("button", { name: "Pay" }).click();
    expect(await result(tab)).toBe("ok: succeeded");
    expect(standIn.accounts[0]!.chargesByIntent.get(pi.id)).toHaveLength(1);
    await tab.context().close();
  });

  it("shows a decline: insufficient funds", async () => {
    const pi = await intent();
    const tab = await open(pi.client_secret!);
    await fillCard(tab, "4000 0000 0000 9995");
    await tab.getByRole("button", { name: "Pay" }).click();
    expect(await result(tab)).toBe("error: card_declined insufficient_funds");
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe("requires_payment_method");
    await tab.context().close();
  });

  it("confirms a SetupIntent (4000 0027 6000 3184 asks for authentication)", async () => {
    const customer = await stripe.customers.create({});
    const setup = await stripe.setupIntents.create({ customer: customer.id });
    const tab = await open(setup.client_secret!);
    await fillCard(tab, "4000 0027 6000 3184");
    await tab.getByRole("button", { name: "Pay" }).click();
    await tab
      .frameLocator('iframe[title="3D Secure authentication"]')
      .getByRole("button", { name: "Complete" })
      .click();
    expect(await result(tab)).toBe("ok: succeeded");
    const done = await stripe.setupIntents.retrieve(setup.id);
    expect((await stripe.paymentMethods.retrieve(done.payment_method as string)).customer).toBe(customer.id);
    await tab.context().close();
  });

  it("handleNextAction finishes a PaymentIntent the server confirmed (a renewal needing authentication)", async () => {
    const customer = await stripe.customers.create({});
    const method = await stripe.paymentMethods.attach("pm_card_authenticationRequired", { customer: customer.id });
    const pi = await intent({ customer: customer.id, payment_method: method.id, confirm: true });
    expect(pi.status).toBe("requires_action");
    const tab = await open(pi.client_secret!);
    await tab.evaluate(() => {
      void (window as unknown as { handleNext: () => Promise<void> }).handleNext();
    });
    await tab
      .frameLocator('iframe[title="3D Secure authentication"]')
      .getByRole("button", { name: "Complete" })
      .click();
    expect(await result(tab)).toBe("ok: succeeded");
    await tab.context().close();
  });

  it("without redirect: 'if_required', goes to the return_url with the intent and redirect_status", async () => {
    const pi = await intent();
    const tab = await open(pi.client_secret!, "&redirect=always");
    await fillCard(tab, "4242424242424242");
    await tab.getByRole("button", { name: "Pay" }).click();
    await tab.waitForURL(/\/done\?/);
    const url = new URL(tab.url());
    expect(url.searchParams.get("payment_intent")).toBe(pi.id);
    expect(url.searchParams.get("payment_intent_client_secret")).toBe(pi.client_secret);
    expect(url.searchParams.get("redirect_status")).toBe("succeeded");
    await tab.context().close();
  });
});
