/** The official Node SDK of the API family we mirror, pointed at our base URL, and what its specs share. */
import { type Environment, Paddle } from "@paddle/paddle-node-sdk";
import { expect } from "@playwright/test";
import { pdfText } from "../../lib/dev/test/pdf";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";

/**
 * An SDK client on a key (by default a new one with every permission), at `base`: /api by default,
 * or the host root, where the API answers API clients too (README, API notes).
 */
export function sdk(key = cliApiKey(), base: string = `${baseURL}/api`): Paddle {
  return new Paddle(key, { environment: base as Environment });
}

/**
 * A new manual transaction (net 30 days) of four seats at 25.00 USD of a new product named
 * `productName`, for a new customer "Ada Buyer" (email `{emailPrefix}-{time}@example.com`) in the US.
 */
export async function makeManualTransaction(paddle: Paddle, productName: string, emailPrefix: string) {
  const product = await paddle.products.create({ name: productName, taxCategory: "standard" });
  const price = await paddle.prices.create({
    productId: product.id,
    description: "One seat",
    unitPrice: { amount: "2500", currencyCode: "USD" },
  });
  const customer = await paddle.customers.create({
    email: `${emailPrefix}-${Date.now()}@example.com`,
    name: "Ada Buyer",
  });
  const address = await paddle.addresses.create(customer.id, { countryCode: "US", postalCode: "10001" });
  return paddle.transactions.create({
    items: [{ priceId: price.id, quantity: 4 }],
    customerId: customer.id,
    addressId: address.id,
    currencyCode: "USD",
    collectionMode: "manual",
    billingDetails: { paymentTerms: { interval: "day", frequency: 30 } },
  });
}

/**
 * Opens a document link over HTTP with no API key and checks that it serves a PDF; returns the
 * response (its body read) and the PDF's text.
 */
export async function fetchPdf(url: string): Promise<{ response: Response; text: string }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  const { text } = await pdfText(new Uint8Array(await response.arrayBuffer()));
  return { response, text };
}

/** The sandbox card that pays (lib/billing/payments.ts TEST_CARDS). */
const PAYING_CARD = { cardholder_name: "Ada Buyer", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" };

/**
 * A subscription bought at the hosted checkout: a new monthly USD 30.00 price (with a trial of
 * `trialDays`), a new customer in the US, `quantity` seats, paid with the sandbox's paying card by
 * the checkout's public endpoint over HTTP, as the checkout page pays.
 */
export async function subscribeAtCheckout(paddle: Paddle, options: { quantity?: number; trialDays?: number } = {}) {
  const product = await paddle.products.create({ name: `SDK plan ${Date.now()}`, taxCategory: "standard" });
  const price = await paddle.prices.create({
    productId: product.id,
    description: "Monthly",
    unitPrice: { amount: "3000", currencyCode: "USD" },
    billingCycle: { interval: "month", frequency: 1 },
    ...(options.trialDays ? { trialPeriod: { interval: "day", frequency: options.trialDays } } : {}),
  });
  const customer = await paddle.customers.create({ email: `sdk-sub-${Date.now()}@example.com`, name: "Ada Buyer" });
  const address = await paddle.addresses.create(customer.id, { countryCode: "US", postalCode: "10001" });
  const txn = await paddle.transactions.create({
    items: [{ priceId: price.id, quantity: options.quantity ?? 1 }],
    customerId: customer.id,
    addressId: address.id,
  });
  const paid = await fetch(`${baseURL}/api/checkout/${txn.id}/payments`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(PAYING_CARD),
  });
  expect(paid.status).toBe(201);
  const completed = await paddle.transactions.get(txn.id);
  expect(completed.subscriptionId).toMatch(/^sub_/);
  return { subscriptionId: completed.subscriptionId as string, customer, address, product, price };
}
