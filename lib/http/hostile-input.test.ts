/**
 * Hostile text and structure through real route handlers (issue #13): NUL, unpaired UTF-16
 * surrogates and deep nesting are refused by the route wrapper's one walk (lib/http/input-guard.ts)
 * with a field error naming the field, on every endpoint, before anything is written.
 */
import { describe, expect, it } from "vitest";
import * as businesses from "@/app/api/customers/[customer_id]/businesses/route";
import * as customers from "@/app/api/customers/route";
import * as products from "@/app/api/products/route";
import * as simulations from "@/app/api/simulations/route";
import { query } from "../db/sql.ts";
import { call, expectError, expectFieldError } from "../dev/test/api.ts";
import { admin } from "../dev/test/resource.ts";
import { DEPTH_MESSAGE, SURROGATE_MESSAGE } from "./input-guard.ts";

async function count(table: string, where = "TRUE", values: unknown[] = []): Promise<number> {
  const [row] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values);
  return row!.n;
}

describe("unpaired UTF-16 surrogates", () => {
  it("are refused in custom_data values and keys, naming the field", async () => {
    const key = await admin();
    for (const [custom_data, field] of [
      [{ note: "\udc00" }, "custom_data.note"],
      [{ note: "ok\ud800" }, "custom_data.note"],
      [{ list: ["a", "\ud800x"] }, "custom_data.list[1]"],
      [{ "k\udc00": 1 }, "custom_data.k\udc00"],
    ] as const) {
      const res = await call(customers.POST, "POST", "/customers", {
        key,
        body: { email: "sam@example.com", custom_data },
      });
      const error = expectFieldError(res, field);
      expect(error.errors).toEqual([{ field, message: SURROGATE_MESSAGE }]);
    }
    expect(await count("customers")).toBe(0);
  });

  it("are refused in plain text fields, which would otherwise store U+FFFD silently", async () => {
    const res = await call(products.POST, "POST", "/products", {
      key: await admin(),
      body: { name: "Plan \udc00", tax_category: "standard" },
    });
    expect(expectFieldError(res, "name").errors?.[0]?.message).toBe(SURROGATE_MESSAGE);
    expect(await count("products")).toBe(0);
  });

  it("are refused in a business's contacts", async () => {
    const key = await admin();
    const customer = await call(customers.POST, "POST", "/customers", { key, body: { email: "c@example.com" } });
    const customerId = customer.body.data.id as string;
    const res = await call(businesses.POST, "POST", `/customers/${customerId}/businesses`, {
      key,
      params: { customer_id: customerId },
      body: {
        name: "Acme",
        contacts: [
          { name: "Ann", email: "ann@example.com" },
          { name: "\ud800", email: "b@example.com" },
        ],
      },
    });
    expectFieldError(res, "contacts[1].name");
    expect(await count("businesses")).toBe(0);
  });

  it("a raw JSON escape in the body is read as the surrogate it encodes", async () => {
    const res = await call(customers.POST, "POST", "/customers", {
      key: await admin(),
      rawBody: '{"email":"raw@example.com","custom_data":{"x":"\\udc00"}}',
      headers: { "content-type": "application/json" },
    });
    expectFieldError(res, "custom_data.x");
    // An escaped pair is one character, and fine.
    const pair = await call(customers.POST, "POST", "/customers", {
      key: await admin(),
      rawBody: '{"email":"pair@example.com","custom_data":{"x":"\\ud83d\\ude00"}}',
      headers: { "content-type": "application/json" },
    });
    expect(pair.status).toBe(201);
    expect(pair.body.data.custom_data).toEqual({ x: "😀" });
  });

  it("NUL in a query string is refused naming the parameter", async () => {
    const res = await call(customers.GET, "GET", "/customers?email=a%00b", { key: await admin() });
    expectFieldError(res, "email");
  });
});

describe("nesting depth", () => {
  it("refuses custom_data nested 5,000 deep (a 30 KB body) with a field error, not a stack overflow", async () => {
    const depth = 5_000;
    const rawBody = `{"email":"deep@example.com","custom_data":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`;
    expect(rawBody.length).toBeLessThan(40_000);
    const res = await call(customers.POST, "POST", "/customers", {
      key: await admin(),
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(expectFieldError(res, "custom_data").errors).toEqual([{ field: "custom_data", message: DEPTH_MESSAGE }]);
    expect(await count("customers", "email = $1", ["deep@example.com"])).toBe(0);
  });

  it("refuses a simulation payload nested 5,000 deep", async () => {
    const depth = 5_000;
    const res = await call(simulations.POST, "POST", "/simulations", {
      key: await admin(),
      rawBody: `{"name":"deep","type":"customer.created","notification_setting_id":"ntfset_01h00000000000000000000000","payload":${"[".repeat(depth)}${"]".repeat(depth)}}`,
      headers: { "content-type": "application/json" },
    });
    expectFieldError(res, "payload");
  });

  it("accepts custom_data as deep as the limit allows", async () => {
    let custom: unknown = 1;
    for (let i = 0; i < 30; i++) custom = { a: custom };
    const res = await call(customers.POST, "POST", "/customers", {
      key: await admin(),
      body: { email: "ok@example.com", custom_data: custom },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.custom_data).toEqual(custom);
  });

  it("a body too deep for JSON.parse itself is a 400", async () => {
    const depth = 200_000;
    const res = await call(customers.POST, "POST", "/customers", {
      key: await admin(),
      rawBody: `{"custom_data":${"[".repeat(depth)}${"]".repeat(depth)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expectError(res, 400, res.body.error.code);
  });
});
