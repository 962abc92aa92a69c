/**
 * The invoice PDF through the official Node SDK of the API family (transactions.getInvoicePDF),
 * pointed at our base URL: the link it returns opens the PDF over HTTP with no API key.
 */
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { fetchPdf, makeManualTransaction, sdk } from "./sdk-helpers";

test("the Node SDK gets a transaction's invoice PDF link, which serves the PDF", async () => {
  const paddle = sdk();
  const transaction = await makeManualTransaction(paddle, "SDK invoice product", "sdk-invoice");
  expect(transaction.status).toBe("ready");
  await expect(paddle.transactions.getInvoicePDF(transaction.id)).rejects.toMatchObject({
    code: "transaction_invoice_unavailable",
  });

  const billed = await paddle.transactions.update(transaction.id, { status: "billed" });
  const link = await paddle.transactions.getInvoicePDF(transaction.id, { disposition: "inline" });
  expect(link.url).toMatch(new RegExp(`^${baseURL}/api/documents/invoices/${transaction.id}\\?`));

  const { response, text } = await fetchPdf(link.url);
  expect(response.headers.get("content-disposition")).toBe(`inline; filename="invoice-${billed.invoiceNumber}.pdf"`);
  expect(text).toContain(billed.invoiceNumber ?? "missing");
  expect(text).toContain("Ada Buyer");
  expect(text).toContain("Amount due (USD) $100.00");

  const tampered = await fetch(link.url.replace(/signature=[0-9a-f]/, "signature=x"));
  expect(tampered.status).toBe(403);
  expect((await tampered.json()).error.code).toBe("document_link_invalid");
});
