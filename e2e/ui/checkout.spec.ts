import { expect, type Page, test } from "@playwright/test";
import { apiCall, createProductViaApi, shot, signIn, uniqueEmail, uniqueTag } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

interface Txn {
  id: string;
  status: string;
  checkout: { url: string | null } | null;
}

/** A transaction of one $49.50 item for a new customer in the US (no tax), ready. */
async function createTransaction(page: Page, extra: Record<string, unknown> = {}): Promise<Txn> {
  const productId = await createProductViaApi(page, { name: `Gadget ${uniqueTag()}` }, [
    { description: "Internal: gadget SKU 7", name: "One gadget", amount: "4950", currency_code: "USD" },
  ]);
  const [price] = await apiCall<{ id: string }[]>(page, "GET", `/api/prices?product_id=${productId}`);
  const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", {
    email: uniqueEmail("payer"),
    name: "Ada Lovelace",
  });
  const address = await apiCall<{ id: string }>(page, "POST", `/api/customers/${customer.id}/addresses`, {
    postal_code: "10001",
    country_code: "US",
  });
  const txn = await apiCall<Txn>(page, "POST", "/api/transactions", {
    items: [{ price_id: price!.id, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
    ...extra,
  });
  expect(txn.status).toBe("ready");
  return txn;
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel("Name on card").fill("Ada Lovelace");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
}

test("pay a transaction at the hosted checkout, signed out: a decline, then success; the dashboard shows it", async ({
  page,
  browser,
}) => {
  const txn = await createTransaction(page);
  const url = txn.checkout?.url ?? "";
  expect(url).toMatch(new RegExp(`/checkout\\?_ptxn=${txn.id}$`));

  // The customer has no dashboard session: a fresh browser context.
  const customer = await browser.newContext();
  const checkout = await customer.newPage();
  await checkout.goto(url);
  await expect(checkout.getByRole("heading", { level: 1, name: "Your company" })).toBeVisible();
  await expect(checkout.getByRole("list", { name: "Items" })).toContainText("One gadget");
  // The price's description is internal: never shown to the customer.
  await expect(checkout.getByRole("list", { name: "Items" })).not.toContainText("SKU 7");
  await expect(checkout.getByTestId("total-due")).toHaveText("$49.50");
  await expect(checkout.getByText("4242 4242 4242 4242")).toBeVisible();
  await shot(checkout, "checkout");

  // Field errors, each beside its input, before anything is sent.
  await checkout.getByRole("button", { name: "Pay $49.50" }).click();
  await expect(checkout.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
  await checkout.getByLabel("Card number").fill("4242 4242 4242 4241");
  await checkout.getByLabel("Expiry (MM/YY)").fill("01/20");
  await checkout.getByRole("button", { name: "Pay $49.50" }).click();
  await expect(checkout.getByText("is not a valid card number")).toBeVisible();
  await expect(checkout.getByText("the card has expired")).toBeVisible();
  await shot(checkout, "checkout-field-errors");

  await fillCard(checkout, "4000 0000 0000 0002");
  await checkout.getByRole("button", { name: "Pay $49.50" }).click();
  const declined = checkout.getByRole("alert").filter({ hasText: "Payment declined" });
  await expect(declined).toContainText("declined by the bank");
  await shot(checkout, "checkout-declined");

  await checkout.getByLabel("Card number").fill("4242 4242 4242 4242");
  await checkout.getByRole("button", { name: "Pay $49.50" }).click();
  await expect(declined).toHaveCount(0);
  const success = checkout.getByRole("status").filter({ hasText: "Payment successful" });
  await expect(success).toContainText("ending 4242");
  await shot(checkout, "checkout-paid");

  // Opened again: already paid, no form.
  await checkout.reload();
  await expect(checkout.getByRole("status").filter({ hasText: "Already paid" })).toBeVisible();
  await expect(checkout.getByRole("form", { name: "Card payment" })).toHaveCount(0);
  await customer.close();

  await page.goto(`/transactions/${txn.id}`);
  await expect(page.locator("header").getByText("completed", { exact: true })).toBeVisible();
  const payments = page.getByRole("table", { name: "Payments" });
  await expect(payments.getByRole("row")).toHaveCount(3);
  await expect(payments.getByRole("row").nth(1)).toContainText("captured");
  await expect(payments.getByRole("row").nth(1)).toContainText("Visa •••• 4242");
  await expect(payments.getByRole("row").nth(2)).toContainText("Declined by the card's bank");
  await expect(page.getByRole("link", { name: /Open checkout/ })).toHaveCount(0);
  // 5% of $49.50 = $2.475 → $2.48, + $0.50 = $2.98; earnings $46.52.
  await expect(page.getByRole("definition").filter({ hasText: "$2.98" })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "$46.52" })).toBeVisible();
  await shot(page, "transaction-paid");
});

test("the transaction page links to its checkout while it can be paid", async ({ page }) => {
  const txn = await createTransaction(page);
  await page.goto(`/transactions/${txn.id}`);
  const link = page.getByRole("link", { name: /Open checkout/ });
  await expect(link).toHaveAttribute("href", txn.checkout?.url ?? "");
  await expect(link).toHaveAttribute("target", "_blank");
});

test("mark a manual invoice as paid from the dashboard", async ({ page }) => {
  const txn = await createTransaction(page, {
    collection_mode: "manual",
    billing_details: { payment_terms: { interval: "day", frequency: 14 } },
  });
  await apiCall(page, "PATCH", `/api/transactions/${txn.id}`, { status: "billed" });

  await page.goto(`/transactions/${txn.id}`);
  await expect(page.getByText(/^Due [A-Z][a-z]{2} \d/)).toBeVisible();
  await page.getByRole("button", { name: "Mark as paid" }).click();
  const dialog = page.getByRole("dialog", { name: "Mark this invoice as paid?" });
  await dialog.getByLabel("Paid by").selectOption("wire_transfer");
  await dialog.getByLabel("Reference").fill("BANK-2026-117");
  await shot(page, "mark-paid-dialog");
  await dialog.getByRole("button", { name: "Mark as paid" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Invoice marked as paid.")).toBeVisible();
  await expect(page.locator("header").getByText("completed", { exact: true })).toBeVisible();
  const payments = page.getByRole("table", { name: "Payments" });
  await expect(payments).toContainText("Wire transfer · BANK-2026-117");
  await expect(payments).toContainText("$49.50");
  await expect(page.getByRole("button", { name: "Mark as paid" })).toHaveCount(0);
  await shot(page, "transaction-marked-paid");
});
