/**
 * The catalogue, customers and transactions that transaction tests build on, made through the real
 * route handlers with the admin key.
 */
import { expect } from "vitest";
import * as addressCollection from "@/app/api/customers/[customer_id]/addresses/route";
import * as businessCollection from "@/app/api/customers/[customer_id]/businesses/route";
import * as customerCollection from "@/app/api/customers/route";
import * as discountCollection from "@/app/api/discounts/route";
import * as priceItem from "@/app/api/prices/[price_id]/route";
import * as priceCollection from "@/app/api/prices/route";
import * as productItem from "@/app/api/products/[product_id]/route";
import * as productCollection from "@/app/api/products/route";
import * as transactionItem from "@/app/api/transactions/[transaction_id]/route";
import * as transactionCollection from "@/app/api/transactions/route";
import { type ApiResult, call } from "./api.ts";
import { admin, resource } from "./resource.ts";

export const transactions = resource("/transactions", "transaction_id", transactionCollection, transactionItem);

type Body = Record<string, unknown>;
type Entity = Record<string, any>;

function created(res: ApiResult, what: string): Entity {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data;
}

let seq = 0;
function unique(): string {
  seq += 1;
  return `${Date.now().toString(36)}${seq}`;
}

export async function makeProduct(body: Body = {}): Promise<Entity> {
  const res = await call(productCollection.POST, "POST", "/products", {
    key: await admin(),
    body: { name: "Product", tax_category: "standard", ...body },
  });
  return created(res, "product");
}

/** A price: by default a one-time USD 10.00 price, tax-exclusive, of a new product. */
export async function makePrice(body: Body = {}): Promise<Entity> {
  const productId = (body.product_id as string | undefined) ?? (await makeProduct()).id;
  const res = await call(priceCollection.POST, "POST", "/prices", {
    key: await admin(),
    body: {
      description: "Price",
      unit_price: { amount: "1000", currency_code: "USD" },
      tax_mode: "external",
      ...body,
      product_id: productId,
    },
  });
  return created(res, "price");
}

export async function archivePrice(id: string): Promise<void> {
  const res = await call(priceItem.PATCH, "PATCH", `/prices/${id}`, {
    key: await admin(),
    body: { status: "archived" },
    params: { price_id: id },
  });
  expect(res.status).toBe(200);
}

export async function archiveProduct(id: string): Promise<void> {
  const res = await call(productItem.PATCH, "PATCH", `/products/${id}`, {
    key: await admin(),
    body: { status: "archived" },
    params: { product_id: id },
  });
  expect(res.status).toBe(200);
}

/** A customer with a name (unless `name: null`). */
export async function makeCustomer(body: Body = {}): Promise<Entity> {
  const res = await call(customerCollection.POST, "POST", "/customers", {
    key: await admin(),
    body: { email: `buyer-${unique()}@example.com`, name: "Sam Buyer", ...body },
  });
  return created(res, "customer");
}

/** An address of `customerId`: in the US (no tax by default) unless told otherwise. */
export async function makeAddress(customerId: string, body: Body = {}): Promise<Entity> {
  const res = await call(addressCollection.POST, "POST", `/customers/${customerId}/addresses`, {
    key: await admin(),
    body: { country_code: "US", postal_code: "10001", ...body },
    params: { customer_id: customerId },
  });
  return created(res, "address");
}

export async function makeBusiness(customerId: string, body: Body = {}): Promise<Entity> {
  const res = await call(businessCollection.POST, "POST", `/customers/${customerId}/businesses`, {
    key: await admin(),
    body: { name: "Acme Ltd", ...body },
    params: { customer_id: customerId },
  });
  return created(res, "business");
}

export async function makeDiscount(body: Body = {}): Promise<Entity> {
  const res = await call(discountCollection.POST, "POST", "/discounts", {
    key: await admin(),
    body: { description: "Ten percent", type: "percentage", amount: "10", enabled_for_checkout: false, ...body },
  });
  return created(res, "discount");
}

/** A customer with an address (in `country`, US by default). */
export async function makeBuyer(country = "US", customer: Body = {}): Promise<{ customer: Entity; address: Entity }> {
  const c = await makeCustomer(customer);
  const postal = country === "US" ? "10001" : country === "GB" ? "SW1A 1AA" : "10115";
  const a = await makeAddress(c.id, { country_code: country, postal_code: postal });
  return { customer: c, address: a };
}

export const MANUAL_TERMS = { payment_terms: { interval: "day", frequency: 30 } };

/** Creates a transaction: 201 expected. */
export async function makeTransaction(body: Body, query = ""): Promise<Entity> {
  const res = await call(transactionCollection.POST, "POST", `/transactions${query}`, {
    key: await admin(),
    body,
  });
  return created(res, "transaction");
}

/** A ready transaction: a new buyer in `country` and one item of a new USD 10.00 price. */
export async function makeReady(body: Body = {}, country = "US"): Promise<Entity> {
  const { customer, address } = await makeBuyer(country);
  const price = await makePrice();
  const txn = await makeTransaction({
    items: [{ price_id: price.id, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
    ...body,
  });
  expect(txn.status).toBe("ready");
  return txn;
}
