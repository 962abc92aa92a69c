/**
 * Demo data for a new deployment: `npm run --silent cli -- seed`: customers, a catalogue and
 * transactions (payments over the last two months, invoices, a refund). Idempotent: what already
 * exists (a customer's email, a product's name, the demo transactions) is left as it is, so running
 * it twice adds nothing.
 * Goes through the services, so the demo data has its events like any other change.
 */

import { config } from "../config.ts";
import { db } from "../db/connection.ts";
import { query, queryOne } from "../db/sql.ts";
import type { CreateAddressInput } from "../schemas/address.ts";
import { createAdjustmentBody } from "../schemas/adjustment.ts";
import type { CreateBusinessInput } from "../schemas/business.ts";
import { createDiscountBody } from "../schemas/discount.ts";
import { createPriceBody } from "../schemas/price.ts";
import { createProductBody } from "../schemas/product.ts";
import { createTransactionBody, updateTransactionBody } from "../schemas/transaction.ts";
import { createAddress } from "./addresses.ts";
import { createAdjustment } from "./adjustments/create.ts";
import { createBusiness } from "./businesses.ts";
import { createCustomer } from "./customers.ts";
import { createDiscount } from "./discounts.ts";
import { payAtCheckout } from "./payments/checkout.ts";
import { markPaid } from "./payments/mark-paid.ts";
import { createPrice } from "./prices.ts";
import { createProduct } from "./products.ts";
import { createTransaction } from "./transactions/create.ts";
import { updateTransaction } from "./transactions/update.ts";

interface DemoCustomer {
  email: string;
  name: string;
  locale?: string;
  custom_data?: Record<string, unknown>;
  addresses: CreateAddressInput[];
  business?: CreateBusinessInput;
}

const DEMO: DemoCustomer[] = [
  {
    email: "sam.miller@example.com",
    name: "Sam Miller",
    custom_data: { crm_id: "CRM-1001" },
    addresses: [
      { country_code: "US", first_line: "3811 Ditmars Blvd", city: "Astoria", region: "NY", postal_code: "11105" },
    ],
  },
  {
    email: "jo.brown@example.co.uk",
    name: "Jo Brown",
    locale: "en-GB",
    addresses: [{ country_code: "GB", first_line: "12 Old Street", city: "London", postal_code: "EC1V 9BE" }],
    business: {
      name: "ChatApp Ltd",
      company_number: "09876543",
      tax_identifier: "GB123456789",
      contacts: [{ name: "Parker Jones", email: "parker@chatapp.example" }],
    },
  },
  {
    email: "lena.schmidt@example.de",
    name: "Lena Schmidt",
    locale: "de",
    addresses: [{ country_code: "DE", first_line: "Torstraße 1", city: "Berlin", postal_code: "10119" }],
    business: { name: "Schmidt Analytics GmbH", tax_identifier: "DE123456789", contacts: [] },
  },
  {
    email: "camille.martin@example.fr",
    name: "Camille Martin",
    locale: "fr",
    addresses: [{ country_code: "FR", first_line: "8 Rue de Rivoli", city: "Paris", postal_code: "75004" }],
  },
  {
    email: "haruto.sato@example.jp",
    name: "Haruto Sato",
    locale: "ja",
    addresses: [{ country_code: "JP", city: "Tokyo", postal_code: "100-0005" }],
  },
  {
    email: "olivia.wilson@example.com.au",
    name: "Olivia Wilson",
    locale: "en-AU",
    addresses: [
      { country_code: "AU", first_line: "1 Martin Place", city: "Sydney", region: "NSW", postal_code: "2000" },
    ],
    business: {
      name: "Wilson & Co Pty Ltd",
      company_number: "ABN 51 824 753 556",
      contacts: [{ name: "Olivia Wilson", email: "olivia.wilson@example.com.au" }],
    },
  },
  {
    email: "diego.alvarez@example.es",
    name: "Diego Álvarez",
    locale: "es",
    addresses: [{ country_code: "ES", first_line: "Calle de Alcalá 50", city: "Madrid", postal_code: "28014" }],
  },
  {
    email: "priya.patel@example.in",
    name: "Priya Patel",
    locale: "en-IN",
    addresses: [{ country_code: "IN", city: "Bengaluru", region: "Karnataka", postal_code: "560001" }],
  },
];

interface DemoProduct {
  name: string;
  description: string;
  tax_category: string;
  prices: Record<string, unknown>[];
}

const MONTH = { interval: "month", frequency: 1 };
const YEAR = { interval: "year", frequency: 1 };

const CATALOGUE: DemoProduct[] = [
  {
    name: "AeroEdit Student",
    description: "Essential tools for student pilots to manage flight logs, analyze performance, and plan routes.",
    tax_category: "standard",
    prices: [
      {
        description: "Monthly (per seat)",
        name: "Monthly",
        billing_cycle: MONTH,
        unit_price: { amount: "800", currency_code: "USD" },
      },
      {
        description: "Annual (per seat)",
        name: "Annual",
        billing_cycle: YEAR,
        trial_period: { interval: "day", frequency: 14 },
        unit_price: { amount: "8000", currency_code: "USD" },
        unit_price_overrides: [
          { country_codes: ["DE", "FR", "ES"], unit_price: { amount: "7500", currency_code: "EUR" } },
        ],
      },
    ],
  },
  {
    name: "AeroEdit Pro",
    description: "Advanced tools for professional pilots, flight instructors and aviation businesses.",
    tax_category: "saas",
    prices: [
      {
        description: "Monthly (per seat)",
        name: "Monthly",
        billing_cycle: MONTH,
        unit_price: { amount: "3000", currency_code: "USD" },
        quantity: { minimum: 1, maximum: 999 },
      },
      {
        description: "Annual (per seat), Japan",
        name: "Annual",
        billing_cycle: YEAR,
        unit_price: { amount: "45000", currency_code: "JPY" },
      },
    ],
  },
  {
    name: "Onboarding session",
    description: "A one-hour remote onboarding session with a product specialist.",
    tax_category: "professional-services",
    prices: [
      {
        description: "One-time onboarding",
        name: "Onboarding",
        billing_cycle: null,
        unit_price: { amount: "19900", currency_code: "USD" },
      },
    ],
  },
];

async function seedCatalogue(): Promise<number> {
  let created = 0;
  for (const demo of CATALOGUE) {
    if ((await query("SELECT 1 FROM products WHERE name = $1", [demo.name])).length > 0) continue;
    const product = (
      await createProduct(
        createProductBody.parse({ name: demo.name, description: demo.description, tax_category: demo.tax_category }),
      )
    ).parse();
    for (const price of demo.prices) await createPrice(createPriceBody.parse({ ...price, product_id: product.id }));
    created++;
  }
  if ((await query("SELECT 1 FROM discounts WHERE lower(code) = 'welcome10'")).length === 0) {
    await createDiscount(
      createDiscountBody.parse({
        description: "10% off the first three months for new customers",
        type: "percentage",
        amount: "10",
        code: "WELCOME10",
        enabled_for_checkout: true,
        recur: true,
        maximum_recurring_intervals: 3,
        usage_limit: 1000,
      }),
    );
  }
  return created;
}

/** The seed's transactions carry this in custom_data: they are found again, and not added twice. */
const DEMO_MARK = { demo: true };
const DEMO_DAYS = 60;

/**
 * Demo transactions for the customers with an address: card payments spread over the last
 * DEMO_DAYS days (completed through the payments flow, then dated back so the revenue chart has a
 * history: the rollup is rebuilt for that), an issued invoice, a paid invoice and a partial refund.
 */
async function seedTransactions(): Promise<number> {
  // Demo payments are sandbox test-card payments: a live deployment gets no demo transactions.
  if (config.environment !== "sandbox") return 0;
  if ((await query("SELECT 1 FROM transactions WHERE custom_data @> $1::jsonb LIMIT 1", [DEMO_MARK])).length > 0) {
    return 0;
  }
  const buyers = await query<{ customer_id: string; address_id: string; country_code: string }>(
    `SELECT DISTINCT ON (c.id) c.id AS customer_id, a.id AS address_id, a.country_code
       FROM customers c JOIN addresses a ON a.customer_id = c.id
      WHERE c.email = ANY($1) ORDER BY c.id, a.id`,
    [DEMO.map((d) => d.email)],
  );
  const prices = await query<{ id: string }>(
    `SELECT p.id FROM prices p JOIN products r ON r.id = p.product_id
      WHERE r.name = ANY($1) AND p.status = 'active' AND p.unit_price_currency = 'USD' ORDER BY p.id`,
    [CATALOGUE.map((c) => c.name)],
  );
  if (buyers.length === 0 || prices.length === 0) return 0;
  const create = async (i: number, body: Record<string, unknown>) => {
    const buyer = buyers[i % buyers.length];
    const price = prices[i % prices.length];
    if (!buyer || !price) throw new Error("the demo needs a buyer and a price");
    const input = createTransactionBody.parse({
      items: [{ price_id: price.id, quantity: 1 + (i % 3) }],
      customer_id: buyer.customer_id,
      address_id: buyer.address_id,
      currency_code: "USD",
      custom_data: DEMO_MARK,
      ...body,
    });
    return (await createTransaction(input)).parse();
  };
  const card = { cardholder_name: "Demo Buyer", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" };
  let count = 0;
  for (let i = 0; i < 30; i++) {
    const t = await create(i, {});
    await payAtCheckout(t.id, card);
    const daysAgo = Math.floor(((30 - i) * DEMO_DAYS) / 30);
    await query(
      `UPDATE transactions SET completed_at = now() - make_interval(days => $2), billed_at = now() - make_interval(days => $2),
              created_at = now() - make_interval(days => $2) WHERE id = $1`,
      [t.id, daysAgo],
    );
    count++;
  }
  // The rollups counted these on today; rebuilt, they count them on the days written above.
  await query("SELECT revenue_daily_rebuild()");
  await query("SELECT checkout_metrics_rebuild()");
  const terms = { payment_terms: { interval: "day", frequency: 30 } };
  const issued = await create(1, { collection_mode: "manual", billing_details: terms });
  await updateTransaction(issued.id, updateTransactionBody.parse({ status: "billed" }));
  const paid = await create(2, { collection_mode: "manual", billing_details: terms });
  await updateTransaction(paid.id, updateTransactionBody.parse({ status: "billed" }));
  await markPaid(paid.id, { method: "wire_transfer", reference: "DEMO-WIRE-1" });
  const refunded = await create(3, {});
  const completed = (await payAtCheckout(refunded.id, card)).transaction_id;
  const line = await queryOne<{ id: string }>(
    "SELECT id FROM transaction_items WHERE transaction_id = $1 ORDER BY position LIMIT 1",
    [completed],
  );
  if (!line) throw new Error(`the demo transaction ${completed} has no item to refund`);
  await createAdjustment(
    createAdjustmentBody.parse({
      action: "refund",
      transaction_id: completed,
      reason: "Customer asked for a partial refund",
      type: "partial",
      items: [{ item_id: line.id, type: "partial", amount: "500" }],
    }),
  );
  // Every metric's rollup as its rows say (the subscription one also catches up any subscription
  // written without its triggers).
  await query("SELECT subscription_metrics_rebuild()");
  await query("SELECT adjustment_metrics_rebuild()");
  return count + 3;
}

export async function seed(): Promise<string> {
  let created = 0;
  for (const demo of DEMO) {
    const exists = await db().customer.findFirst({
      where: { email: { equals: demo.email, mode: "insensitive" } },
      select: { id: true },
    });
    if (exists) continue;
    const customer = (
      await createCustomer({
        email: demo.email,
        name: demo.name,
        locale: demo.locale,
        custom_data: demo.custom_data,
      })
    ).parse();
    for (const address of demo.addresses) await createAddress(customer.id, address);
    if (demo.business) await createBusiness(customer.id, demo.business);
    created++;
  }
  const products = await seedCatalogue();
  const transactions = await seedTransactions();
  return created === 0 && products === 0 && transactions === 0
    ? "The demo data is already there: nothing added."
    : `Added ${created} demo customer(s) with their addresses and businesses, ${products} product(s) with their prices, and ${transactions} transaction(s).`;
}
