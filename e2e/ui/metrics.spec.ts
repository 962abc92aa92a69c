/**
 * The Metrics page: every chart (MRR with its movements, active subscribers, churn, revenue,
 * refunds and chargebacks, checkout conversion), their totals, range presets, a custom range and
 * the table views; the numbers on the page are the API's.
 *
 * Completed transactions are seeded straight into the e2e database through `pg` on
 * process.env.DATABASE_URL (npm test points it at the e2e database the server uses): the API has
 * no way to complete a transaction without a payment, and the rollup's triggers see such rows
 * exactly as they see a payment's completion. Exact figures are checked on a custom range in March
 * 2020, which no other spec touches; the presets (relative to today) only need some revenue.
 */
import { expect, test } from "@playwright/test";
import pg from "pg";
import { apiCall, shot, signIn } from "../helpers";

const DAY_MS = 86_400_000;

function daysAgo(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString();
}

/** Inserts completed transactions: [currency, earnings in minor units, completed_at]. */
async function seed(rows: [string, string, string][]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    for (const [currency, earnings, completedAt] of rows) {
      await client.query(
        `INSERT INTO transactions (id, status, currency_code, details, completed_at)
         VALUES ('txn_' || substr(md5(random()::text || clock_timestamp()::text), 1, 26), 'completed', $1, $2::json, $3)`,
        [
          currency,
          JSON.stringify({ totals: { earnings, fee: "0", currency_code: currency }, line_items: [] }),
          completedAt,
        ],
      );
    }
  } finally {
    await client.end();
  }
}

/**
 * Subscriptions with a history in March 2020 (no other spec has subscription changes before 2026):
 * written with `billing.metrics_at`, as an import of history is, through the real triggers.
 *   2 March: A (2 × $30.00 a month) and B (€120.00 a year = €10.00 a month) start;
 *   3 March: A goes to 3 seats (+$30.00); 4 March: B is canceled.
 */
async function seedSubscriptions(): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const tail = () =>
    Math.random().toString(36).slice(2, 12).padEnd(10, "0") + Date.now().toString(36).padStart(16, "0");
  const customer = `ctm_${tail()}`;
  const address = `add_${tail()}`;
  const [a, b] = [`sub_${tail()}`, `sub_${tail()}`];
  const price = (amount: string, currency: string, interval: string) =>
    JSON.stringify({
      id: "pri_e2e",
      billing_cycle: { interval, frequency: 1 },
      unit_price: { amount, currency_code: currency },
      unit_price_overrides: [],
    });
  const at = async (moment: string, statements: [string, unknown[]][]) => {
    await client.query("BEGIN");
    await client.query(`SET LOCAL billing.metrics_at = '${moment}'`);
    for (const [sql, params] of statements) await client.query(sql, params);
    await client.query("COMMIT");
  };
  const subscription = `INSERT INTO subscriptions (id, status, customer_id, address_id, currency_code, collection_mode,
      billing_cycle_interval, billing_cycle_frequency, billing_anchor_at, started_at)
    VALUES ($1, 'active', $2, $3, $4, 'automatic', $5, 1, '2020-03-02', '2020-03-02')`;
  const item = `INSERT INTO subscription_items (id, subscription_id, position, price_id, status, quantity, price, product)
    VALUES ('subitm_' || $1, $1, 0, 'pri_e2e', 'active', $2, $3::json, '{}'::json)`;
  try {
    await client.query(
      `INSERT INTO customers (id, email, name, status, locale, created_at, updated_at)
       VALUES ($1, $2, 'Metrics History', 'active', 'en', now(), now())`,
      [customer, `metrics-${Date.now()}@example.com`],
    );
    await client.query(
      `INSERT INTO addresses (id, customer_id, country_code, postal_code, status, created_at, updated_at)
       VALUES ($1, $2, 'US', '10001', 'active', now(), now())`,
      [address, customer],
    );
    await at("2020-03-02T10:00:00Z", [
      [subscription, [a, customer, address, "USD", "month"]],
      [item, [a, 2, price("3000", "USD", "month")]],
      [subscription, [b, customer, address, "EUR", "year"]],
      [item, [b, 1, price("12000", "EUR", "year")]],
    ]);
    await at("2020-03-03T10:00:00Z", [["UPDATE subscription_items SET quantity = 3 WHERE subscription_id = $1", [a]]]);
    await at("2020-03-04T10:00:00Z", [
      ["UPDATE subscriptions SET status = 'canceled', canceled_at = '2020-03-04T10:00:00Z' WHERE id = $1", [b]],
    ]);
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  await seedSubscriptions();
  await seed([
    // March 2020: $10.00 + $25.00 on the 2nd, €8.60 (= $10.00 at 0.86) on the 4th, ¥1,540 (= $10.00) on the 5th.
    ["USD", "1000", "2020-03-02T09:00:00Z"],
    ["USD", "2500", "2020-03-02T23:59:59Z"],
    ["EUR", "860", "2020-03-04T12:00:00Z"],
    ["JPY", "1540", "2020-03-05T00:00:00Z"],
    // Around today, for the presets.
    ["USD", "4200", daysAgo(0)],
    ["USD", "1999", daysAgo(2)],
    ["EUR", "3000", daysAgo(12)],
    ["USD", "9900", daysAgo(45)],
    ["USD", "12000", daysAgo(200)],
  ]);
});

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("shows revenue as a chart with totals, switches range, and shows the table", async ({ page }) => {
  await page.getByRole("navigation").getByRole("link", { name: "Metrics" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Metrics" })).toBeVisible();

  // Default: the last 30 days, as a chart.
  await expect(page.getByRole("button", { name: "Last 30 days" })).toHaveAttribute("aria-pressed", "true");
  const chart = page.getByRole("figure", { name: /Revenue per day/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  // The money axis is labelled in the currency's format.
  await expect(chart.getByText("$0.00").first()).toBeVisible();
  const count = page.locator("dt", { hasText: "Completed transactions" }).locator("xpath=..").locator("dd").first();
  await expect(count).not.toHaveText("…");
  expect(Number((await count.textContent())?.replace(/,/g, ""))).toBeGreaterThanOrEqual(3);
  await shot(page, "metrics-chart");

  // Presets.
  await page.getByRole("button", { name: "Last 12 months" }).click();
  await expect(page.getByRole("button", { name: "Last 12 months" })).toHaveAttribute("aria-pressed", "true");
  await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.getByRole("button", { name: "Last 7 days" }).click();
  await expect(page.getByRole("button", { name: "Last 7 days" })).toHaveAttribute("aria-pressed", "true");

  // A custom range is checked before it is asked for.
  await page.getByRole("button", { name: "Custom" }).click();
  const custom = page.getByRole("form", { name: "Custom range" });
  await custom.getByLabel("From").fill("2020-03-06");
  await custom.getByLabel("To (included)").fill("2020-03-01");
  await custom.getByRole("button", { name: "Apply" }).click();
  await expect(custom.getByText("The end date must be on or after the start date.")).toBeVisible();
  await expect(custom.getByLabel("To (included)")).toHaveAttribute("aria-invalid", "true");

  await custom.getByLabel("From").fill("2020-03-01");
  await custom.getByLabel("To (included)").fill("2020-03-05");
  await custom.getByRole("button", { name: "Apply" }).click();
  await expect(page.locator("dt", { hasText: /^Revenue$/ }).locator("xpath=..")).toContainText("$55.00");
  await expect(count).toHaveText("4");
  await shot(page, "metrics-custom-chart");

  // The same data as a table: one row per day, zero days included.
  await page.getByRole("region", { name: "Revenue per day" }).getByRole("button", { name: "Table" }).click();
  const table = page.getByRole("table", { name: "Revenue per day" });
  await expect(table.getByRole("row")).toHaveCount(6);
  await expect(table.getByRole("row", { name: /Mar 2, 2020/ })).toContainText("$35.00");
  await expect(table.getByRole("row", { name: /Mar 2, 2020/ })).toContainText("2");
  await expect(table.getByRole("row", { name: /Mar 3, 2020/ })).toContainText("$0.00");
  await expect(table.getByRole("row", { name: /Mar 4, 2020/ })).toContainText("$10.00");
  await expect(table.getByRole("row", { name: /Mar 5, 2020/ })).toContainText("$10.00");
  await shot(page, "metrics-table");
});

test("says so when a range has no revenue", async ({ page }) => {
  await page.goto("/metrics");
  await page.getByRole("button", { name: "Custom" }).click();
  const custom = page.getByRole("form", { name: "Custom range" });
  await custom.getByLabel("From").fill("2019-01-01");
  await custom.getByLabel("To (included)").fill("2019-01-31");
  await custom.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No revenue in this range")).toBeVisible();
  await shot(page, "metrics-empty");
});

/** Applies the custom range 1-5 March 2020 (both included). */
async function march2020(page: import("@playwright/test").Page): Promise<void> {
  await page.getByRole("button", { name: "Custom" }).click();
  const custom = page.getByRole("form", { name: "Custom range" });
  await custom.getByLabel("From").fill("2020-03-01");
  await custom.getByLabel("To (included)").fill("2020-03-05");
  await custom.getByRole("button", { name: "Apply" }).click();
}

test("shows MRR with its movements, active subscribers and churn, with the API's numbers", async ({ page }) => {
  await page.goto("/metrics");
  await march2020(page);

  // The summary: MRR and active subscribers at the end of 5 March, as the API answers them.
  const api = await apiCall<{ timeseries: { amount: string }[] }>(
    page,
    "GET",
    "/api/metrics/monthly-recurring-revenue?from=2020-03-01&to=2020-03-06",
  );
  expect(api.timeseries.map((p) => p.amount)).toEqual(["0", "7163", "10163", "9000", "9000"]);
  const summary = page.locator("dt", { hasText: /^Monthly recurring revenue$/ }).locator("xpath=..");
  await expect(summary).toContainText("$90.00");
  await expect(
    page
      .locator("dt", { hasText: /^Active subscribers$/ })
      .first()
      .locator("xpath=.."),
  ).toContainText("1");

  const mrr = page.getByRole("region", { name: "Monthly recurring revenue" });
  await expect(mrr.getByRole("figure", { name: /Monthly recurring revenue per day/ })).toBeVisible();
  // Totals of the range: €10.00 a month is $11.63 at 0.86.
  await expect(mrr.locator("dt", { hasText: /^New$/ }).locator("xpath=..")).toContainText("$71.63");
  await expect(mrr.locator("dt", { hasText: /^Expansion$/ }).locator("xpath=..")).toContainText("$30.00");
  await expect(mrr.locator("dt", { hasText: /^Churn$/ }).locator("xpath=..")).toContainText("-$11.63");
  await shot(page, "metrics-mrr-chart");
  await mrr.getByRole("button", { name: "Table" }).click();
  const table = mrr.getByRole("table", { name: "Monthly recurring revenue per day" });
  await expect(table.getByRole("row")).toHaveCount(6);
  await expect(table.getByRole("row", { name: /Mar 2, 2020/ })).toContainText("$71.63");
  await expect(table.getByRole("row", { name: /Mar 3, 2020/ })).toContainText("$101.63");
  await expect(table.getByRole("row", { name: /Mar 4, 2020/ })).toContainText("$90.00");

  const subscribers = page.getByRole("region", { name: "Active subscribers" });
  await subscribers.getByRole("button", { name: "Table" }).click();
  const rows = subscribers.getByRole("table", { name: "Active subscribers per day" }).getByRole("row");
  await expect(rows.filter({ hasText: "Mar 3, 2020" })).toContainText("2");
  await expect(rows.filter({ hasText: "Mar 5, 2020" })).toContainText("1");

  const churn = page.getByRole("region", { name: "Churn rate" });
  await churn.getByRole("button", { name: "Table" }).click();
  await expect(
    churn.getByRole("table", { name: "Churn rate per day" }).getByRole("row", { name: /Mar 4, 2020/ }),
  ).toContainText("50.00%");
  await shot(page, "metrics-tables");

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "metrics-phone");
});
