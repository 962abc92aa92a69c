/**
 * The credit note PDF through the official Node SDK of the API family (adjustments.getCreditNotePDF),
 * pointed at our base URL: the link it returns opens the PDF over HTTP with no API key.
 */
import { type Environment, Paddle } from "@paddle/paddle-node-sdk";
import { expect, test } from "@playwright/test";
import { pdfText } from "../../lib/test/pdf";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";

test("the Node SDK gets an approved credit's credit note PDF link, which serves the PDF", async () => {
  const paddle = new Paddle(cliApiKey(), { environment: `${baseURL}/api` as Environment });
  const product = await paddle.products.create({ name: "SDK credit note product", taxCategory: "standard" });
  const price = await paddle.prices.create({
    productId: product.id,
    description: "One seat",
    unitPrice: { amount: "2500", currencyCode: "USD" },
  });
  const customer = await paddle.customers.create({ email: `sdk-credit-${Date.now()}@example.com`, name: "Ada Buyer" });
  const address = await paddle.addresses.create(customer.id, { countryCode: "US", postalCode: "10001" });
  const transaction = await paddle.transactions.create({
    items: [{ priceId: price.id, quantity: 4 }],
    customerId: customer.id,
    addressId: address.id,
    currencyCode: "USD",
    collectionMode: "manual",
    billingDetails: { paymentTerms: { interval: "day", frequency: 30 } },
  });
  const billed = await paddle.transactions.update(transaction.id, { status: "billed" });
  const credit = await paddle.adjustments.create({
    action: "credit",
    transactionId: transaction.id,
    reason: "Two seats were never used",
    items: [{ itemId: billed.details?.lineItems[0].id ?? "missing", type: "partial", amount: "5000" }],
  });
  expect(credit.status).toBe("approved");

  const link = await paddle.adjustments.getCreditNotePDF(credit.id, { disposition: "inline" });
  expect(link.url).toMatch(new RegExp(`^${baseURL}/api/documents/credit-notes/${credit.id}\\?`));
  const response = await fetch(link.url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  expect(response.headers.get("content-disposition")).toMatch(/^inline; filename="credit-note-CN-\d{6,}\.pdf"$/);
  const { text } = await pdfText(new Uint8Array(await response.arrayBuffer()));
  expect(text).toContain(`Original invoice ${billed.invoiceNumber}`);
  expect(text).toContain("Two seats were never used");
  expect(text).toContain("Total credited (USD) $50.00");

  await expect(paddle.adjustments.getCreditNotePDF("adj_01hv8x00000000000000000000")).rejects.toMatchObject({
    code: "not_found",
  });
});
