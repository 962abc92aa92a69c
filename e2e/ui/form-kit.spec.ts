import { expect, test } from "@playwright/test";
import { createCustomerInUi, shot, signIn, uniqueEmail, uniqueTag } from "../helpers";

/** The form kit (components/entity-form.tsx, custom-data-field.tsx) as a person uses it, on a phone and a desk. */
test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("custom data rows on a phone: a row without a key is refused beside it, removed, and the rest is sent", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/catalogue/products");
  await page.getByRole("button", { name: "New product" }).first().click();
  const form = page.getByRole("form", { name: "New product" });
  await form.getByRole("textbox", { name: "Name", exact: true }).fill(`Phone ${uniqueTag()}`);
  const data = form.getByRole("group", { name: "Custom data" });
  await data.getByLabel("Key 1").fill("plan");
  await data.getByLabel("Value 1").fill("pro");
  // Keyboard: key, value, then the row's Remove button.
  await data.getByLabel("Key 1").focus();
  await page.keyboard.press("Tab");
  await expect(data.getByLabel("Value 1")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(data.getByRole("button", { name: "Remove row 1" })).toBeFocused();
  await data.getByRole("button", { name: "Add row" }).click();
  await expect(data.getByLabel("Key 2")).toBeFocused();
  await data.getByLabel("Value 2").fill("orphan");
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(data.getByLabel("Key 2")).toHaveAttribute("aria-invalid", "true");
  await expect(data.getByLabel("Key 2")).toHaveAccessibleDescription(/Row 2 needs a key/);
  await expect(data.getByLabel("Key 2")).toBeFocused();
  await expect(data.getByLabel("Key 1")).not.toHaveAttribute("aria-invalid", "true");
  await expect(data.getByLabel("Value 1")).toHaveValue("pro");
  await shot(page, "forms-product-390");

  await data.getByRole("button", { name: "Remove row 2" }).click();
  await expect(data.getByLabel("Key 1")).toBeFocused();
  const request = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/products");
  await form.getByRole("button", { name: "Create product" }).click();
  expect((await request).postDataJSON().custom_data).toEqual({ plan: "pro" });
  await expect(form).toBeHidden();
});

test("an edit form says when it has unsaved changes, and numbers in custom data stay JSON", async ({ page }) => {
  await createCustomerInUi(page, { email: uniqueEmail("kit"), name: "Kit Tester" });
  const id = page.url().split("/").at(-1)!;
  const patched = await page.evaluate(async (customerId) => {
    const response = await fetch(`/api/customers/${customerId}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ custom_data: { seats: 5 } }),
    });
    return response.status;
  }, id);
  expect(patched).toBe(200);
  await page.reload();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const form = page.getByRole("form", { name: "Edit customer" });
  // A number is not text: the editor opens as JSON, and leaving it untouched changes nothing.
  await expect(form.getByRole("button", { name: "Edit as JSON" })).toHaveAttribute("aria-pressed", "true");
  await expect(form.getByLabel("Custom data as JSON")).toHaveValue(/"seats": 5/);
  await form.getByRole("button", { name: "Edit as JSON" }).click();
  await expect(form.getByRole("status")).toContainText("can only be edited as JSON");
  await expect(form.getByText("Unsaved changes")).toBeHidden();
  await form.getByLabel("Name", { exact: true }).fill("Kit Tester II");
  await expect(form.getByText("Unsaved changes")).toBeVisible();
  await shot(page, "forms-customer-edit-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "forms-customer-edit-390");
  const request = page.waitForRequest((r) => r.method() === "PATCH" && new URL(r.url()).pathname.includes(id));
  await form.getByRole("button", { name: "Save changes" }).click();
  expect((await request).postDataJSON()).toEqual({ name: "Kit Tester II" });
  await expect(form).toBeHidden();
});

test("the discount form on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/catalogue/discounts");
  await page.getByRole("button", { name: "New discount", exact: true }).first().click();
  const form = page.getByRole("form", { name: "New discount" });
  await form.getByRole("button", { name: "Create discount" }).click();
  await expect(form.getByLabel("Description")).toHaveAttribute("aria-invalid", "true");
  await shot(page, "forms-discount-390");
});
