/**
 * Issue 26, items 8-11, as a merchant meets them: an invoice whose PDF says how to pay (the bank
 * details of Settings and a "Pay online" link with its QR code) and whose email reaches the
 * business's billing contacts, resent from the Emails page; exports an accountant opens (flat
 * columns, decimal amounts, a row per line item); the audit log and Home's activity in business
 * words; Home and Metrics counting the days of the account's time zone.
 */
import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { formatMinor } from "../../lib/billing/currencies";
import { zoneDay } from "../../lib/billing/zoned-days";
import { pdfText } from "../../lib/dev/test/pdf";
import {
  apiCall,
  createBuyer,
  expectNoSeriousA11yViolations,
  screenshot,
  sentEmails,
  shot,
  signIn,
  uniqueEmail,
  uniqueTag,
} from "../helpers";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** No serious axe-core violation; `excludeFrames` leaves out sandboxed frames axe-core cannot enter. */
async function axe(page: Page, state: string, excludeFrames = false): Promise<void> {
  if (!excludeFrames) return expectNoSeriousA11yViolations(page, state);
  const results = await new AxeBuilder({ page }).exclude("iframe").analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help}`),
    state,
  ).toEqual([]);
}

/** Screenshots at 1440 and 390 px, light and dark, after an axe-core check of the page. */
async function fourShots(page: Page, name: string, options: { excludeFrames?: boolean } = {}): Promise<void> {
  await axe(page, name, options.excludeFrames);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await shot(page, `books-${name}-${size}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(DESKTOP);
}

interface Invoice {
  id: string;
  invoiceNumber: string;
  customerId: string;
  businessName: string;
  contactEmail: string;
  customerEmail: string;
}

/** A manual invoice to a business with a billing contact (2 × $49.50), issued in the dashboard. */
async function issueInvoiceToBusiness(page: Page): Promise<Invoice> {
  const buyer = await createBuyer(page, "books", "Maya Buyer");
  const businessName = `Becker Design ${uniqueTag()}`;
  const contactEmail = uniqueEmail("accounts");
  const business = await apiCall<{ id: string }>(page, "POST", `/api/customers/${buyer.customerId}/businesses`, {
    name: businessName,
    contacts: [{ name: "Ana Accounts", email: contactEmail }],
  });
  const txn = await apiCall<{ id: string; status: string }>(page, "POST", "/api/transactions", {
    items: [{ price_id: buyer.priceId, quantity: 2 }],
    customer_id: buyer.customerId,
    address_id: buyer.addressId,
    business_id: business.id,
    currency_code: "USD",
    collection_mode: "manual",
    billing_details: { payment_terms: { interval: "day", frequency: 14 }, enable_checkout: true },
  });
  expect(txn.status).toBe("ready");
  await page.goto(`/transactions/${txn.id}`);
  await page.getByRole("button", { name: "Issue invoice" }).click();
  const dialog = page.getByRole("dialog", { name: "Issue the invoice?" });
  await dialog.getByRole("button", { name: "Issue invoice" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("transaction-kind")).toHaveText(/^Invoice \S+/);
  const invoiceNumber = ((await page.getByTestId("transaction-kind").textContent()) ?? "").replace("Invoice ", "");
  return {
    id: txn.id,
    invoiceNumber,
    customerId: buyer.customerId,
    businessName,
    contactEmail,
    customerEmail: buyer.email,
  };
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
});

test("the invoice PDF says how to pay; its email reaches the billing contact and is resent", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  // Settings' bank details (the form itself: hosted-invoice.spec), put back at the end.
  const before = await apiCall<{ bank_transfer_instructions: string | null }>(page, "GET", "/api/account-settings");
  await apiCall(page, "PATCH", "/api/account-settings", {
    bank_transfer_instructions: "Northwind Bank\nIBAN GB33 BUKB 2020 1555 5555 55",
  });
  try {
    await howToPayAndResend(page, browser);
  } finally {
    await apiCall(page, "PATCH", "/api/account-settings", {
      bank_transfer_instructions: before.bank_transfer_instructions,
    });
  }
});

async function howToPayAndResend(page: Page, browser: Browser): Promise<void> {
  const invoice = await issueInvoiceToBusiness(page);

  // The PDF, as the dashboard downloads it, rendered to text.
  const { url } = await apiCall<{ url: string }>(page, "GET", `/api/transactions/${invoice.id}/invoice`);
  const pdf = await page.request.get(url);
  expect(pdf.status()).toBe(200);
  const bytes = new Uint8Array(await pdf.body());
  const { text } = await pdfText(bytes);
  expect(text).toContain("HOW TO PAY Bank transfer Northwind Bank IBAN GB33 BUKB 2020 1555 5555 55");
  expect(text).toContain("Pay online Scan the code or open:");
  const payLink = /\/URI \((http[^)]+)\)/.exec(Buffer.from(bytes).toString("latin1"))?.[1] ?? "";
  expect(payLink).toMatch(new RegExp(`/invoices/${invoice.id}-\\d+-[0-9a-f]{64}$`));
  expect(text.replace(/\s+/g, "")).toContain(payLink);

  // The link opens the hosted invoice for a customer who is not signed in.
  const customer = await browser.newContext();
  const hosted = await customer.newPage();
  await hosted.goto(new URL(payLink).pathname);
  await expect(hosted.getByRole("heading", { level: 1 })).toContainText(invoice.invoiceNumber);
  await expect(hosted.getByText("IBAN GB33 BUKB 2020 1555 5555 55")).toBeVisible();
  await customer.close();

  // The invoice email went to the customer and to the business's billing contact, by name.
  const [toContact] = await sentEmails(invoice.contactEmail);
  expect(toContact!.subject).toContain(`Invoice ${invoice.invoiceNumber}`);
  expect(toContact!.text).toContain("Hello Ana Accounts,");
  await sentEmails(invoice.customerEmail);

  // Resend, from the email's page.
  const [logged] = await apiCall<{ id: string }[]>(
    page,
    "GET",
    `/api/emails?to=${encodeURIComponent(invoice.contactEmail)}`,
  );
  await page.goto(`/emails/${logged!.id}`);
  await page.getByRole("button", { name: "Resend" }).click();
  const confirm = page.getByRole("dialog", { name: "Send this email again?" });
  await expect(confirm).toContainText(invoice.contactEmail);
  await axe(page, "resend dialog", true);
  await shot(page, "books-email-resend-dialog");
  await confirm.getByRole("button", { name: "Resend email" }).click();
  await expect(page.getByText(`Email sent again to ${invoice.contactEmail}.`)).toBeVisible();
  await page.waitForURL((u) => /^\/emails\/eml_[a-z0-9]{26}$/.test(u.pathname) && !u.pathname.endsWith(logged!.id));
  const received = await sentEmails(invoice.contactEmail, 2);
  expect(received.filter((mail) => mail.subject === toContact!.subject)).toHaveLength(2);
  // The email's HTML is shown in a sandboxed frame, which axe-core cannot enter: the page around it is checked.
  await fourShots(page, "email", { excludeFrames: true });
}

test("the audit log and Home's activity say what happened in business words", async ({ page }) => {
  test.setTimeout(180_000);
  const invoice = await issueInvoiceToBusiness(page);
  await apiCall(page, "POST", `/api/transactions/${invoice.id}/mark-paid`, { method: "wire_transfer" });
  const paid = await apiCall<{ details: { line_items: { id: string }[] } }>(
    page,
    "GET",
    `/api/transactions/${invoice.id}`,
  );
  await apiCall(page, "POST", "/api/adjustments", {
    action: "refund",
    transaction_id: invoice.id,
    reason: "Training day canceled",
    type: "partial",
    items: [{ item_id: paid.details.line_items[0]!.id, type: "partial", amount: "5000" }],
  });

  await page.goto("/audit-log");
  const table = page.getByRole("table", { name: "Audit log" });
  const issued = `Issued invoice ${invoice.invoiceNumber} ($99.00) to ${invoice.businessName}`;
  await expect(table).toContainText(issued);
  await expect(table).toContainText(`Marked invoice ${invoice.invoiceNumber} ($99.00) paid by ${invoice.businessName}`);
  await expect(table).toContainText(`Refunded $50.00 on ${invoice.invoiceNumber}`);
  await expect(table).not.toContainText("/api/");
  const issuedRow = table.getByRole("row").filter({ hasText: issued });
  await expect(issuedRow.getByRole("link", { name: invoice.invoiceNumber })).toHaveAttribute(
    "href",
    `/transactions/${invoice.id}`,
  );
  await expect(issuedRow.getByRole("link", { name: invoice.businessName })).toHaveAttribute(
    "href",
    `/customers/${invoice.customerId}`,
  );
  await fourShots(page, "audit-log");

  await page.goto("/");
  const activity = page.getByRole("list", { name: "Recent events" });
  await expect(activity).toContainText(issued);
  await expect(activity).toContainText(/Refund(ed| of) \$50\.00/);
  await expect(activity.getByRole("link", { name: invoice.invoiceNumber }).first()).toHaveAttribute(
    "href",
    `/transactions/${invoice.id}`,
  );
  await fourShots(page, "home");
});

test("an export opened as CSV has flat columns, decimal amounts and a row per line item", async ({ page }) => {
  const invoice = await issueInvoiceToBusiness(page);
  await page.goto(`/transactions?q=${invoice.customerId}`);
  await expect(page.getByRole("table", { name: "Transactions" })).toContainText(invoice.invoiceNumber);
  await expect(page.getByRole("group", { name: "Export as CSV" })).toBeVisible();
  await fourShots(page, "transactions");

  const read = async (name: string) => {
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name }).click();
    const download = await downloading;
    return { name: download.suggestedFilename(), csv: readFileSync((await download.path()) as string, "utf8") };
  };
  const rows = (csv: string) => {
    const [header, ...lines] = csv
      .trim()
      .split("\r\n")
      .map((line) => line.split(","));
    return lines.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]])));
  };

  const whole = await read("Export CSV");
  expect(whole.name).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
  const [row] = rows(whole.csv);
  expect(row!.invoice_number).toBe(invoice.invoiceNumber);
  expect(row!["details.totals.grand_total"]).toBe("9900");
  expect(row!["details.totals.grand_total_decimal"]).toBe("99.00");
  expect(row!["business.name"]).toBe(invoice.businessName);
  expect(row!["items.count"]).toBe("1");
  expect(whole.csv).not.toMatch(/(^|,)"?[[{]/m);

  const lines = await read("Export line items");
  expect(lines.name).toMatch(/^transactions-\d{4}-\d{2}-\d{2}-line-items\.csv$/);
  const [line] = rows(lines.csv);
  expect(line!.id).toBe(invoice.id);
  expect(line!["line.quantity"]).toBe("2");
  expect(line!["line.unit_totals.subtotal_decimal"]).toBe("49.50");
  expect(line!["line.totals.total_decimal"]).toBe("99.00");
});

test("Home and Metrics count the days of the account's time zone", async ({ page }) => {
  test.setTimeout(180_000);
  const before = await apiCall<{ timezone: string }>(page, "GET", "/api/account-settings");
  // UTC+14: most of the day, its date is not UTC's.
  const zone = "Pacific/Kiritimati";
  await apiCall(page, "PATCH", "/api/account-settings", { timezone: zone });
  try {
    const today = zoneDay(new Date(), zone);
    const asked = page.waitForRequest(
      (r) => r.url().includes("/api/metrics/revenue?") && new URL(r.url()).searchParams.get("time_zone") === zone,
    );
    await page.goto("/");
    const request = new URL((await asked).url());
    expect(request.searchParams.get("from")).toBe(`${today.slice(0, 7)}-01`);
    // "Revenue today" is the zone's today, as the API counts it.
    const next = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const metric = await apiCall<{ timeseries: { amount: string }[] }>(
      page,
      "GET",
      `/api/metrics/revenue?from=${today}&to=${next}&time_zone=${encodeURIComponent(zone)}`,
    );
    const amount = formatMinor(metric.timeseries[0]!.amount, "USD");
    await expect(page.getByRole("region", { name: "Revenue today" })).toContainText(
      `$${amount.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`,
    );

    await page.goto("/metrics");
    await expect(page.getByText(`Per day in ${zone}`)).toBeVisible();
    await fourShots(page, "metrics");

    await page.goto("/reports");
    await expect(page.getByText(`Day in ${zone}, included.`).first()).toBeVisible();
    await screenshot(page, "books-reports-desktop-light");
  } finally {
    await apiCall(page, "PATCH", "/api/account-settings", { timezone: before.timezone });
  }
});
