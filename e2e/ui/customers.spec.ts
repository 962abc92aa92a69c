import { expect, test } from "@playwright/test";
import {
  apiCall,
  checkListLoadingAndError,
  createCustomerInUi,
  expectNoSeriousA11yViolations,
  screenshot,
  sentEmails,
  shot,
  signIn,
  uniqueEmail,
} from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Customers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
});

test("create a customer through the form, then find it in the table and on its page", async ({ page }) => {
  const email = uniqueEmail("ada");
  await page.getByRole("button", { name: "New customer" }).first().click();
  const form = page.getByRole("form", { name: "New customer" });
  await expect(form.getByLabel("Email")).toBeFocused();
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await form.getByLabel("Locale").fill("en-GB");
  // Custom data: rows of key and value; nested values are typed as JSON, refused beside the field until they parse.
  await form.getByLabel("Key 1").fill("crm_id");
  await form.getByLabel("Value 1").fill("42");
  await form.getByRole("button", { name: "Edit as JSON" }).click();
  const json = form.getByLabel("Custom data as JSON");
  await expect(json).toHaveValue(/"crm_id": "42"/);
  await json.fill('{"crm_id": "42", "tier": {"level": 2}');
  await form.getByRole("button", { name: "Create customer" }).click();
  await expect(json).toHaveAttribute("aria-invalid", "true");
  await expect(json).toHaveAccessibleDescription(/must be valid JSON/);
  await expect(json).toBeFocused();
  await json.fill('{"crm_id": "42", "tier": {"level": 2}}');
  await form.getByRole("button", { name: "Create customer" }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "created" })).toContainText(email);

  const row = page.getByRole("table", { name: "Customers" }).getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Ada Lovelace");
  await expect(row).toContainText("active");
  await screenshot(page, "customers-list");

  // Search finds it; a search that matches nothing shows the empty state.
  await page.getByRole("searchbox", { name: "Search customers" }).fill(email);
  await expect(page.getByRole("table", { name: "Customers" }).getByRole("row")).toHaveCount(2);
  await page.getByRole("searchbox", { name: "Search customers" }).fill("no-such-customer-anywhere");
  await expect(page.getByText("No customers match")).toBeVisible();
  await screenshot(page, "customers-empty-search");
  await page.getByRole("searchbox", { name: "Search customers" }).fill(email);

  await page.getByRole("table", { name: "Customers" }).getByRole("link", { name: email }).click();
  await expect(page).toHaveURL(/\/customers\/ctm_[a-z0-9]{26}$/);
  await expect(page).toHaveTitle(/Customer/);
  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText(email);
  await expect(details).toContainText("en-GB");
  await expect(details).toContainText('"crm_id": "42"');
  await expect(details).toContainText('"level": 2');
  await expect(page.getByRole("region", { name: "Addresses" }).getByText("No addresses")).toBeVisible();
  await expect(page.getByRole("region", { name: "Businesses" }).getByText("No businesses")).toBeVisible();
  await screenshot(page, "customer-detail");
});

test("a bad email gets its error beside the input and keeps what was typed", async ({ page }) => {
  await page.getByRole("button", { name: "New customer" }).first().click();
  const form = page.getByRole("form", { name: "New customer" });
  const email = form.getByLabel("Email");
  await email.fill("not-an-email");
  await form.getByLabel("Name", { exact: true }).fill("Typo Person");
  await form.getByRole("button", { name: "Create customer" }).click();

  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription(/must be a valid email address/);
  await expect(email).toBeFocused();
  await expect(email).toHaveValue("not-an-email");
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("Typo Person");
  await screenshot(page, "customer-form-field-error");

  // Fixing it clears the error and creates the customer.
  const fixed = uniqueEmail("typo");
  await email.fill(fixed);
  await form.getByRole("button", { name: "Create customer" }).click();
  await expect(form).toBeHidden();
  await expect(
    page.getByRole("table", { name: "Customers" }).getByRole("row").filter({ hasText: fixed }),
  ).toContainText("Typo Person");
});

test("an email already in use names the existing customer with a link", async ({ page }) => {
  const email = uniqueEmail("dup");
  const id = await createCustomerInUi(page, { email });
  await page.goto("/customers");
  await page.getByRole("button", { name: "New customer" }).first().click();
  const form = page.getByRole("form", { name: "New customer" });
  await form.getByLabel("Email").fill(email);
  await form.getByRole("button", { name: "Create customer" }).click();
  const alert = form.getByRole("alert");
  await expect(alert).toContainText("conflicts with customer");
  await expect(form.getByLabel("Email")).toHaveValue(email);
  await alert.getByRole("link", { name: id }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${id}$`));
});

test("a US address without a postal code gets the postal_code error, then is fixed", async ({ page }) => {
  await createCustomerInUi(page, { email: uniqueEmail("grace"), name: "Grace Hopper" });
  const addresses = page.getByRole("region", { name: "Addresses" });
  await addresses.getByRole("button", { name: "New address" }).click();
  const form = page.getByRole("form", { name: "New address" });
  await form.getByLabel("Description").fill("Head office");
  await form.getByLabel("Country").selectOption("US");
  await expect(form.getByLabel("Country")).toHaveValue("US");
  await form.getByLabel("Address line 1").fill("1 Main Street");
  await form.getByLabel("City").fill("Springfield");
  await form.getByRole("button", { name: "Add address" }).click();

  const postalCode = form.getByLabel("Postal code");
  await expect(postalCode).toHaveAttribute("aria-invalid", "true");
  await expect(postalCode).toHaveAccessibleDescription(/is required for addresses in US/);
  await expect(postalCode).toBeFocused();
  await expect(form.getByLabel("Address line 1")).toHaveValue("1 Main Street");
  await screenshot(page, "customer-address-error");

  await postalCode.fill("62701");
  await form.getByRole("button", { name: "Add address" }).click();
  await expect(form).toBeHidden();
  const row = addresses.getByRole("row").filter({ hasText: "Head office" });
  await expect(row).toContainText("62701");
  await expect(row).toContainText("United States (US)");

  // Edit it, then archive it behind the confirmation dialog.
  await row.getByRole("button", { name: "Edit Head office" }).click();
  const edit = page.getByRole("form", { name: "Edit address" });
  await edit.getByLabel("City").fill("Shelbyville");
  await edit.getByRole("button", { name: "Save address" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("Shelbyville");

  await row.getByRole("button", { name: "Archive Head office" }).click();
  const dialog = page.getByRole("dialog", { name: "Archive this address?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Archive address" }).click();
  await expect(dialog).toBeHidden();
  await expect(addresses.getByText("No addresses")).toBeVisible();
  await addresses.getByLabel("Address status").selectOption({ label: "Archived" });
  await expect(addresses.getByRole("row").filter({ hasText: "Head office" })).toContainText("archived");
});

test("a business with contacts can be added, and the customer archived and unarchived", async ({ page }) => {
  await createCustomerInUi(page, { email: uniqueEmail("biz"), name: "Buyer" });
  const businesses = page.getByRole("region", { name: "Businesses" });
  await businesses.getByRole("button", { name: "New business" }).click();
  const form = page.getByRole("form", { name: "New business" });
  await form.getByLabel("Business name").fill("Analytical Engines Ltd");
  await form.getByLabel("Tax identifier").fill("GB123456789");
  await form.getByRole("button", { name: "Add contact" }).click();
  await form.getByLabel("Contact 1 name").fill("Charles");
  await form.getByLabel("Contact 1 email").fill("charles@example.com");
  await form.getByRole("button", { name: "Add contact" }).click();
  await form.getByLabel("Contact 2 email").fill("CHARLES@example.com");
  await form.getByRole("button", { name: "Add business" }).click();
  // The second contact repeats the first one's email: the error sits on that row.
  await expect(form.getByLabel("Contact 2 email")).toHaveAttribute("aria-invalid", "true");
  await screenshot(page, "customer-business-error");
  await form.getByLabel("Contact 2 email").fill("ada@example.com");
  await form.getByRole("button", { name: "Add business" }).click();
  await expect(form).toBeHidden();
  const row = businesses.getByRole("row").filter({ hasText: "Analytical Engines Ltd" });
  await expect(row).toContainText("2 contacts");
  await expect(row).toContainText("GB123456789");
  await screenshot(page, "customer-detail-filled");

  // Archive the customer: Escape cancels the dialog, the button confirms.
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Archive this customer?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "customer-archive-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await dialog.getByRole("button", { name: "Archive customer" }).click();
  await expect(dialog).toBeHidden();
  const header = page.getByRole("main").locator("header").first();
  await expect(header).toContainText("archived");
  await page.getByRole("button", { name: "Unarchive" }).click();
  await page
    .getByRole("dialog", { name: "Unarchive this customer?" })
    .getByRole("button", { name: "Unarchive customer" })
    .click();
  await expect(header).toContainText("active");
  await expect(page.getByRole("button", { name: "Archive", exact: true })).toBeVisible();
});

test("an unknown customer shows the API's error with its request ID", async ({ page }) => {
  await page.goto("/customers/ctm_00000000000000000000000000");
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("Could not load this customer");
  await expect(alert).toContainText("No customer with ID ctm_00000000000000000000000000");
  await expect(alert).toContainText(/Request ID [0-9a-f-]{36}/);
  await expect(page.getByRole("link", { name: "Customers" }).first()).toBeVisible();
  await screenshot(page, "customer-not-found");
});

test("the list shows a skeleton while loading and an error with a retry when the API fails", async ({ page }) => {
  await checkListLoadingAndError(page, {
    api: "**/api/customers?*",
    path: "/customers",
    table: "Customers",
    name: "customers",
  });
  await expect(page.getByRole("table", { name: "Customers" }).or(page.getByText(/^No customers/))).toBeVisible();
});

test("search and cursor pagination: Next and Previous walk the pages", async ({ page }) => {
  // 27 customers sharing a tag, created through the API with the dashboard's session (same origin).
  const tag = `pg${Date.now().toString(36)}`;
  const statuses = await page.evaluate(async (tag) => {
    const out: number[] = [];
    for (let i = 0; i < 27; i++) {
      const response = await fetch("/api/customers", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `${tag}-${String(i).padStart(2, "0")}@example.com`, name: `Paged ${i}` }),
      });
      out.push(response.status);
    }
    return out;
  }, tag);
  expect(statuses.every((s) => s === 201)).toBe(true);

  await page.getByRole("searchbox", { name: "Search customers" }).fill(tag);
  const table = page.getByRole("table", { name: "Customers" });
  const pages = page.getByRole("navigation", { name: "Customers pages" });
  await expect(pages).toContainText("Showing 1–25 of 27");
  await expect(table.getByRole("row")).toHaveCount(26);
  // Newest first.
  await expect(table.getByRole("row").nth(1)).toContainText(`${tag}-26@`);
  await expect(pages.getByRole("button", { name: "Previous" })).toBeDisabled();

  await pages.getByRole("button", { name: "Next" }).click();
  await expect(pages).toContainText("Showing 26–27 of 27");
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("row").nth(2)).toContainText(`${tag}-00@`);
  await expect(pages.getByRole("button", { name: "Next" })).toBeDisabled();
  await screenshot(page, "customers-page-2");

  await pages.getByRole("button", { name: "Previous" }).click();
  await expect(pages).toContainText("Showing 1–25 of 27");
  await expect(table.getByRole("row").nth(1)).toContainText(`${tag}-26@`);
});

test("Email portal link: a confirmation names the recipient, a toast confirms, and the email's link opens the portal", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("portal-link");
  const customerId = await createCustomerInUi(page, { email, name: "Ada Portal" });
  await page.getByRole("button", { name: "Email portal link" }).click();
  const dialog = page.getByRole("dialog", { name: "Email a portal link?" });
  await expect(dialog).toContainText(email);
  await shot(page, "customer-portal-link-confirm");
  await expectNoSeriousA11yViolations(page, "customer page, portal link confirmation");
  await dialog.getByRole("button", { name: "Send email" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Portal link emailed to ${email}.`)).toBeVisible();
  await screenshot(page, "customer-portal-link-sent");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "customer-portal-link-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The customer's mailbox (the suite's loopback SMTP server): the link opens their portal.
  const [mail] = await sentEmails(email);
  const link = /Open billing portal: (http:\/\/\S+\/portal\/overview\?token=\S+)/.exec(mail!.text ?? "")?.[1];
  expect(link, mail!.text ?? "").toBeDefined();
  const customer = await browser.newPage();
  await customer.goto(link as string);
  await expect(customer).toHaveURL(/\/portal\/overview$/);
  await expect(customer.getByTestId("portal-merchant")).toBeVisible();
  await customer.close();

  // The email, in the Emails log too, with the portal link.
  const emails = await apiCall<{ id: string; template: string; entity_id: string }[]>(
    page,
    "GET",
    `/api/emails?to=${encodeURIComponent(email)}`,
  );
  expect(emails.map((e) => [e.template, e.entity_id])).toEqual([["portal_link", customerId]]);
  const one = await apiCall<{ text: string }>(page, "GET", `/api/emails/${emails[0]!.id}`);
  expect(one.text).toMatch(/Open billing portal: http:\/\/[^/]+\/portal\/overview\?token=/);
  await page.goto(`/emails/${emails[0]!.id}`);
  await expect(page.getByRole("main")).toContainText("Manage your billing with");
});
