import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { apiCall, createBuyer, shot, signIn } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

interface Txn {
  id: string;
  status: string;
  invoice_number: string | null;
}

/** A customer with a US address and `count` issued invoices of $49.50 × 2. */
async function invoices(page: Page, count: number): Promise<{ email: string; customerId: string; txns: Txn[] }> {
  const { priceId, customerId, addressId, email } = await createBuyer(page, "export", "Ada Export");
  const txns: Txn[] = [];
  for (let i = 0; i < count; i++) {
    const created = await apiCall<Txn>(page, "POST", "/api/transactions", {
      items: [{ price_id: priceId, quantity: 2 }],
      customer_id: customerId,
      address_id: addressId,
      currency_code: "USD",
      collection_mode: "manual",
      billing_details: { payment_terms: { interval: "day", frequency: 30 } },
    });
    txns.push(await apiCall<Txn>(page, "PATCH", `/api/transactions/${created.id}`, { status: "billed" }));
  }
  return { email, customerId, txns };
}

test("Ctrl-K finds a transaction by its invoice number and opens it", async ({ page }) => {
  const { txns } = await invoices(page, 1);
  const invoiceNumber = txns[0]!.invoice_number as string;
  expect(invoiceNumber).toBeTruthy();

  await page.goto("/customers");
  await page.keyboard.press("Control+k");
  const search = page.getByRole("combobox", { name: /Find customers, transactions/ });
  await expect(search).toBeFocused();
  await search.fill(invoiceNumber);
  const option = page.getByRole("option", { name: new RegExp(invoiceNumber) });
  await expect(option).toBeVisible();
  await shot(page, "global-search-invoice-number");
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/transactions/${txns[0]!.id}$`));

  // An email finds the customer; nothing found says so.
  await page
    .getByRole("button", { name: /Search…/ })
    .first()
    .click();
  await search.fill("no-such-thing-anywhere");
  await expect(page.getByRole("status").filter({ hasText: "Nothing matches" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(search).toBeHidden();
});

test("Ctrl-K finds a customer by their business's name", async ({ page }) => {
  const { customerId } = await createBuyer(page, "business-search", "Ada Search");
  const name = `Becker Design ${Date.now().toString(36)}`;
  await apiCall(page, "POST", `/api/customers/${customerId}/businesses`, { name });
  await page.keyboard.press("Control+k");
  const search = page.getByRole("combobox", { name: /Find customers, transactions/ });
  await search.fill(name);
  const option = page.getByRole("option", { name: new RegExp(name) });
  await expect(option).toBeVisible();
  await expect(option).toContainText(customerId);
  await shot(page, "global-search-business");
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/customers/${customerId}$`));
});

test("the transactions list keeps its filters in the address, sorts, and exports what it shows as CSV", async ({
  page,
}) => {
  const { email, txns } = await invoices(page, 3);

  await page.goto("/transactions");
  await page.getByRole("searchbox", { name: "Search transactions" }).fill(email);
  await page.getByRole("searchbox", { name: "Search transactions" }).press("Enter");
  await page.getByLabel("Collection").selectOption("manual");
  await expect(page).toHaveURL(/collection_mode=manual/);
  await expect(page).toHaveURL(/q=/);
  const table = page.getByRole("table", { name: "Transactions" });
  await expect(table.getByRole("row")).toHaveCount(4); // the header and three invoices

  // Reload: the same filters and rows.
  await page.reload();
  await expect(page.getByLabel("Collection")).toHaveValue("manual");
  await expect(page.getByRole("searchbox", { name: "Search transactions" })).toHaveValue(email);
  await expect(table.getByRole("row")).toHaveCount(4);

  // Newest first by default; the Created header turns it around.
  const firstRow = () => table.getByRole("row").nth(1);
  await expect(firstRow()).toContainText(txns[2]!.invoice_number as string);
  await table.getByRole("button", { name: /Created/ }).click();
  await expect(page).toHaveURL(/order_by=id%5BASC%5D/);
  await expect(table.getByRole("columnheader", { name: /Created/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(firstRow()).toContainText(txns[0]!.invoice_number as string);
  await shot(page, "transactions-filtered-sorted");

  // Export: every row of the filtered list, with a header.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path()) as string, "utf8");
  const lines = csv.trim().split("\r\n");
  expect(lines).toHaveLength(4);
  const header = lines[0]!.split(",");
  expect(header.slice(0, 2)).toEqual(["id", "status"]);
  expect(header).toContain("customer.email");
  expect(header).toContain("details.totals.grand_total");
  for (const txn of txns) expect(csv).toContain(txn.id);
  expect(csv).toContain(email);
  expect(csv).toContain("9900");
});

test("an export without a session or of an unknown list is refused in the API's error shape", async ({
  page,
  browser,
}) => {
  const unknown = await page.request.get("/exports/nothing.csv");
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe("not_found");
  const anonymous = await browser.newContext();
  const response = await anonymous.request.get("/exports/customers.csv");
  expect(response.status()).toBe(401);
  await anonymous.close();
});

test("a customer's page: lifetime spend, amount due on open invoices, and an activity timeline", async ({ page }) => {
  const { customerId, txns } = await invoices(page, 2);
  await page.goto(`/customers/${customerId}`);
  const overview = page.getByRole("region", { name: "Overview" });
  await expect(overview).toContainText("Amount due");
  await expect(overview).toContainText("$198.00");
  await expect(overview).toContainText("2 open invoices");
  await expect(overview).toContainText("Nothing yet"); // no completed transaction: no spend
  const activity = overview.getByRole("list", { name: "Customer activity" });
  await expect(
    activity.getByRole("link", { name: `Invoice ${txns[0]!.invoice_number} issued for $99.00` }),
  ).toBeVisible();
  await expect(activity).toContainText("Became a customer");
  const table = page.getByRole("table", { name: "Transactions" });
  await expect(table.getByRole("columnheader", { name: "Amount due" })).toBeVisible();
  await shot(page, "customer-360");
});
