/**
 * The API reference: GET /api/openapi.json answers the OpenAPI 3.1 document without a key, and
 * /docs/api renders it with Scalar's reference, served from this origin under the pages' CSP.
 */

import path from "node:path";
import { expect, test } from "@playwright/test";

test("GET /api/openapi.json answers the OpenAPI document without a key", async ({ request }) => {
  const res = await request.get("/api/openapi.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  const document = await res.json();
  expect(document.openapi).toBe("3.1.0");
  expect(document.paths["/customers"].get["x-permission"]).toBe("customer.read");
  expect(document.paths["/customers/{customer_id}"].patch.summary).toBe("Update a customer.");
});

test("/docs/api renders the interactive reference with no request leaving this origin", async ({ page, baseURL }) => {
  const foreign: string[] = [];
  const cspErrors: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith("http") && url.origin !== new URL(baseURL as string).origin) foreign.push(url.href);
  });
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
  });
  await page.goto("/docs/api");
  await expect(page).toHaveTitle(/API reference/);
  // The reference renders in the browser from the whole document: slow on a busy machine.
  await expect(page.getByRole("heading", { name: "Billing API" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("Download OpenAPI Document").first()).toBeVisible();
  await page.getByText("Customers", { exact: true }).first().click();
  await expect(page.getByText("Create a customer.").first()).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: path.join(import.meta.dirname, "..", "screenshots", "api-reference.png") });
  expect(cspErrors).toEqual([]);
  expect(foreign).toEqual([]);
});
