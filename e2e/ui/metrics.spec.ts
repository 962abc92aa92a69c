/**
 * The Metrics page: revenue chart, totals, range presets, a custom range and the table view.
 *
 * Completed transactions are seeded straight into the e2e database through `pg` on
 * process.env.DATABASE_URL (npm test points it at the e2e database the server uses): the API has
 * no way to complete a transaction without a payment, and the rollup's triggers see such rows
 * exactly as they see a payment's completion. Exact figures are checked on a custom range in March
 * 2020, which no other spec touches; the presets (relative to today) only need some revenue.
 */
import { expect, test } from "@playwright/test";
import pg from "pg";
import { shot, signIn } from "../helpers";

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

test.beforeAll(async () => {
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
  await page.getByRole("button", { name: "Table" }).click();
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
