/**
 * Invoices that get paid: the invoice PDF previewed before it is issued, the hosted invoice page
 * reached with "Copy invoice link" and paid by card as a signed-out customer (the dashboard then
 * shows it paid), a tampered link, and the Emails log with the invoice-issued email.
 */
import { expect, type Page, test } from "@playwright/test";
import { pdfText } from "../../lib/dev/test/pdf";
import { apiCall, createBuyer, sentEmails, shot, signIn } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** A ready manually-collected transaction that takes cards: 2 × $49.50 for a customer in New York. */
async function createReadyInvoice(page: Page): Promise<{ id: string; email: string; productName: string }> {
  const { productName, priceId, customerId, addressId, email } = await createBuyer(page, "hosted");
  const txn = await apiCall<{ id: string; status: string }>(page, "POST", "/api/transactions", {
    items: [{ price_id: priceId, quantity: 2 }],
    customer_id: customerId,
    address_id: addressId,
    currency_code: "USD",
    collection_mode: "manual",
    billing_details: { payment_terms: { interval: "day", frequency: 14 }, enable_checkout: true },
  });
  expect(txn.status).toBe("ready");
  return { id: txn.id, email, productName };
}

async function issue(page: Page, id: string): Promise<string> {
  await page.goto(`/transactions/${id}`);
  await page.getByRole("button", { name: "Issue invoice" }).click();
  const dialog = page.getByRole("dialog", { name: "Issue the invoice?" });
  await dialog.getByRole("button", { name: "Issue invoice" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("transaction-kind")).toHaveText(/^Invoice \S+/);
  return ((await page.getByTestId("transaction-kind").textContent()) ?? "").replace("Invoice ", "");
}

test("preview the invoice PDF before issuing it: marked DRAFT, no number taken", async ({ page }) => {
  const txn = await createReadyInvoice(page);
  await page.goto(`/transactions/${txn.id}`);
  await page.getByRole("button", { name: "Issue invoice" }).click();
  const dialog = page.getByRole("dialog", { name: "Issue the invoice?" });
  const preview = dialog.getByRole("link", { name: "Preview PDF" });
  await expect(preview).toHaveAttribute("href", `/api/transactions/${txn.id}/invoice-preview`);
  await expect(preview).toHaveAttribute("target", "_blank");
  await shot(page, "invoice-issue-preview-dialog");

  // What the link opens (with the dashboard's session).
  const response = await page.request.get(`/api/transactions/${txn.id}/invoice-preview`);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  const { text } = await pdfText(new Uint8Array(await response.body()));
  expect(text).toContain("DRAFT");
  expect(text).toContain("Preview (not issued)");
  expect(text).toContain(txn.productName);
  expect(text).toContain("Grace Hopper");
  expect(text).toContain("Total $99.00");

  // Going back issues nothing.
  await dialog.getByRole("button", { name: "Go back" }).click();
  const after = await apiCall<{ status: string; invoice_number: string | null }>(
    page,
    "GET",
    `/api/transactions/${txn.id}`,
  );
  expect(after).toMatchObject({ status: "ready", invoice_number: null });
});

test("pay an invoice from its hosted page, signed out; the dashboard then shows it paid", async ({ page, browser }) => {
  await page.goto("/settings");
  await page.getByLabel("Bank transfer instructions").fill("Bank: E2E Bank\nIBAN: DE89 3704 0044 0532 0130 00");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();

  const txn = await createReadyInvoice(page);
  const invoiceNumber = await issue(page, txn.id);
  await page.getByRole("button", { name: "Copy invoice link" }).click();
  const field = page.getByLabel("Hosted invoice page");
  await expect(field).toHaveValue(new RegExp(`/invoices/${txn.id}-\\d+-[0-9a-f]{64}$`));
  const link = await field.inputValue();
  await shot(page, "transaction-invoice-link");

  const customer = await browser.newContext();
  const hosted = await customer.newPage();
  await hosted.goto(link);
  await expect(hosted.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${invoiceNumber}`);
  await expect(hosted.getByTestId("invoice-state")).toHaveText("Open");
  await expect(hosted.getByText("Grace Hopper")).toBeVisible();
  await expect(hosted.getByText(txn.productName)).toBeVisible();
  await expect(hosted.getByRole("region", { name: "Pay by bank transfer" })).toContainText(
    "IBAN: DE89 3704 0044 0532 0130 00",
  );
  await expect(hosted.getByRole("link", { name: "Download PDF" })).toHaveAttribute(
    "href",
    new RegExp(`/api/documents/invoices/${txn.id}\\?disposition=attachment&expires=\\d+&signature=`),
  );
  await shot(hosted, "hosted-invoice-open");
  await hosted.setViewportSize({ width: 390, height: 844 });
  await shot(hosted, "hosted-invoice-open-phone");
  await hosted.setViewportSize({ width: 1280, height: 720 });

  await hosted.getByRole("link", { name: "Pay $99.00 by card" }).click();
  await hosted.waitForURL(`**/checkout?_ptxn=${txn.id}`);
  await hosted.getByLabel("Name on card").fill("Grace Hopper");
  await hosted.getByLabel("Card number").fill("4242 4242 4242 4242");
  await hosted.getByLabel("Expiry (MM/YY)").fill("12/34");
  await hosted.getByLabel("CVC").fill("123");
  await hosted.getByRole("button", { name: "Pay $99.00" }).click();
  await expect(hosted.getByText("Payment successful")).toBeVisible();

  await hosted.goto(link);
  await expect(hosted.getByTestId("invoice-state")).toHaveText("Paid");
  await expect(hosted.getByRole("link", { name: /by card/ })).toHaveCount(0);
  await expect(hosted.getByRole("region", { name: "Pay by bank transfer" })).toHaveCount(0);
  await shot(hosted, "hosted-invoice-paid");

  // A tampered link: a clear page in words, answered 403 (app/invoices/link/route.ts).
  const tampered = link.replace(/[0-9a-f]$/, (c) => (c === "0" ? "1" : "0"));
  const response = await hosted.goto(tampered);
  expect(response?.status()).toBe(403);
  await expect(hosted.getByRole("heading", { level: 1, name: "This invoice link is not valid" })).toBeVisible();
  await expect(hosted.getByRole("alert")).toContainText("ask the seller for a new one");
  await shot(hosted, "hosted-invoice-tampered");
  for (const hostile of ["%25zz", "%3Cscript%3E", `${txn.id}-1-${"0".repeat(64)}`, "x".repeat(3000)]) {
    const answer = await hosted.goto(`/invoices/${hostile}`);
    expect(answer?.status(), hostile).toBeLessThan(500);
  }
  await customer.close();

  await page.reload();
  await expect(page.getByText("completed").first()).toBeVisible();
  const paid = await apiCall<{ status: string }>(page, "GET", `/api/transactions/${txn.id}`);
  expect(paid.status).toBe("completed");
  await shot(page, "transaction-paid-from-hosted-invoice");
});

test("the invoice-issued email goes out through SMTP with the hosted page's link, which opens the invoice; the Emails page lists it as sent", async ({
  page,
  browser,
}) => {
  const txn = await createReadyInvoice(page);
  const invoiceNumber = await issue(page, txn.id);

  // What the customer's mailbox got (the suite's loopback SMTP server): the subject, and a link
  // that opens the invoice, without any session, in a fresh browser.
  const [mail] = await sentEmails(txn.email);
  expect(mail!.subject).toContain(`Invoice ${invoiceNumber} from`);
  const link = /View and pay invoice: (http:\/\/localhost:\d+\/invoices\/\S+)/.exec(mail!.text ?? "")?.[1];
  expect(link, mail!.text ?? "").toBeDefined();
  expect(mail!.html).toContain(`href="${link}"`);
  const customer = await browser.newPage();
  await customer.goto(link as string);
  await expect(customer.getByRole("heading", { level: 1 })).toContainText(invoiceNumber);
  await customer.close();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Emails" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Emails" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: txn.email });
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText(`Invoice ${invoiceNumber} from`);
  await expect(row).toContainText("transaction.billed");
  await expect(row).toContainText("sent");
  await shot(page, "emails-list");

  await row.getByRole("link", { name: new RegExp(`Invoice ${invoiceNumber}`) }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Invoice ${invoiceNumber} from`);
  await expect(page.getByText(txn.email)).toBeVisible();
  const html = page.frameLocator("iframe");
  await expect(html.getByRole("link", { name: "View and pay invoice" })).toBeVisible();
  await expect(page.getByText(/View and pay invoice: http:\/\/localhost:\d+\/invoices\//)).toBeVisible();
  await shot(page, "email-detail");
});
