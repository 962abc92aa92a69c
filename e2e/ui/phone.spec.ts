/**
 * The dashboard at a phone's width (390 × 844, issue #14): the navigation is a top bar with a Menu,
 * and no main page scrolls sideways (tables scroll inside their card, headers and buttons wrap).
 * Screenshots of every page in e2e/screenshots/phone-*.png, and a few in dark mode (phone-dark-*).
 */
import { expect, type Page, test } from "@playwright/test";
import { makeManualTransaction, sdk, subscribeAtCheckout } from "../api/sdk-helpers";
import { cliApiKey } from "../cli";
import { apiCall, screenshot, signIn, uniqueEmail } from "../helpers";

const PHONE = { width: 390, height: 844 };

let pages: [name: string, path: string][] = [];
let checkout = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const paddle = sdk(cliApiKey());
  // Once more if the first request meets a keep-alive connection the server just closed.
  const bought = await subscribeAtCheckout(paddle).catch(() => subscribeAtCheckout(paddle));
  const ready = await makeManualTransaction(paddle, `Phone product ${Date.now()}`, "phone");
  const txn = await paddle.transactions.create({
    items: [{ priceId: bought.price.id, quantity: 1 }],
    customerId: bought.customer.id,
    addressId: bought.address.id,
  });
  checkout = `/checkout?_ptxn=${txn.id}`;
  pages = [
    ["customers", "/customers"],
    ["customer", `/customers/${bought.customer.id}`],
    ["transactions", "/transactions"],
    ["transaction", `/transactions/${ready.id}`],
    ["new-invoice", "/transactions/new"],
    ["subscriptions", "/subscriptions"],
    ["subscription", `/subscriptions/${bought.subscriptionId}`],
    ["products", "/catalogue/products"],
    ["product", `/catalogue/products/${bought.product.id}`],
    ["discounts", "/catalogue/discounts"],
    ["discount-groups", "/catalogue/discount-groups"],
    ["metrics", "/metrics"],
    ["reports", "/reports"],
    ["developers", "/developers"],
    ["settings", "/settings"],
    ["destinations", "/notifications/destinations"],
    ["notification-log", "/notifications/log"],
    ["simulator", "/notifications/simulator"],
    ["team", "/team"],
    ["audit-log", "/audit-log"],
    ["audit-log-filtered", "/audit-log?actor_type=user&from=2020-01-01"],
    ["emails", "/emails"],
    ["transactions-sorted", "/transactions?order_by=billed_at%5BDESC%5D"],
  ];
});

/** Opens the page and waits for its data: a level-1 heading, no skeleton, no busy table. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator(".animate-pulse")).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
  // The dashboard's fixed top bar (phones) covers nothing of the page's start: its title is below it.
  // Read at once (no waiting): public pages have no bar.
  const overlap = await page.evaluate(() => {
    const bar = document.querySelector("header");
    const title = document.querySelector("h1");
    if (!bar || !title || getComputedStyle(bar).position !== "fixed") return null;
    return { barBottom: bar.getBoundingClientRect().bottom, titleTop: title.getBoundingClientRect().top };
  });
  if (overlap) {
    expect(overlap.titleTop, `${path}: the title starts under the top bar`).toBeGreaterThanOrEqual(overlap.barBottom);
  }
}

/**
 * How far the page, and its <main>, reach sideways beyond the screen (0 when nothing does), and
 * when they do, the innermost elements that stick out (to find the culprit from the failure).
 */
async function sidewaysOverflow(page: Page): Promise<{ page: number; main: number; culprits?: string[] }> {
  return page.evaluate(() => {
    const root = document.scrollingElement as Element;
    const main = document.querySelector("main");
    const overflow = {
      page: Math.max(0, root.scrollWidth - window.innerWidth),
      main: main ? Math.max(0, main.scrollWidth - main.clientWidth) : 0,
    };
    if (overflow.page <= 0 && overflow.main <= 0) return overflow;
    const edge = main ? main.getBoundingClientRect().right : window.innerWidth;
    const clipped = (e: Element) => {
      for (let up = e.parentElement; up && up !== main && up !== document.body; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== "visible") return true;
      return false;
    };
    const out = [...document.querySelectorAll("body *")].filter(
      (e) => e.getBoundingClientRect().right > edge + 1 && !clipped(e),
    );
    const innermost = out.filter((e) => !out.some((other) => other !== e && e.contains(other)));
    const culprits = innermost
      .slice(0, 6)
      .map(
        (e) =>
          `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}"> ${(e.textContent ?? "").slice(0, 40)}`,
      );
    return { ...overflow, culprits };
  });
}

test("no main page scrolls sideways at 390 px", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(PHONE);
  await signIn(page);
  // The navigation is a top bar with a Menu.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await page.getByText("Menu", { exact: true }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await screenshot(page, "phone-menu");

  for (const [name, path] of pages) {
    await open(page, path);
    expect.soft(await sidewaysOverflow(page), `${path} at 390 px`).toEqual({ page: 0, main: 0 });
    await screenshot(page, `phone-${name}`);
  }
});

test("the Team page with an invitation pending, and the invitation page, at 390 px and desktop", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await signIn(page);
  const invite = await apiCall<{ url: string }>(page, "POST", "/api/team/invites", {
    email: uniqueEmail("phone-invited-with-a-rather-long-address"),
    role: "developer",
  });
  await open(page, "/team");
  await expect(page.getByRole("table", { name: "Pending invitations" })).toBeVisible();
  expect.soft(await sidewaysOverflow(page), "/team with an invitation at 390 px").toEqual({ page: 0, main: 0 });
  await screenshot(page, "phone-team-invited");
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, "desktop-team-invited");
  await open(page, "/audit-log");
  await screenshot(page, "desktop-audit-log");
  await open(page, "/emails");
  await screenshot(page, "desktop-emails");

  const fresh = await browser.newContext();
  const invitee = await fresh.newPage();
  for (const [name, path] of [
    ["invite", new URL(invite.url).pathname],
    ["invite-bad", `/invite/${"A".repeat(43)}`],
  ]) {
    await invitee.setViewportSize(PHONE);
    await open(invitee, path!);
    expect.soft(await sidewaysOverflow(invitee), `${path} at 390 px`).toEqual({ page: 0, main: 0 });
    await screenshot(invitee, `phone-${name}`);
    await invitee.setViewportSize({ width: 1280, height: 900 });
    await screenshot(invitee, `desktop-${name}`);
  }
  await fresh.close();
});

test("dark mode follows the system setting, at phone and desktop widths", async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize(PHONE);
  await signIn(page);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe("rgb(248, 250, 252)");
  for (const [name, path] of pages.filter(([name]) => ["customers", "transaction", "subscription"].includes(name))) {
    await open(page, path);
    await screenshot(page, `phone-dark-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const [name, path] of pages.filter(([name]) =>
    ["customers", "transaction", "subscription", "metrics", "settings", "product"].includes(name),
  )) {
    await open(page, path);
    await screenshot(page, `desktop-dark-${name}`);
  }
  await page.goto(checkout);
  await expect(page.getByRole("button", { name: /^Pay / })).toBeVisible();
  await screenshot(page, "desktop-dark-checkout");
  await page.setViewportSize(PHONE);
  await screenshot(page, "phone-dark-checkout");
});
