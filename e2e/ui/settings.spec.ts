import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { makePng } from "../../lib/dev/test/images";
import { apiCall, createProductViaApi, shot, signIn, uniqueEmail } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** POST /transactions/preview with the dashboard's session: the tax of one item for a country. */
async function previewTax(page: Page, priceId: string, country: string): Promise<{ tax: string; rate: string }> {
  return page.evaluate(
    async ({ priceId, country }) => {
      const response = await fetch("/api/transactions/preview", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ items: [{ price_id: priceId, quantity: 1 }], address: { country_code: country } }),
      });
      const data = (await response.json()).data;
      return { tax: data.details.totals.tax, rate: data.details.line_items[0].tax_rate };
    },
    { priceId, country },
  );
}

test("edit the business details; the server's field errors sit beside their fields", async ({ page }) => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const form = page.getByRole("form", { name: "Business details" });
  await expect(form.getByLabel("Business name")).not.toHaveValue("");

  await form.getByLabel("Business name").fill("Northwind Traders Ltd");
  await form.getByLabel("Billing email").fill("not-an-email");
  await form.getByLabel("Address").fill("1 Harbour Road\nBristol\nBS1 5TY");
  await form.getByLabel("Tax number").fill("GB 123 4567 89");
  await form.getByRole("button", { name: "Save settings" }).click();
  const email = form.getByLabel("Billing email");
  await expect(email).toHaveAccessibleDescription(/must be a valid email address/);
  await expect(email).toBeFocused();
  await shot(page, "settings-error");

  await email.fill("accounts@northwind.example");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("Business name")).toHaveValue("Northwind Traders Ltd");
  await expect(form.getByLabel("Address")).toHaveValue("1 Harbour Road\nBristol\nBS1 5TY");
  await expect(form.getByLabel("Billing email")).toHaveValue("accounts@northwind.example");
  await expect(form.getByRole("radio", { name: /Prices exclude tax/ })).toBeChecked();
  await shot(page, "settings-saved");
});

test("edit a tax rate inline and see a new preview use it; reset it after a confirmation", async ({ page }) => {
  const productId = await createProductViaApi(page, { name: "Rate check" }, [
    { description: "One unit", amount: "10000", currency_code: "EUR" },
  ]);
  const priceId = await page.evaluate(async (id) => {
    const response = await fetch(`/api/prices?product_id=${id}`);
    return (await response.json()).data[0].id as string;
  }, productId);
  expect(await previewTax(page, priceId, "DE")).toEqual({ tax: "1900", rate: "0.19" });

  await page.goto("/settings");
  const table = page.getByRole("table", { name: "Tax rates" });
  await page.getByRole("searchbox", { name: "Search countries" }).fill("germ");
  await expect(table.getByRole("row")).toHaveCount(2);
  const row = table.getByRole("row").filter({ hasText: "Germany" });
  await expect(row).toContainText("19%");
  await row.getByRole("button", { name: "Edit tax rate for Germany" }).click();
  const input = row.getByLabel("Tax rate for Germany (%)");
  await expect(input).toBeFocused();
  // Escape cancels: nothing is saved.
  await input.fill("99");
  await input.press("Escape");
  await expect(input).toBeHidden();
  await expect(row).toContainText("19%");
  await row.getByRole("button", { name: "Edit tax rate for Germany" }).click();
  await expect(input).toBeFocused();
  await expect(input).toHaveValue("19");
  await input.fill("150");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(input).toHaveAccessibleDescription(/percentage from 0 to 100/);
  await expect(input).toHaveAttribute("aria-invalid", "true");
  await shot(page, "settings-rate-error");
  // Enter saves.
  await input.fill("7.5");
  await input.press("Enter");
  await expect(row).toContainText("7.5%");
  await expect(row).toContainText("custom");
  await shot(page, "settings-rate-edited");

  // A new preview uses the new rate.
  expect(await previewTax(page, priceId, "DE")).toEqual({ tax: "750", rate: "0.075" });

  await row.getByRole("button", { name: "Reset tax rate for Germany to standard" }).click();
  const dialog = page.getByRole("dialog", { name: "Reset Germany to the standard rate?" });
  await expect(dialog).toContainText("19%");
  await shot(page, "settings-rate-reset-confirm");
  await dialog.getByRole("button", { name: "Reset rate" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).not.toContainText("custom");
  expect(await previewTax(page, priceId, "DE")).toEqual({ tax: "1900", rate: "0.19" });
});

test("first run: upload a logo (seen on Settings and at checkout), set currency and time zone, remove the logo", async ({
  page,
}) => {
  await page.goto("/settings");
  const logo = page.getByRole("region", { name: "Logo" });
  await expect(logo.getByText("No logo yet")).toBeVisible();
  const chooser = page.getByTestId("logo-file");

  // Checked in the browser before anything is sent: the type, then the size.
  await chooser.setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from("<svg/>") });
  await expect(logo.getByRole("alert")).toContainText("logo.svg is not a PNG or JPEG image");
  await chooser.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(300 * 1024) });
  await expect(logo.getByRole("alert")).toContainText("at most 256 KB");
  // The server reads the bytes: a "PNG" that is not one is refused with its reason.
  await chooser.setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
  await expect(logo.getByRole("alert")).toContainText("The image was refused");

  const upload = logo.getByRole("button", { name: "Upload logo" });
  await expect(upload).toHaveAccessibleDescription(/PNG or JPEG, at most 256 KB/);
  await chooser.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: makePng(240, 80) });
  await expect(page.getByText("Logo uploaded.")).toBeVisible();
  const preview = logo.getByRole("img", { name: /^Logo of / });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await expect(logo.getByRole("alert")).toHaveCount(0);
  const settings = await apiCall<{ logo_url: string }>(page, "GET", "/api/account-settings");
  const served = await page.request.get(settings.logo_url);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  expect(served.headers()["cache-control"]).toContain("immutable");

  // Default currency and time zone.
  const form = page.getByRole("form", { name: "Business details" });
  await form.getByLabel("Default currency").selectOption("EUR");
  await form.getByLabel("Time zone").selectOption("Pacific/Auckland");
  await expect(form.getByLabel("Time zone")).toHaveAccessibleDescription(/Now there: /);
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("Default currency")).toHaveValue("EUR");
  await expect(form.getByLabel("Time zone")).toHaveValue("Pacific/Auckland");
  await shot(page, "settings-logo");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "settings-logo-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Home's revenue cards count the account's days now (issue 26 item 11): no "(UTC)" any more.
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Revenue today", exact: true })).toBeVisible();

  // The default currency is preselected in a new price and a new invoice.
  const productId = await createProductViaApi(page, { name: "Logo check" }, [
    { description: "One", name: "One", amount: "1500", currency_code: "USD" },
  ]);
  await page.goto(`/catalogue/products/${productId}`);
  await page.getByRole("region", { name: "Prices" }).getByRole("button", { name: "Add price" }).click();
  const priceForm = page.getByRole("form", { name: "New price" });
  await expect(priceForm.getByRole("combobox", { name: "Currency", exact: true })).toHaveValue("EUR");

  // The checkout shows the logo.
  const [price] = await apiCall<{ id: string }[]>(page, "GET", `/api/prices?product_id=${productId}`);
  const logoEmail = uniqueEmail("logo");
  const customer = await apiCall<{ id: string }>(page, "POST", "/api/customers", {
    email: logoEmail,
    name: "Lin Logo",
  });
  const address = await apiCall<{ id: string }>(page, "POST", `/api/customers/${customer.id}/addresses`, {
    postal_code: "10001",
    country_code: "US",
  });
  await page.goto("/transactions/new");
  await page.getByRole("searchbox", { name: "Search customers by email or name" }).fill("Lin Logo");
  await page
    .getByRole("radio", { name: /Lin Logo/ })
    .first()
    .check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("radio", { name: /10001/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("combobox", { name: "Currency", exact: true })).toHaveValue("EUR");
  const txn = await apiCall<{ id: string }>(page, "POST", "/api/transactions", {
    items: [{ price_id: price!.id, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
  });
  await page.goto(`/checkout?_ptxn=${txn.id}`);
  const checkoutLogo = page.getByTestId("merchant-logo");
  await expect(checkoutLogo).toBeVisible();
  expect(await checkoutLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await shot(page, "checkout-logo");

  // An issued invoice: its hosted page shows the logo, its dates are Auckland days; so is the PDF.
  const manual = await apiCall<{ id: string }>(page, "POST", "/api/transactions", {
    items: [{ price_id: price!.id, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
    collection_mode: "manual",
    billing_details: { payment_terms: { interval: "day", frequency: 14 } },
  });
  await apiCall(page, "PATCH", `/api/transactions/${manual.id}`, { status: "billed" });
  const link = await apiCall<{ url: string }>(page, "GET", `/api/transactions/${manual.id}/invoice-link`);
  await page.goto(link.url);
  await expect(page.getByTestId("merchant-logo")).toBeVisible();
  const auckland = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "Pacific/Auckland",
  }).format(new Date());
  await expect(page.getByText(`Issued ${auckland}`)).toBeVisible();
  await shot(page, "hosted-invoice-logo");
  const pdf = await apiCall<{ url: string }>(page, "GET", `/api/transactions/${manual.id}/invoice?disposition=inline`);
  const bytes = await (await page.request.get(pdf.url)).body();
  expect(bytes.toString("latin1")).toContain("/Subtype /Image");
  writeFileSync(path.join(import.meta.dirname, "..", "screenshots", "invoice-logo.pdf"), bytes);

  // The customer portal's header shows it too.
  const session = await apiCall<{ urls: { general: { overview: string } } }>(
    page,
    "POST",
    `/api/customers/${customer.id}/portal-sessions`,
    {},
  );
  await page.goto(session.urls.general.overview);
  await expect(page.getByRole("banner").getByTestId("merchant-logo")).toBeVisible();
  await shot(page, "portal-logo");

  // Remove it, after a confirmation; then back to the defaults for the other specs.
  await page.goto("/settings");
  await logo.getByRole("button", { name: "Remove logo" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove the logo?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Remove logo" }).click();
  await expect(dialog).toBeHidden();
  await expect(logo.getByText("No logo yet")).toBeVisible();
  expect((await page.request.get("/logo")).status()).toBe(404);
  await apiCall(page, "PATCH", "/api/account-settings", { default_currency_code: null, timezone: null });
});
