/**
 * Payment links and the complete checkout (issue 26, items 5 and 6): a merchant makes a link from a
 * price's row, a buyer without a session pays through it with a discount code and lands back on
 * the merchant's site; a subscription's checkout leads to its portal.
 */
import { expect, type Page, test } from "@playwright/test";
import {
  apiCall,
  createProductViaApi,
  dismissToasts,
  expectNoSeriousA11yViolations,
  screenshot,
  shot,
  signIn,
  uniqueEmail,
  uniqueTag,
} from "../helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** Light and dark, desktop and phone, of the page as it is now (reloaded for each). */
async function shots(page: Page, name: string, reload = true): Promise<void> {
  for (const [width, height, suffix] of [
    [1440, 900, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      if (reload) await page.reload();
      else await dismissToasts(page);
      await screenshot(page, `${name}-${suffix}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("a merchant makes a payment link from a price's row; a buyer pays through it with a code and returns to the merchant", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const productName = `Course ${uniqueTag()}`;
  const productId = await createProductViaApi(page, { name: productName }, [
    { description: "Internal: course SKU 9", name: "Full course", amount: "12000", currency_code: "USD" },
  ]);
  const code = uniqueTag("SPRING");
  await apiCall(page, "POST", "/api/discounts", {
    description: "Spring campaign",
    type: "percentage",
    amount: "25",
    enabled_for_checkout: true,
    code,
  });

  // From the price's row to the Payment links page, the price already chosen.
  await page.goto(`/catalogue/products/${productId}`);
  await page.getByRole("link", { name: "Create payment link for Internal: course SKU 9" }).click();
  await page.waitForURL(/\/catalogue\/payment-links\?new=pri_/);
  const form = page.getByRole("form", { name: "New payment link" });
  await expect(form.getByRole("list", { name: "Chosen prices" })).toContainText(productName);
  const successUrl = `${baseURL}/docs/errors?paid=${uniqueTag()}`;
  // A plain-http address elsewhere than this machine is refused, with the reason beside the field.
  await form.getByLabel("After payment, return to (optional)").fill("http://shop.example.com/thanks");
  await form.getByRole("button", { name: "Create payment link" }).click();
  await expect(form.getByText(/must be https/)).toBeVisible();
  await form.getByLabel("After payment, return to (optional)").fill(successUrl);
  await form.getByRole("button", { name: "Create payment link" }).click();
  await expect(page.getByRole("heading", { name: "Payment link created" })).toBeVisible();
  const url = await page.getByLabel("Payment link", { exact: true }).inputValue();
  expect(url).toMatch(/\/pay\/plink_[a-z0-9]{26}$/);
  await expect(page.getByTestId("payment-link-qr").locator("svg")).toBeVisible();
  await expect(page.getByRole("table", { name: "Payment links" })).toContainText(productName);
  await shots(page, "payment-links-created", false);
  await expectNoSeriousA11yViolations(page, "payment link created");

  // The buyer: no session.
  const buyer = await (await browser.newContext()).newPage();
  await buyer.goto(url);
  await expect(buyer.getByRole("list", { name: "Items" })).toContainText("Full course");
  await expect(buyer.getByRole("list", { name: "Items" })).not.toContainText("SKU 9");
  await buyer.getByRole("button", { name: "Continue to payment" }).click();
  await expect(buyer.getByText("Enter a valid email address")).toBeVisible();
  await shots(buyer, "payment-link-page", false);
  await expectNoSeriousA11yViolations(buyer, "payment link page with errors");
  await buyer.getByLabel("Email").fill(uniqueEmail("link-buyer"));
  await buyer.getByLabel("Country").selectOption("US");
  await buyer.getByLabel("Postal code").fill("10001");
  await buyer.getByRole("button", { name: "Continue to payment" }).click();
  await buyer.waitForURL(/\/checkout\?_ptxn=txn_/);
  await expect(buyer.getByTestId("total-due")).toHaveText("$120.00");

  // A discount code: an unknown one is explained, the campaign's applies (any case).
  await buyer.getByRole("button", { name: "Have a discount code?" }).click();
  await buyer.getByRole("textbox", { name: "Discount code" }).fill("NOSUCHCODE");
  await buyer.getByRole("button", { name: "Apply" }).click();
  await expect(buyer.getByRole("alert").filter({ hasText: "NOSUCHCODE" })).toHaveText(
    "NOSUCHCODE is not a valid discount code.",
  );
  await buyer.getByRole("textbox", { name: "Discount code" }).fill(code.toLowerCase());
  await buyer.getByRole("button", { name: "Apply" }).click();
  await expect(buyer.getByTestId("total-due")).toHaveText("$90.00");
  await expect(buyer.getByText(`Code ${code} applied.`)).toBeVisible();
  await expectNoSeriousA11yViolations(buyer, "checkout with a discount code");

  // The card as typed: grouped, and the expiry formatted.
  await buyer.getByLabel("Name on card").fill("Lin Buyer");
  await buyer.getByLabel("Card number").pressSequentially("4242424242424242");
  await expect(buyer.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  await buyer.getByLabel("Expiry (MM/YY)").pressSequentially("1229");
  await expect(buyer.getByLabel("Expiry (MM/YY)")).toHaveValue("12 / 29");
  await buyer.getByLabel("CVC").fill("123");
  await shots(buyer, "checkout-with-code", false);
  await buyer.getByRole("button", { name: "Pay $90.00" }).click();
  await expect(buyer.getByRole("status").filter({ hasText: "Payment successful" })).toBeVisible();
  const receipt = buyer.getByRole("link", { name: "Download your receipt (PDF)" });
  await expect(receipt).toBeVisible();
  const pdf = await buyer.request.get((await receipt.getAttribute("href")) ?? "");
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  await shots(buyer, "checkout-paid");
  await expectNoSeriousA11yViolations(buyer, "paid checkout");
  await buyer.getByTestId("return-to-merchant").click();
  await buyer.waitForURL(successUrl);
});

test("a subscription bought through a single-use link: Manage subscription opens the portal; the link is then used", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const productName = `Plan ${uniqueTag()}`;
  const productId = await createProductViaApi(page, { name: productName }, [
    { description: "Monthly", name: "Monthly", amount: "2500", currency_code: "USD", interval: "month" },
  ]);
  const [price] = await apiCall<{ id: string }[]>(page, "GET", `/api/prices?product_id=${productId}`);
  const link = await apiCall<{ url: string }>(page, "POST", "/api/payment-links", {
    items: [{ price_id: price!.id, quantity: 1 }],
    reusable: false,
  });
  const buyer = await (await browser.newContext()).newPage();
  await buyer.goto(link.url);
  await expect(buyer.getByRole("list", { name: "Items" })).toContainText("every month");
  await buyer.getByLabel("Email").fill(uniqueEmail("sub-buyer"));
  await buyer.getByLabel("Country").selectOption("US");
  await buyer.getByLabel("Postal code").fill("10001");
  await buyer.getByRole("button", { name: "Continue to payment" }).click();
  await buyer.waitForURL(/\/checkout\?_ptxn=txn_/);
  await buyer.getByLabel("Name on card").fill("Sub Buyer");
  await buyer.getByLabel("Card number").fill("4242 4242 4242 4242");
  await buyer.getByLabel("Expiry (MM/YY)").fill("12/34");
  await buyer.getByLabel("CVC").fill("123");
  await buyer.getByRole("button", { name: /\$25\.00/ }).click();
  await expect(buyer.getByRole("status").filter({ hasText: "Payment successful" })).toBeVisible();
  await buyer.getByRole("button", { name: "Manage subscription" }).click();
  await buyer.waitForURL(/\/portal/);
  await expect(buyer.getByText(productName).first()).toBeVisible();

  await buyer.goto(link.url);
  await expect(buyer.getByRole("heading", { name: "This payment link has been used" })).toBeVisible();
  await shot(buyer, "payment-link-used");
});
