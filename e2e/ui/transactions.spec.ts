import { expect, type Page, test } from "@playwright/test";
import { apiCall, type Buyer, checkListLoadingAndError, createBuyer, shot, signIn } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

type Setup = Buyer;

/** A product with a USD price of $49.50, and a customer with a US address. */
function setUp(page: Page): Promise<Setup> {
  return createBuyer(page, "buyer");
}

interface Txn {
  id: string;
  status: string;
}

/** A manually-collected (invoiced) transaction: ready when it has an address, a draft without. */
function createTransaction(page: Page, s: Setup, withAddress = true): Promise<Txn> {
  return apiCall<Txn>(page, "POST", "/api/transactions", {
    items: [{ price_id: s.priceId, quantity: 2 }],
    customer_id: s.customerId,
    address_id: withAddress ? s.addressId : undefined,
    currency_code: "USD",
    collection_mode: "manual",
    billing_details: { payment_terms: { interval: "day", frequency: 30 }, purchase_order_number: "PO-4711" },
  });
}

test("find a ready transaction in the list, see its items and totals, and issue the invoice", async ({ page }) => {
  const s = await setUp(page);
  const txn = await createTransaction(page, s);
  expect(txn.status).toBe("ready");

  await page.getByRole("navigation").getByRole("link", { name: "Transactions" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Transactions" })).toBeVisible();
  const table = page.getByRole("table", { name: "Transactions" });

  // Filter: ready, for this customer.
  await page.getByLabel("Status").selectOption("ready");
  await page.getByRole("searchbox", { name: "Search transactions" }).fill(s.customerId);
  await expect(table.getByRole("row")).toHaveCount(2);
  const row = table.getByRole("row").filter({ hasText: txn.id });
  await expect(row).toContainText(s.email);
  await expect(row).toContainText("ready");
  await expect(row).toContainText("Manual");
  await expect(row).toContainText("$99.00");
  await shot(page, "transactions-list");

  // Another status, or a date range before today, shows the empty state.
  await page.getByLabel("Status").selectOption("billed");
  await expect(page.getByText("No transactions match")).toBeVisible();
  await page.getByLabel("Status").selectOption("ready");
  await page.getByLabel("Created from").fill("2020-01-01");
  await page.getByLabel("to", { exact: true }).fill("2020-01-31");
  await expect(page.getByText("No transactions match")).toBeVisible();
  await shot(page, "transactions-list-empty");
  await page.getByLabel("Created from").fill("");
  await page.getByLabel("to", { exact: true }).fill("");
  await expect(row).toBeVisible();

  await row.getByRole("link", { name: txn.id }).click();
  await page.waitForURL(`**/transactions/${txn.id}`);
  await expect(page.getByTestId("transaction-kind").filter({ hasText: /^Transaction$/ })).toBeVisible();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText(s.email);
  await expect(details).toContainText("1 Main Street, New York, NY, 10001, United States");
  await expect(details).toContainText("US Dollar (USD)");
  await expect(details).toContainText("Due in 30 days");
  await expect(details).toContainText("PO-4711");

  const items = page.getByRole("table", { name: "Line items" });
  const item = items.getByRole("row").filter({ hasText: s.productName });
  await expect(item).toContainText("Hourly rate");
  await expect(item).toContainText("$49.50");
  await expect(item).toContainText("$99.00");
  const totals = page.getByRole("region", { name: "Totals" });
  await expect(totals).toContainText("Subtotal");
  await expect(totals).toContainText("Grand total");
  await expect(page.getByRole("region", { name: "Payments" })).toContainText("No payments yet");
  await expect(page.getByRole("region", { name: "Adjustments" })).toContainText("No adjustments");
  await shot(page, "transactions-detail-ready");

  // Issue the invoice: a confirmation first; going back changes nothing.
  await page.getByRole("button", { name: "Issue invoice" }).click();
  let dialog = page.getByRole("dialog", { name: "Issue the invoice?" });
  await expect(dialog.getByRole("button", { name: "Go back" })).toBeFocused();
  await shot(page, "transactions-issue-confirm");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Issue invoice" })).toBeFocused();

  await page.getByRole("button", { name: "Issue invoice" }).click();
  dialog = page.getByRole("dialog", { name: "Issue the invoice?" });
  await dialog.getByRole("button", { name: "Issue invoice" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Invoice issued." })).toBeVisible();
  await expect(page.getByTestId("transaction-kind")).toHaveText(/^Invoice \S+/);
  await expect(details).toContainText("billed");
  const invoiceNumber = (await page.getByTestId("transaction-kind").textContent())?.replace("Invoice ", "");
  expect(invoiceNumber).toBeTruthy();
  await expect(page.getByRole("button", { name: "Issue invoice" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Cancel transaction" })).toBeVisible();
  await shot(page, "transactions-detail-billed");

  // The list shows the invoice number and the billed status.
  await page.getByRole("link", { name: "Transactions", exact: true }).first().click();
  await page.getByLabel("Status").selectOption("billed");
  await page.getByRole("searchbox", { name: "Search transactions" }).fill(s.customerId);
  const billedRow = table.getByRole("row").filter({ hasText: txn.id });
  await expect(billedRow).toContainText(invoiceNumber!);
  await expect(billedRow).toContainText("billed");
});

test("cancel a draft; a refused change shows the API's reason", async ({ page }) => {
  const s = await setUp(page);
  const draft = await createTransaction(page, s, false);
  expect(draft.status).toBe("draft");

  await page.goto(`/transactions/${draft.id}`);
  await expect(page.getByTestId("transaction-kind").filter({ hasText: /^Transaction$/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Issue invoice" })).toBeHidden();
  await page.getByRole("button", { name: "Cancel transaction" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this transaction?" });
  await shot(page, "transactions-cancel-confirm");
  await dialog.getByRole("button", { name: "Cancel transaction" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Transaction canceled." })).toBeVisible();
  await expect(page.getByRole("region", { name: "Details" })).toContainText("canceled");
  await expect(page.getByRole("button", { name: "Cancel transaction" })).toBeHidden();
  await shot(page, "transactions-detail-canceled");

  // A ready transaction canceled elsewhere while its page is open: issuing is refused with the reason.
  const ready = await createTransaction(page, s);
  await page.goto(`/transactions/${ready.id}`);
  await expect(page.getByRole("button", { name: "Issue invoice" })).toBeVisible();
  await apiCall(page, "PATCH", `/api/transactions/${ready.id}`, { status: "canceled" });
  await page.getByRole("button", { name: "Issue invoice" }).click();
  const issue = page.getByRole("dialog", { name: "Issue the invoice?" });
  await issue.getByRole("button", { name: "Issue invoice" }).click();
  await expect(issue.getByRole("alert")).toContainText("Invalid attempt to change status from 'canceled' to 'billed'");
  await expect(issue).toBeVisible();
  await shot(page, "transactions-issue-refused");
  await issue.getByRole("button", { name: "Go back" }).click();
  await expect(issue).toBeHidden();
  // The page fetched the transaction again: it shows as canceled, with no actions left.
  await expect(page.getByRole("region", { name: "Details" })).toContainText("canceled");
  await expect(page.getByRole("button", { name: "Issue invoice" })).toBeHidden();
});

test("transactions list: loading skeleton, then an error with a retry", async ({ page }) => {
  await checkListLoadingAndError(page, {
    api: "**/api/transactions?*",
    path: "/transactions",
    table: "Transactions",
    name: "transactions-list",
  });
});

test("sort by billed date both ways; reload and Back keep the order, the export carries it", async ({ page }) => {
  const s = await setUp(page);
  // Billed first, billed second, never billed: the billed dates are distinct (one after the other).
  const first = await createTransaction(page, s);
  await apiCall(page, "PATCH", `/api/transactions/${first.id}`, { status: "billed" });
  const second = await createTransaction(page, s);
  await apiCall(page, "PATCH", `/api/transactions/${second.id}`, { status: "billed" });
  const unbilled = await createTransaction(page, s);

  // A later page of the list in the address (after the newest): a new order starts from the first page.
  await page.goto(`/transactions?q=${s.customerId}&after=${unbilled.id}`);
  const table = page.getByRole("table", { name: "Transactions" });
  const bodyRows = table.locator("tbody tr");
  await expect(bodyRows).toHaveText([new RegExp(second.id), new RegExp(first.id)]);
  const billed = table.getByRole("columnheader", { name: "Billed" });
  const created = table.getByRole("columnheader", { name: "Created" });
  await expect(created).toHaveAttribute("aria-sort", "descending");
  await expect(billed).toHaveAttribute("aria-sort", "none");

  // Keyboard: the header's sort button takes Enter. Newest billed first, the unbilled one last.
  await billed.getByRole("button", { name: "Billed" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/order_by=billed_at%5BDESC%5D/);
  expect(new URL(page.url()).searchParams.get("after")).toBeNull();
  await expect(billed).toHaveAttribute("aria-sort", "descending");
  await expect(created).toHaveAttribute("aria-sort", "none");
  await expect(bodyRows).toHaveText([new RegExp(second.id), new RegExp(first.id), new RegExp(unbilled.id)]);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", /order_by=billed_at%5BDESC%5D/);

  // Again: oldest first, the unbilled one first (not yet billed sorts before any date).
  await billed.getByRole("button", { name: "Billed" }).click();
  await expect(billed).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/order_by=billed_at%5BASC%5D/);
  await expect(bodyRows).toHaveText([new RegExp(unbilled.id), new RegExp(first.id), new RegExp(second.id)]);
  await shot(page, "transactions-sorted-billed");

  // Reload keeps it.
  await page.reload();
  await expect(billed).toHaveAttribute("aria-sort", "ascending");
  await expect(bodyRows).toHaveText([new RegExp(unbilled.id), new RegExp(first.id), new RegExp(second.id)]);

  // Open a transaction, then Back: the list in the same order.
  // Billed: the link reads the invoice number.
  await bodyRows.filter({ hasText: first.id }).getByRole("link").first().click();
  await page.waitForURL(`**/transactions/${first.id}`);
  await page.goBack();
  await expect(billed).toHaveAttribute("aria-sort", "ascending");
  await expect(bodyRows).toHaveText([new RegExp(unbilled.id), new RegExp(first.id), new RegExp(second.id)]);

  // The API sorts the export in the same order.
  const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  const csv = await page.evaluate(async (url) => (await fetch(url)).text(), href!);
  const order = [unbilled.id, first.id, second.id].map((id) => csv.indexOf(id));
  expect(order.every((at) => at > 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
});
