/**
 * The account-wide lists the dashboard's search uses (ours), through the real route handlers:
 *   GET /businesses (every customer's businesses; `search` by name, company number, tax ID)
 *   GET /payment-methods (every customer's saved methods; `last4`)
 */
import { describe, expect, it } from "vitest";
import * as paymentMethods from "@/app/api/payment-methods/route";
import { sqlTransaction } from "@/lib/db/sql";
import { type ApiResult, call, errorFields, expectError } from "@/lib/dev/test/api";
import { expectForbidden, expectMethodsNotAllowed } from "@/lib/dev/test/checks";
import { admin, ids, type Key, keyOf } from "@/lib/dev/test/resource";
import { createAddress } from "@/lib/services/addresses";
import { createBusiness } from "@/lib/services/businesses";
import { createCustomer } from "@/lib/services/customers";
import { saveProcessorMethod } from "@/lib/services/payment-methods";
import * as businesses from "./route";

function listBusinesses(queryString: string, key?: Key): Promise<ApiResult> {
  return keyOf(key).then((k) => call(businesses.GET, "GET", `/businesses${queryString}`, { key: k }));
}

function listMethods(queryString: string, key?: Key): Promise<ApiResult> {
  return keyOf(key).then((k) => call(paymentMethods.GET, "GET", `/payment-methods${queryString}`, { key: k }));
}

/** A customer with a business named `name` and a saved card ending `last4`. */
async function customerWith(
  name: string,
  last4: string,
): Promise<{ customerId: string; businessId: string; methodId: string }> {
  const customer = (await createCustomer({ email: `${crypto.randomUUID()}@example.com` })).parse();
  const address = (await createAddress(customer.id, { country_code: "US", postal_code: "10001" })).parse();
  const business = (await createBusiness(customer.id, { name })).parse();
  const methodId = await sqlTransaction((client) =>
    saveProcessorMethod(client, {
      customerId: customer.id,
      addressId: address.id,
      card: { type: "visa", last4, expiry_month: 12, expiry_year: 2031, cardholder_name: "" },
      processor: "stripe",
      processorAccount: "acct_test",
      reference: `pm_${crypto.randomUUID()}`,
    }),
  );
  return { customerId: customer.id, businessId: business.id as string, methodId };
}

describe("GET /businesses (ours)", () => {
  it("finds businesses of any customer by name, with their customer", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const a = await customerWith(`Becker Design ${tag}`, "1111");
    const b = await customerWith(`Lumen ${tag} Studio`, "2222");
    const res = await listBusinesses(`?search=${tag}`);
    expect(res.status).toBe(200);
    expect(ids(res).sort()).toEqual([a.businessId, b.businessId].sort());
    const found = res.body.data.find((row: { id: string }) => row.id === a.businessId);
    expect(found).toMatchObject({ customer_id: a.customerId, name: `Becker Design ${tag}` });
    expect(ids(await listBusinesses(`?search=${tag}&per_page=1`))).toHaveLength(1);
  });

  it("validates its query; needs business.read", async () => {
    const res = await listBusinesses(`?search=${"x".repeat(101)}`);
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["search"]);
    await expectForbidden((key) => listBusinesses("", key), [["customer.read"]], "business.read");
    expectError(await listBusinesses("", null), 401, "invalid_token");
  });

  it("hostile search terms never give a 5xx", async () => {
    // Already encoded: a lone surrogate and a bad UTF-8 byte as a browser could send them.
    for (const term of ["%25", "_", "%5C", "%00", "%ED%A0%80", "%FF", "'%20OR%201=1%20--"]) {
      const res = await listBusinesses(`?search=${term}`);
      expect(res.status, term).toBeLessThan(500);
    }
  });
});

describe("GET /payment-methods (ours)", () => {
  it("finds saved methods of any customer by a card's last 4", async () => {
    const last4 = String(Math.floor(1000 + Math.random() * 9000));
    const a = await customerWith("A", last4);
    const res = await listMethods(`?last4=${last4}`, await admin());
    expect(res.status).toBe(200);
    expect(ids(res)).toContain(a.methodId);
    for (const row of res.body.data) expect(row.card.last4).toBe(last4);
  });

  it("last4 is four digits; needs payment_method.read", async () => {
    for (const bad of ["123", "12345", "abcd", "12 4"]) {
      const res = await listMethods(`?last4=${encodeURIComponent(bad)}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["last4"]);
    }
    await expectForbidden((key) => listMethods("?last4=4242", key), [["customer.read"]], "payment_method.read");
  });

  it("answers 405 for the methods these lists do not have", async () => {
    await expectMethodsNotAllowed(businesses, ["POST", "PUT", "PATCH", "DELETE"], "/businesses");
    await expectMethodsNotAllowed(paymentMethods, ["POST", "PUT", "PATCH", "DELETE"], "/payment-methods");
  });
});
