/**
 * The credit note PDF through the official Node SDK of the API family (adjustments.getCreditNotePDF),
 * pointed at our base URL: the link it returns opens the PDF over HTTP with no API key.
 */
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { fetchPdf, makeManualTransaction, sdk } from "./sdk-helpers";

test("the Node SDK gets an approved credit's credit note PDF link, which serves the PDF", async () => {
  const paddle = sdk();
  const transaction = await makeManualTransaction(paddle, "SDK credit note product", "sdk-credit");
  const billed = await paddle.transactions.update(transaction.id, { status: "billed" });
  const credit = await paddle.adjustments.create({
    action: "credit",
    transactionId: transaction.id,
    reason: "Two seats were never used",
    items: [{ itemId: billed.details?.lineItems[0]?.id ?? "missing", type: "partial", amount: "5000" }],
  });
  expect(credit.status).toBe("approved");

  const link = await paddle.adjustments.getCreditNotePDF(credit.id, { disposition: "inline" });
  expect(link.url).toMatch(new RegExp(`^${baseURL}/api/documents/credit-notes/${credit.id}\\?`));
  const { response, text } = await fetchPdf(link.url);
  expect(response.headers.get("content-disposition")).toMatch(/^inline; filename="credit-note-CN-\d{6,}\.pdf"$/);
  expect(text).toContain(`Original invoice ${billed.invoiceNumber}`);
  expect(text).toContain("Two seats were never used");
  expect(text).toContain("Total credited (USD) $50.00");

  await expect(paddle.adjustments.getCreditNotePDF("adj_01hv8x00000000000000000000")).rejects.toMatchObject({
    code: "not_found",
  });
});
