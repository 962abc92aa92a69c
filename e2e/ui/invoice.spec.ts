import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { pdfText } from "../../lib/dev/test/pdf";
import { apiCall, createBuyer, shot, signIn } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** A ready manually-collected transaction: 2 × $49.50 for a customer in New York. */
async function createReadyInvoice(page: Page): Promise<{ id: string; productName: string }> {
  const { productName, priceId, customerId, addressId } = await createBuyer(page, "invoice", "Zoë Müller");
  const txn = await apiCall<{ id: string; status: string }>(page, "POST", "/api/transactions", {
    items: [{ price_id: priceId, quantity: 2 }],
    customer_id: customerId,
    address_id: addressId,
    currency_code: "USD",
    collection_mode: "manual",
    billing_details: { payment_terms: { interval: "day", frequency: 14 }, purchase_order_number: "PO-2207" },
  });
  expect(txn.status).toBe("ready");
  return { id: txn.id, productName };
}

test("issue an invoice from the dashboard, then download its PDF", async ({ page }) => {
  const txn = await createReadyInvoice(page);
  await page.goto(`/transactions/${txn.id}`);
  await expect(page.getByRole("button", { name: "Issue invoice" })).toBeVisible();
  // A ready transaction has no invoice yet.
  await expect(page.getByRole("button", { name: "Download invoice" })).toHaveCount(0);

  await page.getByRole("button", { name: "Issue invoice" }).click();
  const dialog = page.getByRole("dialog", { name: "Issue the invoice?" });
  await dialog.getByRole("button", { name: "Issue invoice" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("transaction-kind")).toHaveText(/^Invoice \S+/);
  const invoiceNumber = (await page.getByTestId("transaction-kind").textContent())?.replace("Invoice ", "") ?? "";
  expect(invoiceNumber).toMatch(/\S+/);

  // Slow the link down a little, to see the button's progress state.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/transactions/${txn.id}/invoice*`, async (route) => {
    await held;
    await route.continue();
  });
  const button = page.getByRole("button", { name: "Download invoice" });
  await expect(button).toBeEnabled();
  await shot(page, "invoice-download-button");
  const downloading = page.waitForEvent("download");
  await button.click();
  const busy = page.getByRole("button", { name: "Preparing invoice…" });
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute("aria-busy", "true");
  await shot(page, "invoice-download-pending");
  release();

  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`invoice-${invoiceNumber}.pdf`);
  const bytes = await readFile((await download.path()) as string);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const { text } = await pdfText(new Uint8Array(bytes));
  expect(text).toContain(invoiceNumber);
  expect(text).toContain("Zoë Müller");
  expect(text).toContain(txn.productName);
  expect(text).toContain("PO-2207");
  expect(text).toContain("Net 14 days");
  expect(text).toContain("Total $99.00");
  expect(text).toContain("Amount due (USD) $99.00");
  await expect(page.getByRole("button", { name: "Download invoice" })).toBeEnabled();
});

test("a failed link shows the API's reason", async ({ page }) => {
  const txn = await createReadyInvoice(page);
  await apiCall(page, "PATCH", `/api/transactions/${txn.id}`, { status: "billed" });
  await page.goto(`/transactions/${txn.id}`);
  await page.route(`**/api/transactions/${txn.id}/invoice*`, (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        error: {
          type: "request_error",
          code: "transaction_invoice_unavailable",
          detail: "Transaction is canceled and has no invoice.",
        },
        meta: { request_id: "req-e2e-invoice" },
      }),
    }),
  );
  await page.getByRole("button", { name: "Download invoice" }).click();
  await expect(
    page.getByText("Could not download the invoice: Transaction is canceled and has no invoice."),
  ).toBeVisible();
  await shot(page, "invoice-download-error");
});
