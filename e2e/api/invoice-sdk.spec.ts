/**
 * The invoice PDF through the official Node SDK of the API family (transactions.getInvoicePDF),
 * pointed at our base URL: the link it returns opens the PDF over HTTP with no API key.
 */
import { type Environment, Paddle } from "@paddle/paddle-node-sdk";
import { expect, test } from "@playwright/test";
import { pdfText } from "../../lib/test/pdf";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";

test("the Node SDK gets a transaction's invoice PDF link, which serves the PDF", async () => {
  const paddle = new Paddle(cliApiKey(), { environment: `${baseURL}/api` as Environment });
  const product = await paddle.products.create({ name: "SDK invoice product", taxCategory: "standard" });
  const price = await paddle.prices.create({
    productId: product.id,
    description: "One seat",
    unitPrice: { amount: "2500", currencyCode: "USD" },
  });
  const customer = await paddle.customers.create({ email: `sdk-invoice-${Date.now()}@example.com`, name: "Ada Buyer" });
  const address = await paddle.addresses.create(customer.id, { countryCode: "US", postalCode: "10001" });
  const transaction = await paddle.transactions.create({
    items: [{ priceId: price.id, quantity: 4 }],
    customerId: customer.id,
    addressId: address.id,
    currencyCode: "USD",
    collectionMode: "manual",
    billingDetails: { paymentTerms: { interval: "day", frequency: 30 } },
  });
  expect(transaction.status).toBe("ready");
  await expect(paddle.transactions.getInvoicePDF(transaction.id)).rejects.toMatchObject({
    code: "transaction_invoice_unavailable",
  });

  const billed = await paddle.transactions.update(transaction.id, { status: "billed" });
  const link = await paddle.transactions.getInvoicePDF(transaction.id, { disposition: "inline" });
  expect(link.url).toMatch(new RegExp(`^${baseURL}/api/documents/invoices/${transaction.id}\\?`));

  const response = await fetch(link.url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  expect(response.headers.get("content-disposition")).toBe(`inline; filename="invoice-${billed.invoiceNumber}.pdf"`);
  const { text } = await pdfText(new Uint8Array(await response.arrayBuffer()));
  expect(text).toContain(billed.invoiceNumber ?? "missing");
  expect(text).toContain("Ada Buyer");
  expect(text).toContain("Amount due (USD) $100.00");

  const tampered = await fetch(link.url.replace(/signature=[0-9a-f]/, "signature=x"));
  expect(tampered.status).toBe(403);
  expect((await tampered.json()).error.code).toBe("document_link_invalid");
});
