/**
 * Reports (decision: report-types-and-filters): POST /reports, GET /reports, GET /reports/{report_id},
 * GET /reports/{report_id}/download-url and the signed CSV link, through the real route handlers on
 * a real PostgreSQL; generation is the worker's job function, called directly.
 */
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import * as adjustmentsRoute from "@/app/api/adjustments/route";
import * as reportLink from "@/app/api/documents/reports/[report_id]/route";
import { pool } from "@/lib/db/connection";
import { completeByPayment } from "@/lib/dev/test/adjustments";
import { call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { withTamperedSignature } from "@/lib/dev/test/documents";
import { admin } from "@/lib/dev/test/resource";
import { makeDiscount, makePrice, makeProduct, makeReady } from "@/lib/dev/test/transactions";
import { reportSchema } from "@/lib/schemas/report";
import { documentUrl } from "@/lib/services/documents";
import { expireReports } from "@/lib/services/reports/expire";
import { generateReport, runReportJob } from "@/lib/services/reports/generate";
import * as downloadUrl from "./[report_id]/download-url/route";
import * as item from "./[report_id]/route";
import * as collection from "./route";

type Body = Record<string, unknown>;

async function create(body: Body, key?: string) {
  return call(collection.POST, "POST", "/reports", { key: key ?? (await admin()), body });
}

async function list(query = "", key?: string) {
  return call(collection.GET, "GET", `/reports${query}`, { key: key ?? (await admin()) });
}

async function get(id: string, key?: string) {
  return call(item.GET, "GET", `/reports/${id}`, { key: key ?? (await admin()), params: { report_id: id } });
}

async function linkOf(id: string, key?: string) {
  return call(downloadUrl.GET, "GET", `/reports/${id}/download-url`, {
    key: key ?? (await admin()),
    params: { report_id: id },
  });
}

interface Opened {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Opens a signed link as a browser would (no key). */
async function open(url: string): Promise<Opened> {
  const parsed = new URL(url);
  const id = decodeURIComponent(parsed.pathname.split("/").at(-1) ?? "");
  const request = new Request(`http://localhost:3000${parsed.pathname}${parsed.search}`);
  const response = await reportLink.GET(request, { params: Promise.resolve({ report_id: id }) });
  const text = await response.text();
  const isCsv = response.headers.get("content-type")?.startsWith("text/csv");
  return { status: response.status, headers: response.headers, text, body: isCsv ? null : JSON.parse(text) };
}

/** Creates a report, generates it (the worker's job) and returns it as the API shows it. */
async function ready(body: Body): Promise<any> {
  const res = await create(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const result = await generateReport(res.body.data.id);
  expect(result.status).toBe("ready");
  return (await get(res.body.data.id)).body.data;
}

/** The CSV of a ready report, through download-url and the signed link. */
async function csvOf(id: string): Promise<string> {
  const link = await linkOf(id);
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  const opened = await open(link.body.data.url);
  expect(opened.status, opened.text).toBe(200);
  return opened.text;
}

function lines(csv: string): string[] {
  return csv.split("\r\n").filter((l) => l !== "");
}

const RANGE_2031 = [
  { name: "updated_at", operator: "gte", value: "2031-03-01" },
  { name: "updated_at", operator: "lt", value: "2031-03-02" },
];

describe("POST /reports", () => {
  it("creates a pending report with the default filter, its report.created event and its job", async () => {
    const before = Date.now();
    const res = await create({ type: "transactions" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const data = res.body.data;
    expect(Object.keys(data)).toEqual([
      "id",
      "type",
      "status",
      "rows",
      "filters",
      "expires_at",
      "updated_at",
      "created_at",
    ]);
    expect(data.id).toMatch(/^rep_[a-z0-9]{26}$/);
    reportSchema.strict().parse(data);
    expect(data).toMatchObject({ type: "transactions", status: "pending", rows: null, expires_at: null });
    expect(data.filters).toHaveLength(1);
    expect(data.filters[0]).toMatchObject({ name: "updated_at", operator: "gte" });
    const since = Date.parse(data.filters[0].value);
    expect(Math.abs(before - since - 30 * 86_400_000)).toBeLessThan(15_000);
    const rows = await events(data.id);
    expect(rows.map((e) => e.eventType)).toEqual(["report.created"]);
    expect(rows[0]!.data).toEqual(data);
    const { rows: jobs } = await pool().query(
      `SELECT count(*)::int AS n, max(j.max_attempts) AS max FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       WHERE t.identifier = 'generate_report' AND j.payload->>'id' = $1`,
      [data.id],
    );
    expect(jobs[0]).toEqual({ n: 1, max: 3 });
  });

  it("keeps the filters sent (operator null for non-date filters) and adds no default when a date filter is sent", async () => {
    const res = await create({
      type: "transactions",
      filters: [
        { name: "collection_mode", value: ["manual"] },
        { name: "status", operator: null, value: "completed" },
        ...RANGE_2031,
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.filters).toEqual([
      { name: "collection_mode", operator: null, value: ["manual"] },
      { name: "status", operator: null, value: "completed" },
      { name: "updated_at", operator: "gte", value: "2031-03-01" },
      { name: "updated_at", operator: "lt", value: "2031-03-02" },
    ]);
  });

  it("puts the default on price_updated_at for products_prices", async () => {
    const res = await create({ type: "products_prices", filters: [{ name: "price_status", value: "active" }] });
    expect(res.status).toBe(201);
    expect(res.body.data.filters.map((f: any) => `${f.name}:${f.operator}`)).toEqual([
      "price_status:null",
      "price_updated_at:gte",
    ]);
  });

  it("accepts every type with each of its filters", async () => {
    const cases: [string, Body[]][] = [
      [
        "transactions",
        [
          { name: "origin", value: ["api", "web"] },
          { name: "currency_code", value: "EUR" },
        ],
      ],
      ["transaction_line_items", [{ name: "status", value: ["billed", "past_due"] }]],
      [
        "adjustments",
        [
          { name: "action", value: "refund" },
          { name: "status", value: "approved" },
        ],
      ],
      ["adjustment_line_items", [{ name: "currency_code", value: ["USD", "JPY"] }]],
      [
        "products_prices",
        [
          { name: "product_status", value: "archived" },
          { name: "product_type", value: "custom" },
          { name: "price_type", value: "standard" },
          { name: "product_updated_at", operator: "lt", value: "2030-01-01T00:00:00Z" },
        ],
      ],
      [
        "discounts",
        [
          { name: "type", value: "flat_per_seat" },
          { name: "status", value: ["expired", "used"] },
        ],
      ],
      ["balance", [{ name: "updated_at", operator: "gte", value: "2020-01-01" }]],
    ];
    for (const [type, filters] of cases) {
      const res = await create({ type, filters });
      expect(res.status, `${type}: ${JSON.stringify(res.body)}`).toBe(201);
    }
  });

  it("refuses a bad type, and types this service does not offer", async () => {
    expectFieldError(await create({ type: "payout_reconciliation" }), "type");
    expectFieldError(await create({ type: "checkouts" }), "type");
    expectFieldError(await create({ type: 1 }), "type");
    expectFieldError(await create({}), "type");
    expectFieldError(await create({ type: "transactions", extra: 1 }), "extra");
  });

  it("allows at most 10 filters (ANDed, so a name may repeat)", async () => {
    const ten = [
      ...RANGE_2031,
      { name: "updated_at", operator: "gte", value: "2031-02-01" },
      { name: "status", value: ["paid", "completed"] },
      { name: "status", value: "completed" },
      { name: "origin", value: "api" },
      { name: "currency_code", value: "USD" },
      { name: "collection_mode", value: "automatic" },
      { name: "collection_mode", value: ["automatic", "manual"] },
      { name: "origin", value: ["api", "web"] },
    ];
    const res = await create({ type: "transactions", filters: ten });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.filters).toHaveLength(10);
    expectFieldError(
      await create({ type: "transactions", filters: [...ten, { name: "status", value: "paid" }] }),
      "filters",
    );
  });

  it("checks each filter's name, operator and value", async () => {
    const bad: [Body, string][] = [
      [{ name: "type", value: "flat" }, "filters[0].name"],
      [{ name: "product_status", value: "active" }, "filters[0].name"],
      [{ name: "status", operator: "lt", value: "paid" }, "filters[0].operator"],
      [{ name: "status", operator: "eq", value: "paid" }, "filters[0].operator"],
      [{ name: "updated_at", value: "2030-01-01" }, "filters[0].operator"],
      [{ name: "updated_at", operator: null, value: "2030-01-01" }, "filters[0].operator"],
      [{ name: "updated_at", operator: "gte", value: "yesterday" }, "filters[0].value"],
      [{ name: "updated_at", operator: "gte", value: "2030-02-30" }, "filters[0].value"],
      [{ name: "updated_at", operator: "gte", value: ["2030-01-01"] }, "filters[0].value"],
      [{ name: "status", value: "shipped" }, "filters[0].value"],
      [{ name: "status", value: ["paid", "shipped"] }, "filters[0].value[1]"],
      [{ name: "status", value: [] }, "filters[0].value"],
      [{ name: "status", value: 5 }, "filters[0].value"],
      [{ name: "currency_code", value: "usd" }, "filters[0].value"],
      [{ name: "status", value: Array.from({ length: 101 }, () => "paid") }, "filters[0].value"],
      [{ name: "status" }, "filters[0].value"],
      [{ value: "paid" }, "filters[0].name"],
      [{ name: "status", value: "paid", extra: true }, "filters[0].extra"],
    ];
    for (const [filter, field] of bad) {
      const res = await create({ type: "transactions", filters: [filter] });
      expectFieldError(res, field);
    }
    expectFieldError(await create({ type: "transactions", filters: "status" }), "filters");
    expectFieldError(await create({ type: "transactions", filters: [null] }), "filters[0]");
  });

  it("bounds the length of names and values", async () => {
    const long = await create({ type: "transactions", filters: [{ name: "status", value: "x".repeat(201) }] });
    expect(expectFieldError(long, "filters[0].value").errors?.[0]?.message).toBe("must be at most 200 characters");
    const longName = await create({ type: "transactions", filters: [{ name: "n".repeat(101), value: "x" }] });
    expect(expectFieldError(longName, "filters[0].name").errors?.[0]?.message).toBe("must be at most 100 characters");
    const hundred = Array.from({ length: 100 }, () => "paid");
    expect((await create({ type: "transactions", filters: [{ name: "status", value: hundred }] })).status).toBe(201);
  });

  it("refuses a date range that selects nothing", async () => {
    expectFieldError(
      await create({
        type: "transactions",
        filters: [
          { name: "updated_at", operator: "gte", value: "2030-02-01" },
          { name: "updated_at", operator: "lt", value: "2030-02-01T00:00:00Z" },
        ],
      }),
      "filters[1].value",
    );
    expectFieldError(
      await create({
        type: "transactions",
        filters: [
          { name: "updated_at", operator: "lt", value: "2030-03-01" },
          { name: "updated_at", operator: "gte", value: "2030-01-01" },
          { name: "updated_at", operator: "lt", value: "2029-12-01" },
        ],
      }),
      "filters[2].value",
    );
  });

  it("takes filters: null as no filters", async () => {
    const res = await create({ type: "discounts", filters: null });
    expect(res.status).toBe(201);
    expect(res.body.data.filters.map((f: any) => f.name)).toEqual(["updated_at"]);
  });

  it("needs report.write", async () => {
    await expectPermission((key) => create({ type: "balance" }, key), {
      permission: "report.write",
      denied: [["report.read"], permissionsWithout("report.")],
      status: 201,
    });
  });
});

describe("GET /reports and GET /reports/{report_id}", () => {
  it("gets a report, and 404s an unknown or malformed ID", async () => {
    const made = (await create({ type: "balance" })).body.data;
    const res = await get(made.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(made);
    expectNotFound(await get("rep_00000000000000000000000000"), "rep_00000000000000000000000000");
    expectNotFound(await get("txn_00000000000000000000000000"));
    expectNotFound(await get("rep_'; DROP TABLE reports; --"));
  });

  it("lists pending and ready reports by default, others by status, paginated", async () => {
    const pending = (await create({ type: "balance" })).body.data;
    const done = await ready({ type: "balance" });
    const failed = (await create({ type: "balance" })).body.data;
    await pool().query("UPDATE reports SET status = 'failed' WHERE id = $1", [failed.id]);

    const all = (await list("?per_page=200")).body.data.map((r: any) => r.id);
    expect(all).toContain(pending.id);
    expect(all).toContain(done.id);
    expect(all).not.toContain(failed.id);
    const onlyFailed = await list("?status=failed");
    expect(onlyFailed.body.data.map((r: any) => r.id)).toContain(failed.id);
    expect(onlyFailed.body.data.every((r: any) => r.status === "failed")).toBe(true);

    const page = await list("?per_page=1&order_by=id[DESC]");
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta.pagination.has_more).toBe(true);
    expectFieldError(await list("?status=done"), "status[0]");
    expectFieldError(await list("?order_by=type[ASC]"), "order_by");
  });

  it("needs report.read", async () => {
    const made = (await create({ type: "balance" })).body.data;
    const denied = [permissionsWithout("report.")];
    await expectPermission((key) => list("", key), { permission: "report.read", denied });
    await expectPermission((key) => get(made.id, key), { permission: "report.read", denied });
    await expectPermission((key) => linkOf(made.id, key), { permission: "report.read", denied, status: 400 });
    expectError(await call(collection.GET, "GET", "/reports", { key: null }), 401, "invalid_token");
  });

  it("has no other methods", async () => {
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/reports");
    const id = "rep_00000000000000000000000000";
    await expectMethodsNotAllowed(item, ["PUT", "POST", "PATCH", "DELETE"], `/reports/${id}`, { report_id: id });
    await expectMethodsNotAllowed(downloadUrl, ["PUT", "POST", "PATCH", "DELETE"], `/reports/${id}/download-url`, {
      report_id: id,
    });
  });
});

/** A customer and a completed transaction written whole, with fixed IDs and times (2031-03-01). */
async function insertFixture(): Promise<void> {
  await pool().query(
    `INSERT INTO customers (id, email, name, created_at, updated_at)
     VALUES ('ctm_01rpfx00000000000000000001', 'ann@example.com', '=HYPERLINK("http://x"), Ann', now(), now())
     ON CONFLICT DO NOTHING`,
  );
  const totals = {
    subtotal: "1000",
    discount: "0",
    tax: "200",
    total: "1200",
    credit: "0",
    credit_to_balance: "0",
    balance: "0",
    grand_total: "1200",
    grand_total_tax: "200",
    fee: "110",
    earnings: "890",
    currency_code: "USD",
  };
  const details = {
    tax_rates_used: [],
    totals,
    line_items: [
      {
        id: "txnitm_01rpfx00000000000000000001",
        price_id: "pri_01rpfx00000000000000000001",
        quantity: 2,
        tax_rate: "0.2",
        unit_totals: { subtotal: "500", discount: "0", tax: "100", total: "600" },
        totals: { subtotal: "1000", discount: "0", tax: "200", total: "1200" },
        product: { id: "pro_01rpfx00000000000000000001", name: 'Pro "plan", yearly' },
      },
    ],
    payout_totals: { total: "1200", fee: "110", earnings: "890", currency_code: "USD", exchange_rate: "1" },
  };
  await pool().query(
    `INSERT INTO transactions (id, status, customer_id, currency_code, origin, collection_mode, invoice_number,
                               details, created_at, updated_at, completed_at)
     VALUES ('txn_01rpfx00000000000000000001', 'completed', 'ctm_01rpfx00000000000000000001', 'USD', 'api',
             'automatic', '-1+2', $1::json, '2031-03-01T10:00:00Z', '2031-03-01T10:00:00.5Z', '2031-03-01T10:00:00.5Z')
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(details)],
  );
}

describe("generation (the worker's job)", () => {
  it("writes the exact CSV of a small fixture: RFC 4180 quoting, formula cells neutralised, numbers kept", async () => {
    await insertFixture();
    const report = await ready({ type: "transactions", filters: RANGE_2031 });
    expect(report.status).toBe("ready");
    reportSchema.strict().parse(report);
    expect(report.rows).toBe(1);
    const expires = Date.parse(report.expires_at) - Date.parse(report.updated_at);
    expect(Math.abs(expires - 14 * 86_400_000)).toBeLessThan(5000);
    const csv = await csvOf(report.id);
    expect(csv).toBe(
      [
        "id,status,invoice_id,invoice_number,customer_id,customer_name,customer_email,address_id,address_country_code," +
          "address_region,address_city,address_postal_code,business_id,business_name,business_tax_identifier," +
          "subscription_id,discount_id,price_ids,origin,collection_mode,currency_code,billing_period_starts_at," +
          "billing_period_ends_at,subtotal,subtotal_decimal,discount,discount_decimal,tax,tax_decimal,total,total_decimal," +
          "credit,credit_decimal,credit_to_balance,credit_to_balance_decimal,balance,balance_decimal," +
          "grand_total,grand_total_decimal,fee,fee_decimal,earnings,earnings_decimal," +
          "balance_currency_code,balance_total,balance_total_decimal,balance_fee,balance_fee_decimal," +
          "balance_earnings,balance_earnings_decimal,exchange_rate,created_at,updated_at," +
          "billed_at,completed_at,revised_at",
        "txn_01rpfx00000000000000000001,completed,,'-1+2,ctm_01rpfx00000000000000000001," +
          `"'=HYPERLINK(""http://x""), Ann",ann@example.com,,,,,,,,,,,,api,automatic,USD,,,` +
          "1000,10.00,0,0.00,200,2.00,1200,12.00,0,0.00,0,0.00,0,0.00,1200,12.00,110,1.10,890,8.90," +
          "USD,1200,12.00,110,1.10,890,8.90,1," +
          "2031-03-01T10:00:00.000000Z,2031-03-01T10:00:00.500000Z,,2031-03-01T10:00:00.500000Z,",
        "",
      ].join("\r\n"),
    );
    // Line items of the same transaction: one row per line, the product name quoted.
    const items = await ready({ type: "transaction_line_items", filters: RANGE_2031 });
    expect(items.rows).toBe(1);
    const [header, row] = lines(await csvOf(items.id));
    const cells = Object.fromEntries(header!.split(",").map((name, i) => [name, i]));
    expect(row).toContain('"Pro ""plan"", yearly"');
    const plain = row!.replace('"Pro ""plan"", yearly"', "PRODUCT").replace(`"'=HYPERLINK(""http://x""), Ann"`, "NAME");
    const values = plain.split(",");
    expect(values[cells.line_item_id!]).toBe("txnitm_01rpfx00000000000000000001");
    expect(values[cells.quantity!]).toBe("2");
    expect(values[cells.unit_total!]).toBe("600");
    expect(values[cells.unit_total_decimal!]).toBe("6.00");
    expect(values[cells.total!]).toBe("1200");
    expect(values[cells.total_decimal!]).toBe("12.00");
    expect(values[cells.product_name!]).toBe("PRODUCT");
    // Balance over that day: one USD row.
    const balance = await ready({ type: "balance", filters: RANGE_2031 });
    expect(lines(await csvOf(balance.id))).toEqual([
      "currency_code,transactions,transactions_total,transactions_total_decimal,transactions_tax,transactions_tax_decimal," +
        "transactions_fee,transactions_fee_decimal,transactions_earnings,transactions_earnings_decimal,adjustments," +
        "adjustments_total,adjustments_total_decimal,adjustments_earnings,adjustments_earnings_decimal,balance,balance_decimal",
      "USD,1,1200,12.00,200,2.00,110,1.10,890,8.90,0,0,0.00,0,0.00,890,8.90",
    ]);
    // The filters select: another status, another currency, or a day later match nothing.
    for (const filter of [
      { name: "status", value: "billed" },
      { name: "currency_code", value: ["EUR", "GBP"] },
      { name: "origin", value: "web" },
    ]) {
      const none = await ready({ type: "transactions", filters: [...RANGE_2031, filter] });
      expect(none.rows, JSON.stringify(filter)).toBe(0);
    }
    const both = await ready({
      type: "transactions",
      filters: [...RANGE_2031, { name: "status", value: ["billed", "completed"] }],
    });
    expect(both.rows).toBe(1);
    const late = await ready({
      type: "transactions",
      filters: [
        { name: "updated_at", operator: "gte", value: "2031-03-01T10:00:00.500001Z" },
        { name: "updated_at", operator: "lt", value: "2031-03-02" },
      ],
    });
    expect(late.rows).toBe(0);
  });

  it("marks the report ready with report.updated, and skips a report no longer pending", async () => {
    const made = (await create({ type: "balance" })).body.data;
    expect((await generateReport(made.id)).status).toBe("ready");
    expect((await generateReport(made.id)).status).toBe("skipped");
    const rows = await events(made.id);
    expect(rows.map((e) => e.eventType)).toEqual(["report.created", "report.updated"]);
    expect((rows[1]!.data as any).status).toBe("ready");
  });

  it("exports every type from entities made through the API", async () => {
    const key = await admin();
    const product = await makeProduct({ name: "Report product" });
    const price = await makePrice({ product_id: product.id, description: "@SUM(1)" });
    const discount = await makeDiscount({ description: "+cmd" });
    const txn = await makeReady();
    await completeByPayment(txn.id);
    const refund = await call(adjustmentsRoute.POST, "POST", "/adjustments", {
      key,
      body: { action: "refund", transaction_id: txn.id, reason: "-damaged, sorry", type: "full" },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);

    const expectations: [string, string, string][] = [
      ["transactions", "id", txn.id],
      ["transaction_line_items", "transaction_id", txn.id],
      ["adjustments", "id", refund.body.data.id],
      ["adjustment_line_items", "adjustment_id", refund.body.data.id],
      ["products_prices", "product_id", product.id],
      ["discounts", "id", discount.id],
    ];
    for (const [type, column, id] of expectations) {
      const report = await ready({ type });
      expect(report.rows, type).toBeGreaterThan(0);
      const [header, ...rows] = lines(await csvOf(report.id));
      expect(header!.split(",")[0], type).toBe(column);
      expect(
        rows.some((r) => r.startsWith(`${id},`)) &&
          (type !== "products_prices" || rows.some((r) => r.includes(price.id))),
        `${type} has ${id}`,
      ).toBe(true);
    }
    const adjustments = lines(await csvOf((await ready({ type: "adjustments" })).id)).join("\n");
    expect(adjustments).toContain(`"'-damaged, sorry"`);
    const prices = lines(await csvOf((await ready({ type: "products_prices" })).id)).join("\n");
    expect(prices).toContain("'@SUM(1)");
    const discounts = lines(await csvOf((await ready({ type: "discounts" })).id)).join("\n");
    expect(discounts).toContain("'+cmd");
    const balance = lines(await csvOf((await ready({ type: "balance" })).id));
    expect(balance[0]!.startsWith("currency_code,")).toBe(true);
    expect(balance.some((r) => r.startsWith("USD,"))).toBe(true);
  });

  it("streams a report over many FETCH batches and stores it in gzip chunks that concatenate to the CSV", async () => {
    await pool().query(
      `INSERT INTO transactions (id, status, currency_code, details, created_at, updated_at)
       SELECT 'txn_02rpbulk' || lpad(g::text, 18, '0'), 'draft', 'EUR',
              json_build_object('totals', json_build_object('total', g::text)), '2032-06-01', '2032-06-01'
       FROM generate_series(1, 4500) g`,
    );
    const report = await ready({
      type: "transactions",
      filters: [
        { name: "updated_at", operator: "gte", value: "2032-06-01" },
        { name: "updated_at", operator: "lt", value: "2032-06-02" },
      ],
    });
    expect(report.rows).toBe(4500);
    const { rows } = await pool().query<{ data: Buffer }>(
      "SELECT data FROM report_chunks WHERE report_id = $1 ORDER BY seq",
      [report.id],
    );
    const stored = gunzipSync(Buffer.concat(rows.map((r) => r.data))).toString();
    const csv = await csvOf(report.id);
    expect(csv).toBe(stored);
    const all = lines(csv);
    expect(all).toHaveLength(4501);
    // Sorted by updated_at then id.
    expect(all[1]!.startsWith("txn_02rpbulk000000000000000001,")).toBe(true);
    expect(all[4500]!.startsWith("txn_02rpbulk000000000000004500,")).toBe(true);
  });

  it("lets the queue retry a failing generation, and marks the report failed on the last attempt", async () => {
    const made = (await create({ type: "transactions" })).body.data;
    // A stored filter PostgreSQL cannot read (written past the API's validation) fails the query.
    await pool().query(
      `UPDATE reports SET filters = '[{"name":"updated_at","operator":"gte","value":"not a date"}]' WHERE id = $1`,
      [made.id],
    );
    await expect(runReportJob(made.id, 1, 3)).rejects.toThrow();
    expect((await get(made.id)).body.data.status).toBe("pending");
    expect(await chunkCount(made.id)).toBe(0);
    await runReportJob(made.id, 3, 3);
    expect((await get(made.id)).body.data.status).toBe("failed");
    const rows = await events(made.id);
    expect(rows.map((e) => e.eventType)).toEqual(["report.created", "report.updated"]);
  });
});

async function chunkCount(id: string): Promise<number> {
  const { rows } = await pool().query("SELECT count(*)::int AS n FROM report_chunks WHERE report_id = $1", [id]);
  return rows[0].n;
}

describe("GET /reports/{report_id}/download-url and the signed link", () => {
  it("gives a 3-minute link to the CSV, served as a private attachment", async () => {
    await insertFixture();
    const report = await ready({ type: "transactions", filters: RANGE_2031 });
    const before = Math.floor(Date.now() / 1000);
    const res = await linkOf(report.id, await testKey(["report.read"]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(["url"]);
    const url = new URL(res.body.data.url);
    expect(url.pathname).toBe(`/api/documents/reports/${report.id}`);
    const expires = Number(url.searchParams.get("expires"));
    expect(expires - before).toBeGreaterThanOrEqual(180);
    expect(expires - before).toBeLessThanOrEqual(182);
    const opened = await open(url.toString());
    expect(opened.status).toBe(200);
    expect(opened.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(opened.headers.get("content-disposition")).toBe(`attachment; filename="transactions-${report.id}.csv"`);
    expect(opened.headers.get("cache-control")).toBe("private, no-store");
    expect(Number(opened.headers.get("content-length"))).toBe(Buffer.byteLength(opened.text));
  });

  it("refuses a tampered link (403), a link past its 3 minutes (410), and a link to another report", async () => {
    await insertFixture();
    const report = await ready({ type: "transactions", filters: RANGE_2031 });
    const url = new URL((await linkOf(report.id)).body.data.url);
    expectOpenError(await open(withTamperedSignature(url).toString()), 403, "document_link_invalid");
    const stale = await documentUrl("report", report.id, "attachment", Date.now() - 181_000, 180);
    expectOpenError(await open(stale.url), 410, "document_link_expired");
    // An invoice link's signature does not open a report of the same ID, nor does another report's.
    const other = await ready({ type: "transactions", filters: RANGE_2031 });
    const moved = new URL(url);
    moved.pathname = `/api/documents/reports/${other.id}`;
    expectOpenError(await open(moved.toString()), 403, "document_link_invalid");
    const bare = new URL(url);
    bare.search = "";
    expectOpenError(await open(bare.toString()), 403, "document_link_invalid");
    for (const junk of ["?expires=abc&signature=zz&disposition=attachment", "?expires=99999999999999999999"]) {
      bare.search = junk;
      expectOpenError(await open(bare.toString()), 403, "document_link_invalid");
    }
  });

  it("answers 400 report_not_ready, report_failed, report_expired and report_empty", async () => {
    await insertFixture();
    const pending = (await create({ type: "balance" })).body.data;
    expectError(await linkOf(pending.id), 400, "report_not_ready");

    const failed = (await create({ type: "balance" })).body.data;
    await pool().query("UPDATE reports SET status = 'failed' WHERE id = $1", [failed.id]);
    expectError(await linkOf(failed.id), 400, "report_failed");

    const empty = await ready({
      type: "transactions",
      filters: [{ name: "updated_at", operator: "lt", value: "1990-01-01" }],
    });
    expect(empty.rows).toBe(0);
    expectError(await linkOf(empty.id), 400, "report_empty");

    const expired = await ready({ type: "transactions", filters: RANGE_2031 });
    const url = (await linkOf(expired.id)).body.data.url;
    // Past expires_at: expired at once, before the cron has run; the link made before is refused too.
    await pool().query("UPDATE reports SET expires_at = now() - interval '1 second' WHERE id = $1", [expired.id]);
    expectError(await linkOf(expired.id), 400, "report_expired");
    expectOpenError(await open(url), 400, "report_expired");

    expectNotFound(await linkOf("rep_00000000000000000000000000"));
  });

  it("the expiry cron marks ready reports past expires_at expired, deletes their files, and gives up stuck ones", async () => {
    await insertFixture();
    const old = await ready({ type: "transactions", filters: RANGE_2031 });
    const fresh = await ready({ type: "transactions", filters: RANGE_2031 });
    const stuck = (await create({ type: "balance" })).body.data;
    expect(await chunkCount(old.id)).toBeGreaterThan(0);
    await pool().query("UPDATE reports SET expires_at = now() - interval '1 minute' WHERE id = $1", [old.id]);
    await pool().query("UPDATE reports SET created_at = now() - interval '7 hours' WHERE id = $1", [stuck.id]);
    const result = await expireReports();
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect((await get(old.id)).body.data.status).toBe("expired");
    expect(await chunkCount(old.id)).toBe(0);
    expect((await get(fresh.id)).body.data.status).toBe("ready");
    expect(await chunkCount(fresh.id)).toBeGreaterThan(0);
    expect((await get(stuck.id)).body.data.status).toBe("failed");
    expectError(await linkOf(old.id), 400, "report_expired");
    const oldEvents = await events(old.id);
    expect(oldEvents.map((e) => e.eventType)).toEqual(["report.created", "report.updated", "report.updated"]);
    expect((oldEvents[2]!.data as any).status).toBe("expired");
  });

  it("the signed link needs no key, and has no other methods", async () => {
    const id = "rep_00000000000000000000000000";
    await expectMethodsNotAllowed(reportLink, ["PUT", "POST", "PATCH", "DELETE"], `/documents/reports/${id}`, {
      report_id: id,
    });
  });
});

function expectOpenError(opened: Opened, status: number, code: string): void {
  expect(opened.status, opened.text).toBe(status);
  expect(opened.body.error.code).toBe(code);
}

describe("hostile input", () => {
  it("never answers 5xx", async () => {
    const bodies: unknown[] = [
      { type: "transactions", filters: [{ name: "updated_at", operator: "gte", value: "0000-01-01" }] },
      { type: "transactions", filters: [{ name: "updated_at", operator: "lt", value: "2030-01-01T00:00:00+99:00" }] },
      { type: "transactions", filters: [{ name: "\u0000", value: "\ud800" }] },
      { type: "transactions", filters: [{ name: "status", value: "x".repeat(100_000) }] },
      { type: "transactions", filters: [{ name: "__proto__", value: "a" }] },
      { type: "transactions", filters: [{ name: "status", value: [null] }] },
      { type: "transactions", filters: [{ name: "status", value: { a: 1 } }] },
      { type: ["transactions"] },
      { type: "transactions", filters: Array.from({ length: 1000 }, () => ({})) },
    ];
    for (const body of bodies) {
      const res = await create(body as Body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBeLessThan(500);
      expect(res.status).not.toBe(201);
    }
    const ok = await create({
      type: "transactions",
      filters: [{ name: "updated_at", operator: "gte", value: "9999-12-31" }],
    });
    expect(ok.status).toBe(201);
    expect((await generateReport(ok.body.data.id)).status).toBe("ready");
  });
});

describe("the worker", () => {
  it("generates a created report in the background, and the report.updated event follows", async () => {
    const { startWorker } = await import("@/lib/worker/worker");
    const made = (await create({ type: "balance" })).body.data;
    const worker = await startWorker({ concurrency: 2 });
    try {
      const deadline = Date.now() + 20_000;
      let status = "pending";
      while (status === "pending" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await get(made.id)).body.data.status;
      }
      expect(status).toBe("ready");
    } finally {
      await worker.stop();
    }
    const rows = await events(made.id);
    expect(rows.map((e) => e.eventType)).toEqual(["report.created", "report.updated"]);
  });
});
