/**
 * Date-times at the edges (issue #13): every date-time field and filter uses common.ts `dateTime`,
 * which accepts exactly what PostgreSQL stores as the instant meant. Each value is either stored
 * and read back as that instant, or refused with a field error: never a 500.
 */
import { describe, expect, it } from "vitest";
import * as apiKeys from "@/app/api/api-keys/route";
import * as discounts from "@/app/api/discounts/route";
import * as revenue from "@/app/api/metrics/revenue/route";
import * as notifications from "@/app/api/notifications/route";
import * as transactionCollection from "@/app/api/transactions/route";
import { call, expectFieldError } from "../dev/test/api.ts";
import { admin } from "../dev/test/resource.ts";
import { makeBuyer, makeDiscount, makePrice, transactions } from "../dev/test/transactions.ts";
import { dateTimeProblem } from "./common.ts";

/** Refused by the schema, each with the message that says why. */
const REFUSED: [string, RegExp][] = [
  ["2030-01-01T00:00:00+23:00", /offset between -15:59 and \+15:59/],
  ["2030-01-01T00:00:00-16:00", /offset/],
  ["0001-01-01T00:00:00+01:00", /between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z/],
  ["0000-06-01T00:00:00Z", /between/],
  ["9999-12-31T23:59:59-00:01", /between/],
  ["9999-12-31T23:59:59.9999996Z", /between/],
  ["10000-01-01T00:00:00Z", /RFC 3339/],
  ["-0001-01-01T00:00:00Z", /RFC 3339/],
  ["275760-09-13T00:00:00Z", /RFC 3339/],
  ["2030-06-30T23:59:60Z", /RFC 3339/],
  ["2030-02-30T00:00:00Z", /RFC 3339/],
  ["2029-02-29T00:00:00Z", /RFC 3339/],
  ["2030-01-01T24:00:00Z", /RFC 3339/],
  [`2030-01-01T00:00:00.${"1".repeat(10)}Z`, /at most 9 digits/],
  [`2030-01-01T00:00:00.${"1".repeat(5_000)}Z`, /at most 9 digits/],
];

/** Accepted, with the instant PostgreSQL stores (UTC, microseconds). */
const ACCEPTED: [string, string][] = [
  ["2030-01-01T00:00:00+15:59", "2029-12-31T08:01:00.000000Z"],
  ["2030-01-01T00:00:00-15:59", "2030-01-01T15:59:00.000000Z"],
  ["9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999Z"],
  ["9999-12-31T23:59:59+01:00", "9999-12-31T22:59:59.000000Z"],
  ["2032-02-29T12:00:00Z", "2032-02-29T12:00:00.000000Z"],
  ["2030-01-01T00:00:00.123456789Z", "2030-01-01T00:00:00.123457Z"],
];

describe("dateTimeProblem", () => {
  it.each(REFUSED)("refuses %s", (value, message) => {
    expect(dateTimeProblem(value) ?? "must be an RFC 3339 date-time").toMatch(message);
  });

  it("takes the first and the last instant RFC 3339 can write", () => {
    expect(dateTimeProblem("0001-01-01T00:00:00Z")).toBeNull();
    expect(dateTimeProblem("0001-01-01T00:59:00+00:59")).toBeNull();
    expect(dateTimeProblem("9999-12-31T23:59:59.9999994Z")).toBeNull();
  });
});

describe("through the API", () => {
  it("discount expires_at: refused with its field, or stored as the instant meant", async () => {
    for (const [value, message] of REFUSED) {
      const res = await call(discounts.POST, "POST", "/discounts", {
        key: await admin(),
        body: { description: "x", type: "percentage", amount: "10", expires_at: value },
      });
      const error = expectFieldError(res, "expires_at");
      if (!/RFC 3339/.test(message.source)) expect(error.errors?.[0]?.message).toMatch(message);
    }
    for (const [value, stored] of ACCEPTED.slice(2)) {
      expect((await makeDiscount({ expires_at: value })).expires_at).toBe(stored);
    }
  });

  it("transaction billing_period: refused with its field, or stored as the instant meant", async () => {
    const price = await makePrice();
    const { customer, address } = await makeBuyer();
    const body = (starts_at: string, ends_at: string) => ({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      billing_period: { starts_at, ends_at },
    });
    for (const [value] of REFUSED) {
      const res = await transactions.create(body("2030-01-01T00:00:00Z", value));
      expectFieldError(res, "billing_period.ends_at");
    }
    const res = await transactions.create(body("0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z"));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.billing_period).toEqual({
      starts_at: "0001-01-01T00:00:00.000000Z",
      ends_at: "9999-12-31T23:59:59.999999Z",
    });
  });

  it("every date-time list filter and notifications from/to: refused with the parameter's name, or answered", async () => {
    const key = await admin();
    const filters: [typeof transactionCollection.GET, string, string][] = [
      [transactionCollection.GET, "/transactions", "created_at"],
      [transactionCollection.GET, "/transactions", "updated_at[LT]"],
      [transactionCollection.GET, "/transactions", "billed_at[GTE]"],
      [notifications.GET, "/notifications", "from"],
      [notifications.GET, "/notifications", "to"],
    ];
    for (const [handler, path, name] of filters) {
      for (const [value] of REFUSED) {
        const res = await call(handler, "GET", `${path}?${encodeURIComponent(name)}=${encodeURIComponent(value)}`, {
          key,
        });
        expectFieldError(res, name);
      }
      for (const [value] of ACCEPTED) {
        const res = await call(handler, "GET", `${path}?${encodeURIComponent(name)}=${encodeURIComponent(value)}`, {
          key,
        });
        expect(res.status, `${name}=${value}: ${JSON.stringify(res.body)}`).toBe(200);
      }
    }
  });

  it("API key expires_at: the same rules", async () => {
    const res = await call(apiKeys.POST, "POST", "/api-keys", {
      key: await admin(),
      body: { name: "k", permissions: ["customer.read"], expires_at: "2030-01-01T00:00:00+23:00" },
    });
    expectFieldError(res, "expires_at");
    const far = await call(apiKeys.POST, "POST", "/api-keys", {
      key: await admin(),
      body: { name: "k", permissions: ["customer.read"], expires_at: "9999-12-31T23:59:59Z" },
    });
    expect(far.status, JSON.stringify(far.body)).toBe(201);
  });

  it("metrics full-dates at the ends of the calendar: answered or refused, never a 500", async () => {
    const key = await admin();
    for (const [from, to, status] of [
      ["0001-01-01", "0001-01-31", 200],
      ["9999-12-01", "9999-12-31", 200],
      ["0000-01-01", "0000-01-31", 400],
      ["10000-01-01", "10000-01-02", 400],
      ["2030-02-29", "2030-03-01", 400],
    ] as const) {
      const res = await call(revenue.GET, "GET", `/metrics/revenue?from=${from}&to=${to}`, { key });
      expect(res.status, `${from}..${to}: ${JSON.stringify(res.body)}`).toBe(status);
    }
  });
});
