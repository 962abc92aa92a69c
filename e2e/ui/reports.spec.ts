/**
 * The Reports page: an owner creates a transactions report with a date range and a status filter,
 * watches it go from pending to ready (the page polls; the server's in-process worker generates
 * it), downloads the CSV and checks its header and the seeded row; a viewer can download but has
 * no form; the empty and error states. Screenshots at desktop and phone width.
 *
 * The transaction is seeded straight into the e2e database (as e2e/ui/metrics.spec.ts does), with
 * a unique invoice number to find its row.
 */
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { cli } from "../cli";
import { checkListLoadingAndError, shot, signIn, uniqueEmail, uniqueTag } from "../helpers";

const today = new Date().toISOString().slice(0, 10);
const invoiceNumber = `E2E-${uniqueTag()}`;
let transactionId = "";

test.beforeAll(async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO transactions (id, status, currency_code, invoice_number, details, completed_at)
       VALUES ('txn_' || substr(md5(random()::text || clock_timestamp()::text), 1, 26), 'completed', 'USD', $1,
               $2::json, now())
       RETURNING id`,
      [
        invoiceNumber,
        JSON.stringify({
          totals: { subtotal: "1000", tax: "0", total: "1000", grand_total: "1000", currency_code: "USD" },
          line_items: [],
        }),
      ],
    );
    transactionId = rows[0]!.id;
  } finally {
    await client.end();
  }
});

async function openReports(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
}

test("an owner creates a transactions report, waits for it and downloads the CSV", async ({ page }) => {
  await signIn(page);
  await openReports(page);
  const form = page.getByRole("form", { name: "New report" });
  await expect(form.getByLabel("Report type")).toHaveValue("transactions");
  await form.getByLabel("Updated from").fill(today);
  await form.getByLabel("Updated until").fill(today);
  await form.getByLabel("Status").selectOption("completed");
  await shot(page, "reports-form");

  // An end before the start is refused at the field, before anything is sent.
  await form.getByLabel("Updated until").fill("2000-01-01");
  await form.getByRole("button", { name: "Create report" }).click();
  await expect(form.getByText("The end date must not be before the start date.")).toBeVisible();
  await expect(form.getByLabel("Updated until")).toBeFocused();
  await form.getByLabel("Updated until").fill(today);

  await form.getByRole("button", { name: "Create report" }).click();
  await expect(page.getByText("Transactions report requested")).toBeVisible();
  const table = page.getByRole("table", { name: "Reports" });
  const row = table.getByRole("row").filter({ hasText: `status: completed` }).first();
  await expect(row).toBeVisible();
  // The list polls until the worker has made the file.
  const download = row.getByRole("button", { name: /Download CSV of the transactions report/ });
  await expect(download).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText("ready");
  await shot(page, "reports-ready");

  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^transactions-rep_[a-z0-9]{26}\.csv$/);
  const csv = readFileSync((await file.path()) ?? "", "utf8");
  const lines = csv.split("\r\n");
  expect(lines[0]!.startsWith("id,status,invoice_id,invoice_number,customer_id,customer_name,customer_email,")).toBe(
    true,
  );
  const line = lines.find((l) => l.startsWith(`${transactionId},`));
  expect(line).toBeDefined();
  expect(line).toContain(`,completed,,${invoiceNumber},`);
  expect(line).toContain(",USD,");
  // Every row is a completed one, as filtered.
  for (const l of lines.slice(1).filter(Boolean)) expect(l.split(",")[1]).toBe("completed");

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "reports-phone");
});

test("a viewer sees and downloads reports but cannot create one", async ({ page }) => {
  const email = uniqueEmail("viewer");
  cli(["users", "create", "--email", email, "--password", "e2e-viewer-password", "--role", "viewer"]);
  await signIn(page, { email, password: "e2e-viewer-password" });
  await openReports(page);
  await expect(page.getByRole("form", { name: "New report" })).toHaveCount(0);
  const table = page.getByRole("table", { name: "Reports" });
  const download = table.getByRole("button", { name: /Download CSV of the transactions report/ }).first();
  await expect(download).toBeVisible({ timeout: 30_000 });
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(readFileSync((await file.path()) ?? "", "utf8").startsWith("id,status,")).toBe(true);
  await shot(page, "reports-viewer");
});

test("the list's empty, loading and error states", async ({ page }) => {
  await signIn(page);
  await page.route("**/api/reports?*", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({
        data: [],
        meta: {
          request_id: "e2e",
          pagination: { per_page: 20, next: "/api/reports", has_more: false, estimated_total: 0 },
        },
      }),
    }),
  );
  await page.goto("/reports");
  await expect(page.getByText("No reports yet")).toBeVisible();
  await shot(page, "reports-empty");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "reports-empty-phone");
  await page.unroute("**/api/reports?*");
  await page.setViewportSize({ width: 1280, height: 720 });
  await checkListLoadingAndError(page, {
    api: "**/api/reports?*",
    path: "/reports",
    table: "Reports",
    name: "reports",
  });
});
