/**
 * Refunds and credits from the dashboard. The transaction is created through the API and paid at
 * the hosted checkout's endpoint with the sandbox card; this spec is about what happens after.
 */
import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { pdfText } from "../../lib/dev/test/pdf";
import { apiCall, createProductViaApi, shot, signIn, uniqueEmail, uniqueTag } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** Clicks a credit-note button; returns the downloaded PDF's file name and text. */
async function downloadCreditNote(page: Page, button: Locator): Promise<{ fileName: string; text: string }> {
  const downloading = page.waitForEvent("download");
  await button.click();
  const download = await downloading;
  const bytes = await readFile((await download.path()) as string);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  return { fileName: download.suggestedFilename(), text: (await pdfText(new Uint8Array(bytes))).text };
}

async function priceOf(page: Page, name: string, amount: string): Promise<string> {
  const productId = await createProductViaApi(page, { name }, [
    { description: "One-off", amount, currency_code: "USD" },
  ]);
  const [price] = await apiCall<{ id: string }[]>(page, "GET", `/api/prices?product_id=${productId}`);
  return price!.id;
}

/** A completed transaction for a buyer in the UK (20% VAT): $49.50 + $20.00, $83.40 with tax. */
async function completedTransaction(page: Page): Promise<{ id: string; first: string; second: string }> {
  const first = `Workshop ${uniqueTag()}`;
  const second = `Handbook ${uniqueTag()}`;
  const items = [
    { price_id: await priceOf(page, first, "4950"), quantity: 1 },
    { price_id: await priceOf(page, second, "2000"), quantity: 1 },
  ];
  const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", {
    email: uniqueEmail("refund"),
    name: "Ada Lovelace",
  });
  const address = await apiCall<{ id: string }>(page, "POST", `/api/customers/${customer.id}/addresses`, {
    country_code: "GB",
    postal_code: "SW1A 1AA",
  });
  const txn = await apiCall<{ id: string }>(page, "POST", "/api/transactions", {
    items,
    customer_id: customer.id,
    address_id: address.id,
    currency_code: "USD",
  });
  // Paid at the hosted checkout's endpoint (public), as a customer would with the sandbox card.
  await apiCall(page, "POST", `/api/checkout/${txn.id}/payments`, {
    cardholder_name: "Ada Lovelace",
    number: "4242 4242 4242 4242",
    expiry: "12/39",
    cvc: "123",
  });
  return { id: txn.id, first, second };
}

test("refund one line partly from the transaction's page, see it listed with the adjusted totals", async ({ page }) => {
  const txn = await completedTransaction(page);
  await page.goto(`/transactions/${txn.id}`);
  const section = page.getByRole("region", { name: "Adjustments" });
  await expect(section.getByText("No adjustments")).toBeVisible();

  await section.getByRole("button", { name: "Refund", exact: true }).click();
  const form = page.getByRole("form", { name: "Refund transaction" });
  await expect(form.getByText("Everything left ($83.40)")).toBeVisible();
  await form.getByLabel("Part of it, line by line").check();
  const firstLine = form.getByLabel(`Refund for ${txn.first}`);
  await expect(form.getByText("$59.40 left to refund, tax included.")).toBeVisible();

  // The reason is required: the form says so before anything is sent.
  await firstLine.fill("10.00");
  await form.getByRole("button", { name: "Review refund" }).click();
  await expect(form.getByText("Say why, for the customer's credit note and your records.")).toBeVisible();

  await form.getByLabel("Reason").fill("Arrived late");
  await form.getByRole("button", { name: "Review refund" }).click();
  const dialog = page.getByRole("dialog", { name: "Refund $10.00?" });
  await expect(dialog).toBeVisible();
  // Step 2 says what is refunded, line by line, before anything is sent.
  const summary = dialog.getByLabel("What the refund covers");
  await expect(summary).toContainText(`${txn.first}$10.00`);
  await expect(summary).toContainText("Total refund, tax included$10.00");
  await expect(summary).toContainText("ReasonArrived late");
  // Going back keeps what was typed.
  await dialog.getByRole("button", { name: "Go back" }).click();
  await expect(firstLine).toHaveValue("10.00");
  await form.getByRole("button", { name: "Review refund" }).click();
  await shot(page, "adjustments-confirm");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "adjustments-confirm-phone");
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole("button", { name: "Refund $10.00" }).click();
  await expect(dialog).toBeHidden();
  await expect(form).toBeHidden();

  const table = section.getByRole("table", { name: "Adjustments" });
  const row = table.getByRole("row").nth(1);
  await expect(row).toContainText("Refund");
  await expect(row).toContainText("approved");
  await expect(row).toContainText("$10.00");
  await expect(row).toContainText("Arrived late");
  await expect(section.getByLabel("Adjusted totals")).toContainText("Adjusted total$73.40");
  // The transaction's own page says so, as the list does.
  await expect(page.getByText("Partially refunded").first()).toBeVisible();
  await shot(page, "adjustments-refunded");

  // The approved refund's credit note: its own number, the reason and the amount given back.
  const creditNote = await downloadCreditNote(
    page,
    row.getByRole("button", { name: "Download credit note (refund of $10.00)" }),
  );
  const [, creditNoteNumber] = creditNote.fileName.match(/^credit-note-(CN-\d{6,})\.pdf$/) ?? [];
  expect(creditNoteNumber, creditNote.fileName).toBeTruthy();
  for (const expected of [
    `Credit note number ${creditNoteNumber}`,
    txn.id,
    "Refund to the original payment method",
    "Ada Lovelace",
    txn.first,
    "Arrived late",
    "Total credited (USD) $10.00",
  ]) {
    expect(creditNote.text, expected).toContain(expected);
  }

  // More than is left of a line: the server's reason appears beside that line's amount.
  await section.getByRole("button", { name: "Refund", exact: true }).click();
  await form.getByLabel("Part of it, line by line").check();
  await expect(form.getByText("$49.40 left to refund, tax included.")).toBeVisible();
  // No amount on any line: the form says so beside the first line, and sends nothing.
  await form.getByLabel("Reason").fill("Too much");
  await form.getByRole("button", { name: "Review refund" }).click();
  await expect(form.getByText("Enter an amount for at least one line to refund.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await form.getByLabel(`Refund for ${txn.second}`).fill("30.00");
  await form.getByLabel("Reason").fill("Too much");
  await form.getByRole("button", { name: "Review refund" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Refund $30.00" }).click();
  await expect(
    form.getByText(/is more than what is left to adjust on txnitm_[a-z0-9]{26}: 2400 is left/),
  ).toBeVisible();
  await expect(form.getByLabel(`Refund for ${txn.second}`)).toHaveAttribute("aria-invalid", "true");
  await shot(page, "adjustments-field-error");
  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(table.getByRole("row")).toHaveCount(2);
});

test("credit everything left of an issued invoice", async ({ page }) => {
  const price = await priceOf(page, `Audit ${uniqueTag()}`, "12000");
  const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", {
    email: uniqueEmail("credit"),
    name: "Grace Hopper",
  });
  const address = await apiCall<{ id: string }>(page, "POST", `/api/customers/${customer.id}/addresses`, {
    country_code: "US",
    postal_code: "10001",
  });
  const txn = await apiCall<{ id: string }>(page, "POST", "/api/transactions", {
    items: [{ price_id: price, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
    currency_code: "USD",
    collection_mode: "manual",
    billing_details: { payment_terms: { interval: "day", frequency: 30 } },
  });
  const billed = await apiCall<{ invoice_number: string }>(page, "PATCH", `/api/transactions/${txn.id}`, {
    status: "billed",
  });

  await page.goto(`/transactions/${txn.id}`);
  const section = page.getByRole("region", { name: "Adjustments" });
  await expect(section.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
  await section.getByRole("button", { name: "Credit", exact: true }).click();
  const form = page.getByRole("form", { name: "Credit transaction" });
  await expect(form.getByLabel("Everything left ($120.00)")).toBeChecked();
  await form.getByLabel("Reason").fill("Goodwill: the audit was postponed");
  await form.getByRole("button", { name: "Review credit" }).click();
  await page.getByRole("dialog", { name: "Credit $120.00?" }).getByRole("button", { name: "Credit $120.00" }).click();
  await expect(form).toBeHidden();

  const row = section.getByRole("table", { name: "Adjustments" }).getByRole("row").nth(1);
  await expect(row).toContainText("Credit");
  await expect(row).toContainText("$120.00");
  await expect(section.getByLabel("Adjusted totals")).toContainText("Adjusted total$0.00");
  // Nothing is left to credit: the action is gone.
  await expect(section.getByRole("button", { name: "Credit", exact: true })).toHaveCount(0);
  await shot(page, "adjustments-credited");

  const creditNote = await downloadCreditNote(
    page,
    row.getByRole("button", { name: "Download credit note (credit of $120.00)" }),
  );
  expect(creditNote.text).toContain(`Original invoice ${billed.invoice_number}`);
  expect(creditNote.text).toContain("Credit to the customer's balance");
  expect(creditNote.text).toContain("Goodwill: the audit was postponed");
  expect(creditNote.text).toContain("Total credited (USD) $120.00");
});
