import { expect, type Page, test } from "@playwright/test";
import { checkListLoadingAndError, createProductViaApi, dismissToasts, shot, signIn, uniqueTag } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** Submits a form and returns the JSON body of the request it sent to `path`. */
async function submitAndCapture(page: Page, submit: () => Promise<void>, method: string, path: RegExp) {
  const request = page.waitForRequest((r) => r.method() === method && path.test(new URL(r.url()).pathname));
  await submit();
  return (await request).postDataJSON();
}

test("a product with a monthly USD price and a one-time JPY price, then archived behind a confirmation", async ({
  page,
}) => {
  const name = `Analytics ${uniqueTag()}`;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Catalogue" }).click();
  await page.waitForURL("**/catalogue/products");
  await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Catalogue" }).getByRole("link", { name: "Products" }),
  ).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("table", { name: "Products" }).or(page.getByText("No products yet"))).toBeVisible();
  await shot(page, "catalogue-products");

  // New product: its form, then the product in the table.
  await page.getByRole("button", { name: "New product" }).first().click();
  const form = page.getByRole("form", { name: "New product" });
  await expect(form.getByRole("textbox", { name: "Name", exact: true })).toBeFocused();
  await form.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await form.getByLabel("Tax category").selectOption({ label: "SaaS" });
  await form.getByLabel("Description").fill("Dashboards and reports for small teams.");
  // An image that cannot load: the page shows a placeholder instead of a broken image.
  await form.getByLabel("Image URL").fill("https://images.invalid/analytics.png");
  await form.getByLabel("Key 1").fill("sku");
  await form.getByLabel("Value 1").fill("AN-1");
  await shot(page, "catalogue-product-form");
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(form).toBeHidden();
  const row = page.getByRole("table", { name: "Products" }).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("SaaS");
  await expect(row).toContainText("No active prices");
  await row.getByRole("link", { name }).click();
  await page.waitForURL(/\/catalogue\/products\/pro_[a-z0-9]{26}$/);

  // The product page: details, image placeholder, custom data, no prices yet.
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page).toHaveTitle(/Product/);
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText("Dashboards and reports for small teams.");
  await expect(details).toContainText('"sku": "AN-1"');
  await expect(details.getByRole("img", { name: `Image of ${name}: the image could not be loaded` })).toBeVisible();
  const prices = page.getByRole("region", { name: "Prices" });
  await expect(prices.getByText("No prices")).toBeVisible();

  // A monthly price in USD: 10.555 is refused beside the field, 10.5 is sent as 1050 minor units.
  await prices.getByRole("button", { name: "Add price" }).click();
  const priceForm = page.getByRole("form", { name: "New price" });
  await priceForm.getByLabel("Description").fill("Monthly (USD)");
  await priceForm.getByRole("textbox", { name: "Name", exact: true }).fill("Monthly plan");
  await expect(priceForm.getByRole("combobox", { name: "Currency", exact: true })).toHaveValue("USD");
  const unitPrice = priceForm.getByLabel("Unit price");
  await unitPrice.fill("10.555");
  await unitPrice.press("Tab");
  await expect(unitPrice).toHaveAttribute("aria-invalid", "true");
  await expect(unitPrice).toHaveAccessibleDescription(/USD amounts have at most 2 decimal places/);
  await priceForm.getByRole("radio", { name: "Recurring" }).check();
  await priceForm.getByLabel("Every (number of billing intervals)").fill("1");
  await priceForm.getByLabel("Billing interval", { exact: true }).selectOption("month");
  await priceForm.getByRole("checkbox", { name: "Start with a free trial" }).check();
  await priceForm.getByLabel("Every (number of trial intervals)").fill("14");
  await priceForm.getByLabel("Trial interval", { exact: true }).selectOption("day");
  await shot(page, "catalogue-price-form-error");
  // Submitting with the bad amount sends nothing and keeps what was typed.
  await priceForm.getByRole("button", { name: "Add price" }).click();
  await expect(unitPrice).toBeFocused();
  await expect(priceForm.getByLabel("Description")).toHaveValue("Monthly (USD)");
  await unitPrice.fill("10.5");
  await expect(unitPrice).not.toHaveAttribute("aria-invalid", "true");
  const usd = await submitAndCapture(
    page,
    () => priceForm.getByRole("button", { name: "Add price" }).click(),
    "POST",
    /^\/api\/prices$/,
  );
  expect(usd.unit_price).toEqual({ amount: "1050", currency_code: "USD" });
  expect(usd.billing_cycle).toEqual({ interval: "month", frequency: 1 });
  expect(usd.trial_period).toEqual({ interval: "day", frequency: 14 });
  await expect(priceForm).toBeHidden();

  // A one-time price in JPY (no minor unit): 1200 is sent as 1200.
  await prices.getByRole("button", { name: "Add price" }).click();
  await priceForm.getByLabel("Description").fill("One-time (JPY)");
  await priceForm.getByRole("combobox", { name: "Currency", exact: true }).selectOption("JPY");
  await expect(priceForm.getByText("JPY has no minor unit: whole amounts only.")).toBeVisible();
  await priceForm.getByLabel("Unit price").fill("1200");
  // A price for two countries: Germany and Austria pay 1,000 yen.
  await priceForm.getByRole("button", { name: "Add country price" }).click();
  const countries = priceForm.getByRole("group", { name: "Override 1 countries" });
  await countries.getByLabel("Add a country to override 1 countries").selectOption("DE");
  await countries.getByRole("button", { name: "Add country to override 1 countries" }).click();
  await countries.getByLabel("Add a country to override 1 countries").selectOption("AT");
  await countries.getByRole("button", { name: "Add country to override 1 countries" }).click();
  await expect(countries.getByRole("listitem")).toHaveCount(2);
  await expect(priceForm.getByLabel("Override 1 currency")).toHaveValue("JPY");
  await priceForm.getByLabel("Override 1 price").fill("1000");
  await shot(page, "catalogue-price-form-jpy");
  const jpy = await submitAndCapture(
    page,
    () => priceForm.getByRole("button", { name: "Add price" }).click(),
    "POST",
    /^\/api\/prices$/,
  );
  expect(jpy.unit_price).toEqual({ amount: "1200", currency_code: "JPY" });
  expect(jpy.billing_cycle).toBeNull();
  expect(jpy.unit_price_overrides).toEqual([
    { country_codes: ["DE", "AT"], unit_price: { amount: "1000", currency_code: "JPY" } },
  ]);
  await expect(priceForm).toBeHidden();

  // Both in the prices table, formatted in their currency's minor unit.
  const table = prices.getByRole("table", { name: "Prices" });
  const monthly = table.getByRole("row").filter({ hasText: "Monthly (USD)" });
  await expect(monthly).toContainText("$10.50");
  await expect(monthly).toContainText("Every month");
  await expect(monthly).toContainText("14-day trial");
  const oneTime = table.getByRole("row").filter({ hasText: "One-time (JPY)" });
  await expect(oneTime).toContainText("¥1,200");
  await expect(oneTime).toContainText("One-time");
  await expect(oneTime).toContainText("+ 1 country price");
  await shot(page, "catalogue-product-detail");

  // Edit the monthly price: the form starts from the price in major units.
  await monthly.getByRole("button", { name: "Edit Monthly plan" }).click();
  const editPrice = page.getByRole("form", { name: "Edit price" });
  await expect(editPrice.getByLabel("Unit price")).toHaveValue("10.50");
  await editPrice.getByLabel("Unit price").fill("12");
  const patch = await submitAndCapture(
    page,
    () => editPrice.getByRole("button", { name: "Save price" }).click(),
    "PATCH",
    /^\/api\/prices\/pri_/,
  );
  expect(patch).toEqual({ unit_price: { amount: "1200", currency_code: "USD" } });
  await expect(editPrice).toBeHidden();
  await expect(monthly).toContainText("$12.00");

  // Archive a price (confirmed), find it under the archived filter, unarchive it.
  await oneTime.getByRole("button", { name: "Archive One-time (JPY)" }).click();
  const priceDialog = page.getByRole("dialog", { name: "Archive this price?" });
  await priceDialog.getByRole("button", { name: "Archive price" }).click();
  await expect(priceDialog).toBeHidden();
  await expect(oneTime).toHaveCount(0);
  await prices.getByLabel("Price status").selectOption({ label: "Archived" });
  await expect(oneTime).toContainText("archived");
  await oneTime.getByRole("button", { name: "Unarchive One-time (JPY)" }).click();
  await expect(oneTime).toHaveCount(0);
  await prices.getByLabel("Price status").selectOption({ label: "Active" });
  await expect(oneTime).toContainText("active");

  // Archive the product: a confirmation first.
  await dismissToasts(page);
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Archive this product?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await shot(page, "catalogue-product-archive-dialog");
  await dialog.getByRole("button", { name: "Archive product" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("main").locator("header").first()).toContainText("archived");
  await expect(page.getByText("This product is archived", { exact: true })).toBeVisible();
  await expect(prices.getByRole("button", { name: "Add price" })).toHaveCount(0);
  await shot(page, "catalogue-product-archived");

  // It leaves the default (active) list and appears under the archived filter.
  await page.getByRole("link", { name: "Products" }).first().click();
  await page.waitForURL("**/catalogue/products");
  const products = page.getByRole("table", { name: "Products" }).or(page.getByText("No products yet"));
  await expect(products).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  await page.getByLabel("Status").selectOption({ label: "Archived" });
  const archivedRow = page.getByRole("table", { name: "Products" }).getByRole("row").filter({ hasText: name });
  await expect(archivedRow).toContainText("archived");
  await shot(page, "catalogue-products-archived");
  // The search box narrows the list by name.
  const search = page.getByRole("searchbox", { name: "Search products" });
  await search.fill(name.toLowerCase());
  await expect(archivedRow).toBeVisible();
  await search.fill("no-such-product-anywhere");
  await expect(page.getByText("No products match")).toBeVisible();
});

test("a percentage discount restricted to a product: 150 is refused beside the amount, 15 is saved", async ({
  page,
}) => {
  const productName = `Reports ${uniqueTag()}`;
  await createProductViaApi(page, { name: productName }, [
    { description: "Monthly", amount: "900", currency_code: "USD", interval: "month" },
  ]);
  const code = uniqueTag("SPRING");

  await page.goto("/catalogue/discounts");
  await expect(page.getByRole("heading", { level: 1, name: "Discounts" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Discounts" }).or(page.getByText("No discounts yet"))).toBeVisible();
  await shot(page, "catalogue-discounts-before");
  await page.getByRole("button", { name: "New discount", exact: true }).first().click();
  const form = page.getByRole("form", { name: "New discount" });
  await form.getByLabel("Description").fill("Spring sale for Reports");
  await expect(form.getByRole("radio", { name: "Percentage" })).toBeChecked();
  const amount = form.getByRole("textbox", { name: "Amount", exact: true });
  await amount.fill("150");
  await form.getByLabel("Code").fill(code);
  await form.getByLabel("Usage limit").fill("100");

  // Restricted to the product, picked from the catalogue's checklist (searched by name).
  await form.getByRole("radio", { name: "Only the products and prices I choose" }).check();
  await form.getByRole("searchbox", { name: "Search the catalogue" }).fill(productName);
  await form.getByRole("checkbox", { name: productName }).check();
  await expect(form.getByRole("checkbox", { name: /Monthly/ })).toBeDisabled();
  await expect(form.getByText("1 chosen")).toBeVisible();

  await form.getByRole("button", { name: "Create discount" }).click();
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(amount).toHaveAccessibleDescription(/must be between 0.01 and 100 for percentage discounts/);
  await expect(amount).toBeFocused();
  await expect(amount).toHaveValue("150");
  await expect(form.getByLabel("Code")).toHaveValue(code);
  await expect(form.getByRole("checkbox", { name: productName })).toBeChecked();
  await shot(page, "catalogue-discount-form-error");

  // The server says the same about 150 (the form checks with the API's own schema).
  const server = await page.evaluate(async () => {
    const response = await fetch("/api/discounts", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "Too much", type: "percentage", amount: "150" }),
    });
    return { status: response.status, body: await response.json() };
  });
  expect(server.status).toBe(400);
  expect(server.body.error.errors).toContainEqual({
    field: "amount",
    message: "must be between 0.01 and 100 for percentage discounts",
  });

  await amount.fill("15");
  const sent = await submitAndCapture(
    page,
    () => form.getByRole("button", { name: "Create discount" }).click(),
    "POST",
    /^\/api\/discounts$/,
  );
  expect(sent).toMatchObject({ type: "percentage", amount: "15", code, usage_limit: 100 });
  expect(sent.restrict_to).toHaveLength(1);
  expect(sent.restrict_to[0]).toMatch(/^pro_[a-z0-9]{26}$/);
  await expect(form).toBeHidden();

  const row = page.getByRole("table", { name: "Discounts" }).getByRole("row").filter({ hasText: code });
  await expect(row).toContainText("15%");
  await expect(row).toContainText("0 / 100");
  await expect(row).toContainText("Never");
  await expect(row).toContainText(productName);
  await expect(row).toContainText("active");
  await shot(page, "catalogue-discounts");

  // Its page, then an edit refused because someone saved the discount meanwhile (stale revision).
  await row.getByRole("link", { name: code }).click();
  await page.waitForURL(/\/catalogue\/discounts\/dsc_[a-z0-9]{26}$/);
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText("Spring sale for Reports");
  await expect(details.getByRole("link", { name: productName })).toBeVisible();
  await shot(page, "catalogue-discount-detail");
  const discountId = page.url().split("/").at(-1)!;
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = page.getByRole("form", { name: "Edit discount" });
  await expect(edit.getByRole("textbox", { name: "Amount", exact: true })).toHaveValue("15");
  const status = await page.evaluate(async (id) => {
    const response = await fetch(`/api/discounts/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "Changed by a colleague" }),
    });
    return response.status;
  }, discountId);
  expect(status).toBe(200);
  await edit.getByRole("textbox", { name: "Amount", exact: true }).fill("20");
  const stale = await submitAndCapture(
    page,
    () => edit.getByRole("button", { name: "Save discount" }).click(),
    "PATCH",
    /^\/api\/discounts\/dsc_[a-z0-9]{26}@dscrev_[a-z0-9]{26}$/,
  );
  expect(stale).toMatchObject({ amount: "20" });
  await expect(edit.getByText("Someone changed this discount since you opened it")).toBeVisible();
  await shot(page, "catalogue-discount-stale");
  await edit.getByRole("button", { name: "Reload discount" }).click();
  await expect(edit.getByLabel("Description")).toHaveValue("Changed by a colleague");
  await expect(edit.getByText("Someone changed this discount since you opened it")).toBeHidden();
  await edit.getByRole("textbox", { name: "Amount", exact: true }).fill("20");
  await edit.getByRole("button", { name: "Save discount" }).click();
  await expect(edit).toBeHidden();
  await expect(details).toContainText("20%");
  await expect(details).toContainText("Changed by a colleague");
});

test("discount groups: create, rename and archive; a flat discount in the group", async ({ page }) => {
  const group = `Campaign ${uniqueTag()}`;
  await page.goto("/catalogue/discount-groups");
  await expect(page.getByRole("heading", { level: 1, name: "Discount groups" })).toBeVisible();
  await expect(
    page.getByRole("table", { name: "Discount groups" }).or(page.getByText("No discount groups yet")),
  ).toBeVisible();
  await shot(page, "catalogue-discount-groups-before");

  await page.getByRole("button", { name: "New discount group" }).first().click();
  const form = page.getByRole("form", { name: "New discount group" });
  // Blank: the schema's message, beside the field, before any request.
  await form.getByRole("button", { name: "Create group" }).click();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Name").fill(group);
  await form.getByRole("button", { name: "Create group" }).click();
  await expect(form).toBeHidden();
  const row = page.getByRole("table", { name: "Discount groups" }).getByRole("row").filter({ hasText: group });
  await expect(row).toContainText("active");

  await row.getByRole("button", { name: `Edit ${group}` }).click();
  const edit = page.getByRole("form", { name: "Edit discount group" });
  await edit.getByLabel("Name").fill(`${group} (renamed)`);
  await edit.getByRole("button", { name: "Save group" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText(`${group} (renamed)`);
  await shot(page, "catalogue-discount-groups");

  // A flat discount in EUR in this group.
  await page.getByRole("navigation", { name: "Catalogue" }).getByRole("link", { name: "Discounts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Discounts" })).toBeVisible();
  await page.getByRole("button", { name: "New discount", exact: true }).first().click();
  const discount = page.getByRole("form", { name: "New discount" });
  await discount.getByLabel("Description").fill("Five euros off");
  await discount.getByRole("radio", { name: "Flat amount", exact: true }).check();
  await discount.getByRole("combobox", { name: "Currency", exact: true }).selectOption("EUR");
  await discount.getByRole("textbox", { name: "Amount", exact: true }).fill("5");
  await discount.getByRole("checkbox", { name: "Customers can redeem it at checkout" }).uncheck();
  await discount.getByRole("checkbox", { name: "Recurring: applies to renewals too" }).check();
  await discount.getByLabel("Number of payments").fill("3");
  await discount.getByLabel("Discount group").selectOption({ label: `${group} (renamed)` });
  await shot(page, "catalogue-discount-form-flat");
  const sent = await submitAndCapture(
    page,
    () => discount.getByRole("button", { name: "Create discount" }).click(),
    "POST",
    /^\/api\/discounts$/,
  );
  expect(sent).toMatchObject({
    type: "flat",
    amount: "500",
    currency_code: "EUR",
    recur: true,
    maximum_recurring_intervals: 3,
    enabled_for_checkout: false,
  });
  await expect(discount).toBeHidden();
  const discountRow = page
    .getByRole("table", { name: "Discounts" })
    .getByRole("row")
    .filter({ hasText: "Five euros off" });
  await expect(discountRow).toContainText("€5.00");
  await expect(discountRow).toContainText("The first 3 payments");
  await expect(discountRow).toContainText("0 / ∞");
  await expect(discountRow).toContainText(`${group} (renamed)`);

  // Archive the group behind a confirmation.
  await page.getByRole("navigation", { name: "Catalogue" }).getByRole("link", { name: "Discount groups" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Discount groups" })).toBeVisible();
  await dismissToasts(page);
  await row.getByRole("button", { name: `Archive ${group} (renamed)` }).click();
  const dialog = page.getByRole("dialog", { name: "Archive this discount group?" });
  await shot(page, "catalogue-discount-group-archive-dialog");
  await dialog.getByRole("button", { name: "Archive group" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await page.getByLabel("Status").selectOption({ label: "Archived" });
  await expect(row).toContainText("archived");
});

test("loading and error states of the products list", async ({ page }) => {
  await checkListLoadingAndError(page, {
    api: "**/api/products?*",
    path: "/catalogue/products",
    table: "Products",
    name: "catalogue-products",
  });

  await page.goto("/catalogue/products/pro_00000000000000000000000000");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Could not load this product");
  await shot(page, "catalogue-product-not-found");
});

test("products sort by name both ways and keep the order on reload; a product's prices sort by amount", async ({
  page,
}) => {
  const tag = uniqueTag("SORT");
  // Created in this order: by creation, newest first, Gamma leads.
  await createProductViaApi(page, { name: `${tag} Beta` });
  const alpha = await createProductViaApi(page, { name: `${tag} Alpha` }, [
    { description: "Small", amount: "500", currency_code: "USD" },
    { description: "Large", amount: "1500", currency_code: "USD" },
    { description: "Medium", amount: "1000", currency_code: "USD" },
  ]);
  await createProductViaApi(page, { name: `${tag} Gamma` });

  await page.goto(`/catalogue/products?q=${tag}`);
  const table = page.getByRole("table", { name: "Products" });
  const rows = table.locator("tbody tr");
  const product = table.getByRole("columnheader", { name: "Product" });
  await expect(rows).toHaveText([/Gamma/, /Alpha/, /Beta/]);
  await expect(product).toHaveAttribute("aria-sort", "none");

  // Names sort A to Z first, then Z to A.
  await product.getByRole("button", { name: "Product" }).click();
  await expect(product).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/order_by=name%5BASC%5D/);
  await expect(rows).toHaveText([/Alpha/, /Beta/, /Gamma/]);
  await product.getByRole("button", { name: "Product" }).click();
  await expect(product).toHaveAttribute("aria-sort", "descending");
  await expect(rows).toHaveText([/Gamma/, /Beta/, /Alpha/]);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", /order_by=name%5BDESC%5D/);
  await shot(page, "catalogue-products-sorted");
  await page.reload();
  await expect(product).toHaveAttribute("aria-sort", "descending");
  await expect(rows).toHaveText([/Gamma/, /Beta/, /Alpha/]);

  // A product's prices: the largest amount first, then the smallest.
  await page.goto(`/catalogue/products/${alpha}`);
  const prices = page.getByRole("table", { name: "Prices" });
  const amount = prices.getByRole("columnheader", { name: "Amount" });
  await amount.getByRole("button", { name: "Amount" }).click();
  await expect(amount).toHaveAttribute("aria-sort", "descending");
  await expect(prices.locator("tbody tr")).toHaveText([/Large/, /Medium/, /Small/]);
  await amount.getByRole("button", { name: "Amount" }).click();
  await expect(amount).toHaveAttribute("aria-sort", "ascending");
  await expect(prices.locator("tbody tr")).toHaveText([/Small/, /Medium/, /Large/]);
});
