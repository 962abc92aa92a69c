/**
 * "New subscription" on a customer's page (issue 26, item 5), both ways: a charge of the card the
 * customer saved at an earlier checkout, and an emailed checkout link the customer pays. A ready,
 * automatically-collected transaction's page offers its checkout first.
 */
import { expect, type Page, test } from "@playwright/test";
import { apiCall, createProductViaApi, screenshot, sentEmails, signIn, uniqueEmail, uniqueTag } from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** A customer with a US address; `withCard`: one paid checkout before, so a card is saved. */
async function customer(page: Page, withCard: boolean): Promise<{ id: string; email: string }> {
  const email = uniqueEmail("subscriber");
  const created = await apiCall<{ id: string }>(page, "POST", "/api/customers", { email, name: "Noor Patel" });
  const address = await apiCall<{ id: string }>(page, "POST", `/api/customers/${created.id}/addresses`, {
    first_line: "5 Elm Street",
    city: "Boston",
    postal_code: "02108",
    country_code: "US",
  });
  if (withCard) {
    const productId = await createProductViaApi(page, { name: `Starter ${uniqueTag()}` }, [
      { description: "Starter monthly", amount: "900", currency_code: "USD", interval: "month" },
    ]);
    const [price] = await apiCall<{ id: string }[]>(page, "GET", `/api/prices?product_id=${productId}`);
    const txn = await apiCall<{ id: string }>(page, "POST", "/api/transactions", {
      items: [{ price_id: price!.id, quantity: 1 }],
      customer_id: created.id,
      address_id: address.id,
    });
    await apiCall(page, "POST", `/api/checkout/${txn.id}/payments`, {
      cardholder_name: "Noor Patel",
      number: "4242 4242 4242 4242",
      expiry: "12/34",
      cvc: "123",
    });
  }
  return { id: created.id, email };
}

async function choosePlan(page: Page, productName: string): Promise<void> {
  const form = page.getByRole("form", { name: "New subscription" });
  await form.getByRole("searchbox", { name: "Search catalogue products" }).fill(productName);
  await form.getByRole("button", { name: `Add ${productName}, Team monthly` }).click();
  await form.getByLabel(`Quantity of ${productName}`).fill("3");
}

test("charge the saved card: the subscription starts at once", async ({ page }) => {
  test.setTimeout(120_000);
  const productName = `Team ${uniqueTag()}`;
  await createProductViaApi(page, { name: productName }, [
    { description: "Team monthly", amount: "2000", currency_code: "USD", interval: "month" },
  ]);
  const buyer = await customer(page, true);
  await page.goto(`/customers/${buyer.id}`);
  await page.getByRole("button", { name: "New subscription" }).click();
  const form = page.getByRole("form", { name: "New subscription" });
  await choosePlan(page, productName);
  await expect(form.getByLabel(/Charge the saved card now: Visa ending 4242/)).toBeChecked();
  await screenshot(page, "new-subscription-card-desktop-light");
  await expect(form.getByTestId("due-today")).toContainText("$60.00");
  await form.getByRole("button", { name: "Charge $60.00 and start subscription" }).click();
  await expect(page.getByText("Subscription started: $60.00 charged to the saved card.")).toBeVisible();
  await expect(form).toBeHidden();
  const table = page.getByRole("table", { name: "Subscriptions" });
  await expect(table.getByRole("row")).toHaveCount(3);
});

test("email a checkout link with a trial and a discount; the customer pays it; the transaction offers its checkout", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const productName = `Team ${uniqueTag()}`;
  await createProductViaApi(page, { name: productName }, [
    { description: "Team monthly", amount: "2000", currency_code: "USD", interval: "month" },
  ]);
  const description = `Welcome ${uniqueTag()}`;
  await apiCall(page, "POST", "/api/discounts", {
    description,
    type: "percentage",
    amount: "50",
    enabled_for_checkout: false,
  });
  const buyer = await customer(page, false);
  await page.goto(`/customers/${buyer.id}`);
  await page.getByRole("button", { name: "New subscription" }).click();
  const form = page.getByRole("form", { name: "New subscription" });
  await choosePlan(page, productName);
  await expect(form.getByLabel(`Email a checkout link to ${buyer.email}`)).toBeChecked();
  await form.getByLabel("Discount").selectOption({ label: description });
  await form.getByLabel("Trial", { exact: true }).selectOption("No trial");
  for (const [width, height, size] of [
    [1440, 900, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `new-subscription-email-${size}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await form.getByRole("button", { name: "Send checkout link" }).click();
  await expect(page.getByText(`Checkout link emailed to ${buyer.email}.`)).toBeVisible();

  const [mail] = await sentEmails(buyer.email);
  expect(mail!.subject).toContain("Start your subscription");
  const link = /https?:\/\/\S+\/checkout\?_ptxn=(txn_[a-z0-9]{26})/.exec(mail!.text ?? "");
  expect(link, mail!.text ?? "").not.toBeNull();

  // The merchant's transaction page: checkout first, not "Issue invoice".
  await page.goto(`/transactions/${link?.[1]}`);
  const open = page.getByRole("link", { name: "Open checkout" });
  await expect(open).toBeVisible();
  await expect(open).toHaveAttribute("href", link?.[0] ?? "");
  // Checkout first: "Issue invoice" comes after it, as a secondary action.
  const issue = page.getByRole("button", { name: "Issue invoice" });
  expect((await open.boundingBox())?.x ?? 0).toBeLessThan((await issue.boundingBox())?.x ?? 0);
  await expect(page.getByRole("button", { name: "Copy checkout link" })).toBeVisible();
  await screenshot(page, "transaction-ready-checkout-first");

  const customerPage = await (await browser.newContext()).newPage();
  await customerPage.goto(link?.[0] ?? "");
  await expect(customerPage.getByTestId("total-due")).toHaveText("$30.00");
  await customerPage.getByLabel("Name on card").fill("Noor Patel");
  await customerPage.getByLabel("Card number").fill("4242424242424242");
  await customerPage.getByLabel("Expiry (MM/YY)").fill("1234");
  await customerPage.getByLabel("CVC").fill("123");
  await customerPage.getByRole("button", { name: /\$30\.00/ }).click();
  await expect(customerPage.getByRole("status").filter({ hasText: "Payment successful" })).toBeVisible();
  await expect(customerPage.getByRole("button", { name: "Manage subscription" })).toBeVisible();

  await page.goto(`/customers/${buyer.id}`);
  await expect(page.getByRole("table", { name: "Subscriptions" }).getByRole("row")).toHaveCount(2);
});
