import { expect, type Page, test } from "@playwright/test";
import { createProductViaApi, shot, signIn } from "../helpers";

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
