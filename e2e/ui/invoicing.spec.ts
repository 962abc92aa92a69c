import { expect, test } from "@playwright/test";
import { apiCall, createProductViaApi, shot, signIn, uniqueEmail, uniqueTag } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("create a manual invoice step by step with live totals, then issue it", async ({ page }) => {
  const productName = `Support plan ${uniqueTag()}`;
  await createProductViaApi(page, { name: productName }, [
    { description: "Yearly support", amount: "10000", currency_code: "USD" },
  ]);
  const email = uniqueEmail("invoiced");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transactions" }).click();
  await page.getByRole("link", { name: "New invoice" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New invoice" })).toBeVisible();

  // 1. Customer: Continue without one is refused and says why.
  await page.getByRole("button", { name: "Continue" }).click();
  const step = page.getByRole("region", { name: /^Step \d of 5/ });
  await expect(step.getByRole("alert")).toContainText("Choose a customer");
  await shot(page, "invoicing-1-customer-empty");
  await page.getByRole("button", { name: "New customer" }).click();
  const customerForm = page.getByRole("form", { name: "New customer" });
  await customerForm.getByLabel("Email").fill(email);
  await customerForm.getByRole("button", { name: "Create customer" }).click();
  await expect(customerForm.getByLabel("Name")).toHaveAccessibleDescription(/invoices need it/);
  await customerForm.getByLabel("Name").fill("Ada Lovelace");
  await customerForm.getByRole("button", { name: "Create customer" }).click();
  await expect(customerForm).toBeHidden();
  await expect(page.getByRole("radio", { name: /Ada Lovelace/ })).toBeChecked();
  await shot(page, "invoicing-1-customer");
  await page.getByRole("button", { name: "Continue" }).click();

  // 2. Address (focus moves to the step's heading), no business.
  const addressHeading = page.getByRole("heading", { level: 2, name: /Address and business/ });
  await expect(addressHeading).toBeFocused();
  await page.getByRole("button", { name: "Add an address" }).click();
  const addressForm = page.getByRole("form", { name: "New address" });
  await addressForm.getByLabel("Country").selectOption("GB");
  await addressForm.getByLabel("Address line 1").fill("12 St James's Square");
  await addressForm.getByLabel("City").fill("London");
  await addressForm.getByLabel("Postal code").fill("SW1Y 4LB");
  await addressForm.getByRole("button", { name: "Add address" }).click();
  await expect(addressForm).toBeHidden();
  await expect(page.getByRole("radio", { name: /London/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /No business/ })).toBeChecked();
  await shot(page, "invoicing-2-address");
  await page.getByRole("button", { name: "Continue" }).click();

  // 3. Items: one catalogue price and one custom item; the totals follow.
  await expect(page.getByRole("heading", { level: 2, name: /Items/ })).toBeFocused();
  const totals = page.getByRole("complementary", { name: "Totals" });
  await expect(totals).toContainText("Add an item to see the totals.");
  await page.getByRole("searchbox", { name: "Search catalogue products" }).fill(productName);
  await page.getByRole("button", { name: `Add ${productName}, Yearly support` }).click();
  await expect(totals).toContainText("$100.00");
  await page.getByRole("button", { name: "Add a custom item" }).click();
  await page.getByLabel("Item 2 name").fill("Onboarding workshop");
  await page.getByLabel("Unit price").fill("50");
  await page.getByLabel("Quantity", { exact: true }).fill("2");
  // Subtotal $200.00, UK VAT 20% $40.00, total $240.00.
  await expect(totals.getByText("Tax 20%")).toBeVisible();
  await expect(totals).toContainText("$240.00");
  await expect(totals).toContainText("$40.00");
  await shot(page, "invoicing-3-items");
  await page.getByRole("button", { name: "Continue" }).click();

  // 4. A custom 10% discount.
  await expect(page.getByRole("heading", { level: 2, name: /Discount/ })).toBeFocused();
  await page.getByRole("radio", { name: "A custom discount for this invoice" }).check();
  await page.getByLabel("Percentage off (%)").fill("10");
  // $200.00 − $20.00 = $180.00, VAT $36.00, total $216.00.
  await expect(totals).toContainText("$216.00");
  await expect(totals).toContainText("$36.00");
  await expect(totals).toContainText("$20.00");
  await shot(page, "invoicing-4-discount");
  await page.getByRole("button", { name: "Continue" }).click();

  // 5. Net 30 (the default), a purchase order number.
  await expect(page.getByRole("heading", { level: 2, name: /Payment terms/ })).toBeFocused();
  await expect(page.getByRole("radio", { name: "Net 30 days" })).toBeChecked();
  await page.getByLabel("Purchase order number (optional)").fill("PO-2026-17");
  await page.getByLabel("Additional information (optional)").fill("Thank you for your business.");
  await shot(page, "invoicing-5-terms");
  await page.getByRole("button", { name: "Create draft invoice" }).click();

  // The transaction's page: ready (it has items, a customer and an address), then issued.
  await page.waitForURL(/\/transactions\/txn_[a-z0-9]{26}$/);
  await expect(page.getByTestId("transaction-kind").filter({ hasText: /^Transaction$/ })).toBeVisible();
  // Exact: the event history's payloads hold the number too.
  await expect(page.getByText("PO-2026-17", { exact: true })).toBeVisible();
  await expect(page.getByText("Due in 30 days")).toBeVisible();
  const grandTotal = page.getByRole("region", { name: "Totals" });
  await expect(grandTotal).toContainText("$216.00");
  await shot(page, "invoicing-6-draft-created");

  await page.getByRole("button", { name: "Issue invoice" }).click();
  const dialog = page.getByRole("dialog", { name: "Issue the invoice?" });
  await expect(dialog).toBeVisible();
  await shot(page, "invoicing-7-confirm");
  await dialog.getByRole("button", { name: "Issue invoice" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("transaction-kind").filter({ hasText: /^Invoice \S+/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Issue invoice" })).toBeHidden();

  // The event history: newest first, with its payload on demand.
  const history = page.getByRole("region", { name: "Event history" });
  const events = history.getByRole("list", { name: "Events" }).getByRole("listitem");
  // Plain words, with the event's raw name on hover.
  const billed = events.filter({ hasText: "Invoice issued" });
  await expect(billed).toHaveCount(1);
  await expect(billed.getByText("Invoice issued")).toHaveAttribute("title", "transaction.billed");
  await expect(events.last()).toContainText("Transaction created");
  await billed.getByText("Invoice issued").click();
  await expect(billed).toContainText('"status": "billed"');
  await shot(page, "invoicing-8-billed");
});

test("the transactions list filters by customer email", async ({ page }) => {
  await page.goto("/transactions");
  const search = page.getByRole("searchbox", { name: "Search transactions" });
  await search.fill(`nobody-${uniqueTag()}@example.com`);
  await expect(page.getByText("No customer matches")).toBeVisible();
  await shot(page, "invoicing-list-no-customer");
  await search.fill("invoiced-");
  await expect(page.getByRole("table", { name: "Transactions" }).getByRole("row").nth(1)).toContainText("invoiced-");
  await shot(page, "invoicing-list-by-email");
});

test("an API refusal at creation is shown at the step it belongs to", async ({ page }) => {
  const productName = `Licence ${uniqueTag()}`;
  await createProductViaApi(page, { name: productName }, [
    { description: "Seat", amount: "2500", currency_code: "USD" },
  ]);
  const email = uniqueEmail("refused");
  const code = uniqueTag("P");
  await page.evaluate(
    async ({ email, code }) => {
      const post = async (path: string, body: unknown) =>
        (
          await (
            await fetch(path, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body),
            })
          ).json()
        ).data;
      const customer = await post("/api/customers", { email, name: "Grace Hopper" });
      await post(`/api/customers/${customer.id}/addresses`, { country_code: "US", postal_code: "10001" });
      await post("/api/discounts", {
        description: `Partner rate ${code}`,
        type: "percentage",
        amount: "20",
        code,
        enabled_for_checkout: true,
      });
    },
    { email, code },
  );

  await page.goto("/transactions/new");
  await page.getByRole("searchbox", { name: "Search customers by email or name" }).fill(email);
  await page.getByRole("radio", { name: /Grace Hopper/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("radio", { name: /10001/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("searchbox", { name: "Search catalogue products" }).fill(productName);
  await page.getByRole("button", { name: `Add ${productName}, Seat` }).click();
  // The price is in USD; the invoice is switched to euros afterwards.
  await page.getByLabel("Currency").selectOption("EUR");
  const totals = page.getByRole("complementary", { name: "Totals" });
  await expect(totals.getByRole("alert")).toContainText("has no unit price in EUR");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Create draft invoice" }).click();

  // Back at the items step, its heading focused, the problem announced and shown on the line.
  const heading = page.getByRole("heading", { level: 2, name: /Items/ });
  await expect(heading).toBeFocused();
  const step = page.getByRole("region", { name: /^Step 3 of 5/ });
  await expect(step.getByRole("alert")).toContainText("Line 1: ");
  await expect(step.getByRole("alert")).toContainText("has no unit price in EUR");
  await shot(page, "invoicing-refused-items");

  await page.getByLabel("Currency").selectOption("USD");
  await expect(totals).toContainText("$25.00");

  // A catalogue discount, found by its code.
  await page.getByRole("button", { name: "Discount" }).click();
  await page.getByRole("radio", { name: "A discount from the catalogue" }).check();
  await page.getByRole("searchbox", { name: "Search discounts by code or description" }).fill(code);
  await page.getByRole("radio", { name: new RegExp(code) }).check();
  await expect(totals).toContainText("$20.00");
  await shot(page, "invoicing-catalogue-discount");
  await page.getByRole("button", { name: "Payment terms and details" }).click();
  await page.getByRole("button", { name: "Create draft invoice" }).click();
  await page.waitForURL(/\/transactions\/txn_[a-z0-9]{26}$/);
  await expect(page.getByRole("button", { name: "Issue invoice" })).toBeVisible();
});

test("a German customer invoiced in EUR is offered the price's Germany EUR override", async ({ page }) => {
  const productName = `Studio ${uniqueTag()}`;
  const email = uniqueEmail("german");
  const product = await apiCall<{ id: string }>(page, "POST", "/api/products", {
    name: productName,
    tax_category: "standard",
  });
  await apiCall(page, "POST", "/api/prices", {
    product_id: product.id,
    description: "Studio seat",
    unit_price: { amount: "10000", currency_code: "USD" },
    unit_price_overrides: [{ country_codes: ["DE"], unit_price: { amount: "9500", currency_code: "EUR" } }],
  });
  const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", { email, name: "Jonas Becker" });
  await apiCall(page, "POST", `/api/customers/${customer.id}/addresses`, { country_code: "DE", postal_code: "10115" });

  await page.goto("/transactions/new");
  await page.getByRole("searchbox", { name: "Search customers by email or name" }).fill(email);
  await page.getByRole("radio", { name: /Jonas Becker/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("radio", { name: /10115/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Currency").selectOption("EUR");
  await page.getByRole("searchbox", { name: "Search catalogue products" }).fill(productName);
  const catalogue = page.getByRole("list", { name: "Catalogue products" });
  await expect(catalogue).toContainText("Studio seat · €95.00");
  await expect(catalogue).not.toContainText("No active price in EUR");
  await page.getByRole("button", { name: `Add ${productName}, Studio seat` }).click();
  const totals = page.getByRole("complementary", { name: "Totals" });
  await expect(totals).not.toContainText("has no unit price");
  await expect(totals).toContainText("€");
});
