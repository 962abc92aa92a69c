/**
 * Reports through the official Node SDK of the API family (reports.create, get, list,
 * getReportCsv), pointed at our base URL: the server's in-process worker generates the report,
 * and the link the SDK gets opens the CSV over HTTP with no API key.
 */

import type { Paddle } from "@paddle/paddle-node-sdk";
import { expect, test } from "@playwright/test";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";
import { sdk } from "./sdk-helpers";

async function waitReady(paddle: Paddle, id: string) {
  for (let i = 0; i < 100; i++) {
    const report = await paddle.reports.get(id);
    if (report.status !== "pending") return report;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`report ${id} still pending`);
}

test("the Node SDK creates, gets, lists and downloads a report", async () => {
  const paddle = sdk();
  const product = await paddle.products.create({ name: `SDK report product ${Date.now()}`, taxCategory: "standard" });
  await paddle.prices.create({
    productId: product.id,
    description: "=cmd|' /C calc'!A0",
    unitPrice: { amount: "1234", currencyCode: "EUR" },
  });

  const created = await paddle.reports.create({
    type: "products_prices",
    filters: [
      { name: "product_status", value: ["active"] },
      { name: "price_updated_at", operator: "gte", value: new Date(Date.now() - 3_600_000).toISOString() },
    ],
  });
  expect(created.id).toMatch(/^rep_[a-z0-9]{26}$/);
  expect(created.type).toBe("products_prices");
  expect(created.rows).toBeNull();
  expect(created.filters.map((f) => [f.name, f.operator])).toEqual([
    ["product_status", null],
    ["price_updated_at", "gte"],
  ]);

  const ready = await waitReady(paddle, created.id);
  expect(ready.status).toBe("ready");
  expect(ready.rows).toBeGreaterThanOrEqual(1);
  expect(ready.expiresAt).not.toBeNull();

  const listed: string[] = [];
  for await (const report of paddle.reports.list({ status: ["ready"], perPage: 50 })) {
    expect(report.status).toBe("ready");
    listed.push(report.id);
    if (listed.length > 500) break;
  }
  expect(listed).toContain(created.id);

  const csv = await paddle.reports.getReportCsv(created.id);
  expect(csv.url).toMatch(new RegExp(`^${baseURL}/api/documents/reports/${created.id}\\?`));
  const response = await fetch(csv.url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  const text = await response.text();
  const [header, ...rows] = text.split("\r\n").filter(Boolean);
  expect(header!.split(",").slice(0, 3)).toEqual(["product_id", "product_name", "product_description"]);
  const row = rows.find((r) => r.startsWith(`${product.id},`));
  expect(row).toBeDefined();
  // The formula is neutralised with a leading quote; the amount stays a number.
  expect(row).toContain(`'=cmd|' /C calc'!A0`);
  // The amount in minor units, then in the currency (lib/services/reports/decimals.ts), then the currency.
  expect(row).toContain(",1234,12.34,EUR,");

  const tampered = await fetch(csv.url.replace(/signature=[0-9a-f]/, "signature=x"));
  expect(tampered.status).toBe(403);
  expect((await tampered.json()).error.code).toBe("document_link_invalid");
});

test("the Node SDK gets the report errors: empty, invalid filters, not found and forbidden", async () => {
  const paddle = sdk();
  const empty = await paddle.reports.create({
    type: "transactions",
    filters: [{ name: "updated_at", operator: "lt", value: "1990-01-01" }],
  });
  const done = await waitReady(paddle, empty.id);
  expect(done.rows).toBe(0);
  await expect(paddle.reports.getReportCsv(empty.id)).rejects.toMatchObject({ code: "report_empty" });

  await expect(
    paddle.reports.create({ type: "transactions", filters: [{ name: "type", operator: null, value: "flat" }] }),
  ).rejects.toMatchObject({ code: "invalid_field" });
  await expect(paddle.reports.get("rep_00000000000000000000000000")).rejects.toMatchObject({ code: "not_found" });

  const reader = sdk(cliApiKey(["report.read"]));
  expect((await reader.reports.get(empty.id)).id).toBe(empty.id);
  await expect(reader.reports.create({ type: "balance" })).rejects.toMatchObject({ code: "forbidden" });
});
