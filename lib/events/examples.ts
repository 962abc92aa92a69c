/**
 * Realistic example entities for simulated events (webhook simulator): one per entity kind of the
 * event catalogue, shaped exactly like the entity our API returns (customers, addresses, businesses,
 * products, prices, discounts, discount groups, API keys) or, for the kinds we do not store yet
 * (transactions, subscriptions, payment methods, adjustments, client-side tokens, payouts,
 * reports), like the API family's entity. Static, as in the API family: the same example every
 * time, with IDs of the right shape that name nothing in the account.
 *
 * Transactions and subscriptions move through states in a scenario, so they are built by
 * functions of a `Cast` (the customer, address, business, discount, payment method and items
 * taking part) and a state, so that every payload of a run tells one consistent story.
 *
 * Client-safe: no Node or database imports (the schemas of lib/schemas/simulation.ts import the
 * scenario catalogue, which imports this module).
 */

import type { Address } from "../schemas/address.ts";
import type { ApiKey } from "../schemas/api-key.ts";
import type { Business } from "../schemas/business.ts";
import type { Customer } from "../schemas/customer.ts";
import type { Discount } from "../schemas/discount.ts";
import type { DiscountGroup } from "../schemas/discount-group.ts";
import type { Price } from "../schemas/price.ts";
import type { Product } from "../schemas/product.ts";

export type Json = Record<string, unknown>;

/** Fixed IDs of the examples: right prefix and shape, never an entity of the account. */
export const EXAMPLE_IDS = {
  customer: "ctm_01j82g1vg0n5hm89hzq11t6hae",
  address: "add_01j82g1wf80c13fd1v736yzfh0",
  business: "biz_01j82g1xegn7v3dy6szcn7x501",
  product: "pro_01j82g1ydrx17jj2vwypy8bswa",
  price: "pri_01j82g1zd030mfzr8rj8e888sh",
  discount: "dsc_01j82g20c85wh5d75k2kwe6k5m",
  discountRevision: "dscrev_01j82g21bgftj9mv5nma3n7s5k",
  discountGroup: "dsg_01j82g22aredp9nrr4e0ra54k4",
  transaction: "txn_01j82g23a0w5dp6pfaatae5cvg",
  transactionItem: "txnitm_01j82g2498r3g92b31f5046487",
  subscription: "sub_01j82g258g6vt5yq795krgmskq",
  adjustment: "adj_01j82g267rn1583znytfq1a7f5",
  adjustmentItem: "adjitm_01j82g277013xdf1fhgj1bs5x8",
  clientToken: "ctkn_01j82g2868211ccb2wb79xpm36",
  apiKey: "apikey_01j82g295gjzn1mxpf7qycmsat",
  paymentMethod: "paymtd_01j82g2a4rgsh3qrrjvwkbc104",
  report: "rep_01j82g2b40fnamp0gx2wgt73y1",
  // Payouts are identified by a bare ULID in the API family.
  payout: "01j82g2c38qn87t0mpqtqv2ec1",
} as const;

/** When the example story starts: the customer signs up at this moment. */
export const EXAMPLE_START = "2024-09-18T12:00:00.000000Z";

/** The tax rate of example totals (a flat 20%, as a string like the API family's `tax_rate`). */
export const EXAMPLE_TAX_RATE = "0.2";

// ---------------------------------------------------------------------------------------------
// Time

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function parse(iso: string): Date {
  return new Date(iso.replace(/\.(\d{3})\d*Z$/, ".$1Z"));
}

/** RFC 3339 with microseconds, as every timestamp of the API. */
function format(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

export interface Duration {
  interval: "day" | "week" | "month" | "year";
  frequency: number;
}

/** `iso` plus `times` × `duration`, by the calendar: 31 January plus a month is 28/29 February. */
export function addDuration(iso: string, duration: Duration, times = 1): string {
  const date = parse(iso);
  const n = duration.frequency * times;
  if (duration.interval === "day" || duration.interval === "week") {
    const days = duration.interval === "week" ? n * 7 : n;
    return format(new Date(date.getTime() + days * 86_400_000));
  }
  const months = duration.interval === "year" ? n * 12 : n;
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return format(
    new Date(
      Date.UTC(
        year,
        month,
        day,
        date.getUTCHours(),
        date.getUTCMinutes(),
        date.getUTCSeconds(),
        date.getUTCMilliseconds(),
      ),
    ),
  );
}

/** `iso` plus `minutes` (for the moments between the steps of a scenario). */
export function later(iso: string, minutes: number): string {
  return format(new Date(parse(iso).getTime() + minutes * 60_000));
}

/** `base` with its last two characters replaced by the index `i` in base32 (line item IDs). */
function indexedId(base: string, i: number): string {
  if (i === 0) return base;
  return `${base.slice(0, -2)}${ALPHABET[Math.floor(i / 32) % 32]}${ALPHABET[i % 32]}`;
}

// ---------------------------------------------------------------------------------------------
// Entities we store: exactly our API's shape (the types hold the fields; the order is the API's)

const T0 = EXAMPLE_START;

export function exampleCustomer(): Customer {
  return {
    id: EXAMPLE_IDS.customer,
    name: "Sam Miller",
    email: "sam@example.com",
    marketing_consent: false,
    status: "active",
    custom_data: null,
    locale: "en",
    created_at: T0,
    updated_at: T0,
    import_meta: null,
  };
}

export function exampleAddress(customerId: string = EXAMPLE_IDS.customer): Address {
  return {
    id: EXAMPLE_IDS.address,
    customer_id: customerId,
    description: "Head Office",
    first_line: "4050 Jefferson Plaza, 41st Floor",
    second_line: null,
    city: "New York",
    postal_code: "10021",
    region: "NY",
    country_code: "US",
    custom_data: null,
    status: "active",
    created_at: T0,
    updated_at: T0,
    import_meta: null,
  };
}

export function exampleBusiness(customerId: string = EXAMPLE_IDS.customer): Business {
  return {
    id: EXAMPLE_IDS.business,
    customer_id: customerId,
    name: "Uplift Inc.",
    company_number: "555775291485",
    tax_identifier: "US123456789",
    status: "active",
    contacts: [{ name: "Parker Jones", email: "parker@example.com" }],
    created_at: T0,
    updated_at: T0,
    custom_data: null,
    import_meta: null,
  };
}

export function exampleProduct(): Product {
  return {
    id: EXAMPLE_IDS.product,
    name: "Analytics Pro",
    description: "Dashboards, alerts and exports for growing teams.",
    type: "standard",
    tax_category: "standard",
    image_url: "https://example.com/images/analytics-pro.png",
    custom_data: null,
    status: "active",
    import_meta: null,
    created_at: T0,
    updated_at: T0,
  };
}

export function examplePrice(): Price {
  return {
    id: EXAMPLE_IDS.price,
    product_id: EXAMPLE_IDS.product,
    type: "standard",
    description: "Monthly, per seat",
    name: "Monthly",
    tax_mode: "account_setting",
    billing_cycle: { interval: "month", frequency: 1 },
    trial_period: null,
    unit_price: { amount: "3000", currency_code: "USD" },
    unit_price_overrides: [],
    custom_data: null,
    status: "active",
    quantity: { minimum: 1, maximum: 100 },
    import_meta: null,
    created_at: T0,
    updated_at: T0,
  };
}

export function exampleDiscount(): Discount {
  return {
    id: EXAMPLE_IDS.discount,
    status: "active",
    description: "Spring sale: 20% off the first three months",
    enabled_for_checkout: true,
    code: "SPRING20",
    type: "percentage",
    mode: "standard",
    amount: "20",
    currency_code: null,
    recur: true,
    maximum_recurring_intervals: 3,
    usage_limit: null,
    restrict_to: null,
    expires_at: null,
    times_used: 0,
    discount_group_id: null,
    custom_data: null,
    import_meta: null,
    created_at: T0,
    updated_at: T0,
    revision_id: EXAMPLE_IDS.discountRevision,
  };
}

export function exampleDiscountGroup(): DiscountGroup {
  return {
    id: EXAMPLE_IDS.discountGroup,
    name: "Seasonal sales",
    status: "active",
    import_meta: null,
    created_at: T0,
    updated_at: T0,
  };
}

export function exampleApiKey(): ApiKey {
  return {
    id: EXAMPLE_IDS.apiKey,
    name: "Backend integration",
    description: "Used by the order service to create transactions.",
    key: "svc_apikey_sdbx_…k3Xq",
    status: "active",
    permissions: ["customer.read", "customer.write", "transaction.read", "transaction.write"],
    expires_at: "2025-09-18T12:00:00.000000Z",
    last_used_at: null,
    revoked_at: null,
    created_at: T0,
    updated_at: T0,
  };
}

// ---------------------------------------------------------------------------------------------
// Kinds we do not store yet: the API family's entity shape

export function exampleClientToken(): Json {
  return {
    id: EXAMPLE_IDS.clientToken,
    token: "test_7d279f61a3499fed520f7cd8c08",
    name: "Pricing page",
    description: "Opens checkouts from the marketing site.",
    status: "active",
    revoked_at: null,
    created_at: T0,
    updated_at: T0,
  };
}

/** A saved payment method as payment method events carry it. */
export function examplePaymentMethod(
  customerId: string = EXAMPLE_IDS.customer,
  addressId: string = EXAMPLE_IDS.address,
  id: string = EXAMPLE_IDS.paymentMethod,
): Json {
  return {
    id,
    customer_id: customerId,
    address_id: addressId,
    type: "card",
    origin: "saved_during_purchase",
    saved_at: T0,
    updated_at: T0,
  };
}

export function examplePayout(): Json {
  return { id: EXAMPLE_IDS.payout, status: "paid", amount: "10000", currency_code: "USD" };
}

export function exampleReport(): Json {
  return {
    id: EXAMPLE_IDS.report,
    status: "ready",
    rows: 42,
    type: "transactions",
    filters: [{ name: "updated_at", operator: "lt", value: "2024-09-01T00:00:00.000000Z" }],
    expires_at: "2024-10-02T12:00:00.000000Z",
    created_at: T0,
    updated_at: T0,
  };
}

export function exampleAdjustment(): Json {
  return {
    id: EXAMPLE_IDS.adjustment,
    action: "refund",
    type: "partial",
    transaction_id: EXAMPLE_IDS.transaction,
    subscription_id: EXAMPLE_IDS.subscription,
    customer_id: EXAMPLE_IDS.customer,
    reason: "Customer was charged for an extra seat by mistake.",
    credit_applied_to_balance: null,
    currency_code: "USD",
    status: "approved",
    items: [
      {
        id: EXAMPLE_IDS.adjustmentItem,
        item_id: EXAMPLE_IDS.transactionItem,
        type: "partial",
        amount: "3000",
        proration: null,
        totals: { subtotal: "3000", tax: "600", total: "3600" },
      },
    ],
    totals: {
      subtotal: "3000",
      tax: "600",
      total: "3600",
      fee: "180",
      retained_fee: "0",
      earnings: "2820",
      currency_code: "USD",
    },
    payout_totals: {
      subtotal: "3000",
      tax: "600",
      total: "3600",
      fee: "180",
      retained_fee: "0",
      chargeback_fee: { amount: "0", original: null },
      earnings: "2820",
      currency_code: "USD",
    },
    tax_rates_used: [{ tax_rate: EXAMPLE_TAX_RATE, totals: { subtotal: "3000", tax: "600", total: "3600" } }],
    created_at: T0,
    updated_at: T0,
  };
}

// ---------------------------------------------------------------------------------------------
// Transactions and subscriptions of a story

export interface LineItem {
  price: Json;
  product: Json;
  quantity: number;
}

/** Who and what takes part in a simulated story. */
export interface Cast {
  customer: Json;
  address: Json;
  business: Json | null;
  discount: Json | null;
  paymentMethod: Json;
  items: LineItem[];
  transactionId: string;
  subscriptionId: string;
}

/** The example cast: every entity an example, one item of the example monthly price. */
export function exampleCast(): Cast {
  return {
    customer: exampleCustomer(),
    address: exampleAddress(),
    business: exampleBusiness(),
    discount: exampleDiscount(),
    paymentMethod: examplePaymentMethod(),
    items: [{ price: examplePrice(), product: exampleProduct(), quantity: 2 }],
    transactionId: EXAMPLE_IDS.transaction,
    subscriptionId: EXAMPLE_IDS.subscription,
  };
}

interface Money {
  amount: string;
  currency_code: string;
}

function unitPrice(item: LineItem): Money {
  return item.price.unit_price as Money;
}

export function castCurrency(cast: Cast): string {
  return cast.items[0] ? unitPrice(cast.items[0]).currency_code : "USD";
}

/** The billing cycle of the story: the first recurring item's (monthly when there is none). */
export function castBillingCycle(cast: Cast): Duration {
  const recurring = cast.items.find((item) => item.price.billing_cycle);
  return (recurring?.price.billing_cycle as Duration | undefined) ?? { interval: "month", frequency: 1 };
}

export function castTrial(cast: Cast): Duration | null {
  const trial = cast.items.find((item) => item.price.billing_cycle && item.price.trial_period);
  return (trial?.price.trial_period as Duration | undefined) ?? null;
}

/** A percentage as hundredths of a percent: "12.5" → 1250n. */
function basisPoints(percent: string): bigint {
  const [whole, fraction = ""] = percent.split(".");
  return BigInt(whole || "0") * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
}

/** Integer division rounding half up (amounts are never negative here). */
function divRound(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (2n * denominator);
}

interface LineTotals {
  subtotal: bigint;
  discount: bigint;
  tax: bigint;
  total: bigint;
}

const TAX_PERCENT = 20n;

function lineTotals(items: LineItem[], discount: Json | null, currency: string): LineTotals[] {
  let flatLeft =
    discount?.type === "flat" && discount.currency_code === currency ? BigInt(String(discount.amount)) : 0n;
  return items.map((item) => {
    const subtotal = BigInt(unitPrice(item).amount) * BigInt(item.quantity);
    let off = 0n;
    if (discount?.type === "percentage") off = divRound(subtotal * basisPoints(String(discount.amount)), 10_000n);
    else if (discount?.type === "flat") {
      off = flatLeft < subtotal ? flatLeft : subtotal;
      flatLeft -= off;
    } else if (discount?.type === "flat_per_seat" && discount.currency_code === currency) {
      const perSeat = BigInt(String(discount.amount)) * BigInt(item.quantity);
      off = perSeat < subtotal ? perSeat : subtotal;
    }
    const tax = divRound((subtotal - off) * TAX_PERCENT, 100n);
    return { subtotal, discount: off, tax, total: subtotal - off + tax };
  });
}

function sum(lines: LineTotals[], key: keyof LineTotals): bigint {
  return lines.reduce((acc, line) => acc + line[key], 0n);
}

function totalsJson(t: LineTotals): Json {
  return {
    subtotal: String(t.subtotal),
    discount: String(t.discount),
    tax: String(t.tax),
    total: String(t.total),
  };
}

/** The fee of a completed example transaction: 5% + 50 minor units. */
function feeOf(total: bigint): bigint {
  return divRound(total * 5n, 100n) + 50n;
}

export type PaymentAttempt = "captured" | "error";

export interface TransactionState {
  status: "draft" | "ready" | "billed" | "paid" | "completed" | "past_due" | "canceled";
  origin: "web" | "subscription_recurring" | "api";
  /** The customer and address are on the transaction. */
  customer: boolean;
  business: boolean;
  discount: boolean;
  /** `subscription_id` is set. */
  subscription: boolean;
  billingPeriod: { starts_at: string; ends_at: string } | null;
  invoice: boolean;
  /** Payment attempts, oldest first (the entity lists them newest first). */
  payments: PaymentAttempt[];
  /** Fees, earnings and payout totals are known (after completion). */
  fees: boolean;
  createdAt: string;
  updatedAt: string;
  billedAt: string | null;
  revisedAt?: string | null;
  /** Another ID than the cast's (a renewal's new transaction). */
  id?: string;
}

const PAYMENT_ATTEMPT_IDS = ["2a1d4c4b-7c5e-4b7a-9d2c-3f4e5a6b7c8d", "9f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b"];
const STORED_PAYMENT_METHOD_ID = "5d2b1c5e-8f3a-4b6c-9e7d-1a2b3c4d5e6f";

function payment(cast: Cast, attempt: PaymentAttempt, i: number, amount: string, at: string): Json {
  return {
    payment_attempt_id: PAYMENT_ATTEMPT_IDS[i % PAYMENT_ATTEMPT_IDS.length],
    stored_payment_method_id: STORED_PAYMENT_METHOD_ID,
    payment_method_id: cast.paymentMethod.id,
    amount,
    status: attempt,
    error_code: attempt === "error" ? "declined" : null,
    method_details: {
      type: "card",
      card: {
        type: "visa",
        last4: attempt === "error" ? "0002" : "4242",
        expiry_month: 5,
        expiry_year: 2028,
        cardholder_name: String(cast.customer.name ?? "Sam Miller"),
      },
    },
    created_at: later(at, i),
    captured_at: attempt === "captured" ? later(at, i) : null,
  };
}

/** The transaction of a story in `state`, in the API family's transaction shape. */
export function exampleTransaction(cast: Cast, state: TransactionState): Json {
  const currency = castCurrency(cast);
  const discount = state.discount ? cast.discount : null;
  const lines = lineTotals(cast.items, discount, currency);
  const subtotal = sum(lines, "subtotal");
  const off = sum(lines, "discount");
  const tax = sum(lines, "tax");
  const total = sum(lines, "total");
  const paid = state.payments.includes("captured");
  const fee = state.fees ? feeOf(total) : null;
  const earnings = fee === null ? null : total - tax - fee;
  const id = state.id ?? cast.transactionId;
  const owed = ["billed", "past_due"].includes(state.status) && !paid ? total : 0n;
  const rate = EXAMPLE_TAX_RATE;
  return {
    id,
    status: state.status,
    customer_id: state.customer ? cast.customer.id : null,
    address_id: state.customer ? cast.address.id : null,
    business_id: state.business && cast.business ? cast.business.id : null,
    custom_data: null,
    currency_code: currency,
    origin: state.origin,
    subscription_id: state.subscription ? cast.subscriptionId : null,
    invoice_id: state.invoice ? `inv_${id.slice(id.indexOf("_") + 1)}` : null,
    invoice_number: state.invoice ? "325-10566" : null,
    collection_mode: "automatic",
    discount_id: discount ? discount.id : null,
    billing_details: null,
    billing_period: state.billingPeriod,
    items: cast.items.map((item) => ({
      price_id: item.price.id,
      price: item.price,
      quantity: item.quantity,
      proration: null,
    })),
    details: {
      tax_rates_used: [{ tax_rate: rate, totals: totalsJson({ subtotal, discount: off, tax, total }) }],
      totals: {
        subtotal: String(subtotal),
        discount: String(off),
        tax: String(tax),
        total: String(total),
        credit: "0",
        credit_to_balance: "0",
        balance: String(owed),
        grand_total: String(total),
        grand_total_tax: String(tax),
        fee: fee === null ? null : String(fee),
        earnings: earnings === null ? null : String(earnings),
        currency_code: currency,
      },
      adjusted_totals: {
        subtotal: String(subtotal),
        tax: String(tax),
        total: String(total),
        grand_total: String(total),
        grand_total_tax: String(tax),
        fee: fee === null ? "0" : String(fee),
        retained_fee: "0",
        earnings: earnings === null ? "0" : String(earnings),
        currency_code: currency,
      },
      payout_totals:
        fee === null
          ? null
          : {
              subtotal: String(subtotal),
              discount: String(off),
              tax: String(tax),
              total: String(total),
              credit: "0",
              credit_to_balance: "0",
              balance: "0",
              grand_total: String(total),
              fee: String(fee),
              fee_rate: "0.05",
              earnings: String(earnings),
              exchange_rate: "1",
              currency_code: currency,
            },
      adjusted_payout_totals:
        fee === null
          ? null
          : {
              subtotal: String(subtotal),
              tax: String(tax),
              total: String(total),
              fee: String(fee),
              chargeback_fee: { amount: "0", original: null },
              earnings: String(earnings),
              currency_code: currency,
            },
      line_items: cast.items.map((item, i) => {
        const line = lines[i];
        const quantity = BigInt(item.quantity);
        return {
          id: indexedId(EXAMPLE_IDS.transactionItem, i),
          price_id: item.price.id,
          quantity: item.quantity,
          proration: null,
          tax_rate: rate,
          unit_totals: totalsJson({
            subtotal: line.subtotal / quantity,
            discount: line.discount / quantity,
            tax: line.tax / quantity,
            total: line.total / quantity,
          }),
          totals: totalsJson(line),
          product: item.product,
        };
      }),
    },
    payments: state.payments.map((attempt, i) => payment(cast, attempt, i, String(total), state.updatedAt)).reverse(),
    checkout: { url: `https://example.com/checkout?_ptxn=${id}` },
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    billed_at: state.billedAt,
    revised_at: state.revisedAt ?? null,
  };
}

export interface SubscriptionState {
  status: "active" | "trialing" | "past_due" | "paused" | "canceled";
  /** Index of the current billing period: 0 is the first (or the trial). */
  period: number;
  /** No current billing period (paused and canceled subscriptions). */
  noPeriod?: boolean;
  scheduledChange: { action: "pause" | "cancel" | "resume"; effective_at: string; resume_at: string | null } | null;
  pausedAt: string | null;
  canceledAt: string | null;
  updatedAt: string;
  /** subscription.created carries the transaction it was created from. */
  transactionId?: string;
}

/** Start and end of billing period `k` of the story (period 0 is the trial when there is one). */
export function billingPeriod(cast: Cast, k: number): { starts_at: string; ends_at: string } {
  const cycle = castBillingCycle(cast);
  const trial = castTrial(cast);
  if (trial) {
    const firstBilled = addDuration(T0, trial);
    if (k === 0) return { starts_at: T0, ends_at: firstBilled };
    return { starts_at: addDuration(firstBilled, cycle, k - 1), ends_at: addDuration(firstBilled, cycle, k) };
  }
  return { starts_at: addDuration(T0, cycle, k), ends_at: addDuration(T0, cycle, k + 1) };
}

/** The subscription of a story in `state`, in the API family's subscription shape. */
export function exampleSubscription(cast: Cast, state: SubscriptionState): Json {
  const period = billingPeriod(cast, state.period);
  const trial = castTrial(cast);
  const firstBilledAt = trial ? addDuration(T0, trial) : T0;
  const ended = state.noPeriod || state.status === "paused" || state.status === "canceled";
  const nextBilledAt = ended ? null : period.ends_at;
  const previouslyBilledAt = state.period === 0 && trial ? null : period.starts_at;
  const itemStatus = state.status === "trialing" ? "trialing" : ended ? "inactive" : "active";
  const recurring = cast.items.filter((item) => item.price.billing_cycle);
  const subscription: Json = {
    id: cast.subscriptionId,
    status: state.status,
    customer_id: cast.customer.id,
    address_id: cast.address.id,
    business_id: cast.business ? cast.business.id : null,
    currency_code: castCurrency(cast),
    created_at: T0,
    updated_at: state.updatedAt,
    started_at: T0,
    first_billed_at: firstBilledAt,
    next_billed_at: nextBilledAt,
    paused_at: state.pausedAt,
    canceled_at: state.canceledAt,
    discount: cast.discount ? { id: cast.discount.id, starts_at: T0, ends_at: null } : null,
    collection_mode: "automatic",
    billing_details: null,
    current_billing_period: ended ? null : period,
    billing_cycle: castBillingCycle(cast),
    scheduled_change: state.scheduledChange,
    management_urls: {
      update_payment_method: `https://customer-portal.example.com/subscriptions/${cast.subscriptionId}/update-payment-method`,
      cancel: `https://customer-portal.example.com/subscriptions/${cast.subscriptionId}/cancel`,
    },
    items: recurring.map((item) => ({
      status: itemStatus,
      quantity: item.quantity,
      recurring: true,
      created_at: T0,
      updated_at: state.updatedAt,
      previously_billed_at: previouslyBilledAt,
      next_billed_at: nextBilledAt,
      trial_dates: trial ? { starts_at: T0, ends_at: firstBilledAt } : null,
      price: item.price,
      product: item.product,
    })),
    custom_data: null,
    import_meta: null,
    consent_requirements: [],
  };
  if (state.transactionId) subscription.transaction_id = state.transactionId;
  return subscription;
}

// ---------------------------------------------------------------------------------------------
// One example per event type

/** The entity kind of an event type: `subscription` for `subscription.created`. */
export function entityKind(eventType: string): string {
  return eventType.slice(0, eventType.indexOf("."));
}

const TRANSACTION_STATUS: Record<string, TransactionState["status"]> = {
  created: "draft",
  updated: "ready",
  ready: "ready",
  billed: "billed",
  paid: "paid",
  completed: "completed",
  canceled: "canceled",
  past_due: "past_due",
  payment_failed: "ready",
  revised: "completed",
};

function transactionFor(event: string): Json {
  const cast = exampleCast();
  const status = TRANSACTION_STATUS[event] ?? "ready";
  const settled = status === "paid" || status === "completed";
  const payments: PaymentAttempt[] = event === "payment_failed" ? ["error"] : settled ? ["captured"] : [];
  const at = later(T0, 5);
  return exampleTransaction(cast, {
    status,
    origin: "web",
    customer: status !== "draft",
    business: false,
    discount: true,
    subscription: status === "completed",
    billingPeriod: status === "completed" ? billingPeriod(cast, 0) : null,
    invoice: status === "completed",
    payments,
    fees: status === "completed",
    createdAt: T0,
    updatedAt: at,
    billedAt: ["billed", "paid", "completed", "past_due"].includes(status) ? at : null,
    revisedAt: event === "revised" ? later(T0, 60) : null,
  });
}

const SUBSCRIPTION_STATUS: Record<string, SubscriptionState["status"]> = {
  canceled: "canceled",
  past_due: "past_due",
  paused: "paused",
  trialing: "trialing",
};

function subscriptionFor(event: string): Json {
  const cast = exampleCast();
  const status = SUBSCRIPTION_STATUS[event] ?? "active";
  const at = later(T0, 5);
  return exampleSubscription(cast, {
    status,
    period: 0,
    scheduledChange: null,
    pausedAt: status === "paused" ? at : null,
    canceledAt: status === "canceled" ? at : null,
    updatedAt: at,
    transactionId: event === "created" ? cast.transactionId : undefined,
  });
}

/** The example entity of `eventType`'s kind, in the state the event describes. */
export function examplePayload(eventType: string): Json {
  const kind = entityKind(eventType);
  const event = eventType.slice(kind.length + 1);
  const at = later(T0, 5);
  switch (kind) {
    case "address":
      return { ...exampleAddress() };
    case "adjustment":
      return event === "created" ? { ...exampleAdjustment(), status: "pending_approval" } : exampleAdjustment();
    case "api_key": {
      const key: Json = { ...exampleApiKey() };
      if (event === "revoked") Object.assign(key, { status: "revoked", revoked_at: at, updated_at: at });
      if (event === "expired") Object.assign(key, { status: "expired", expires_at: at, updated_at: at });
      if (event === "expiring") Object.assign(key, { expires_at: "2024-09-25T12:00:00.000000Z" });
      return key;
    }
    case "business":
      return { ...exampleBusiness() };
    case "client_token": {
      const token = exampleClientToken();
      if (event === "revoked") Object.assign(token, { status: "revoked", revoked_at: at, updated_at: at });
      return token;
    }
    case "customer":
      return { ...exampleCustomer() };
    case "discount":
      return { ...exampleDiscount() };
    case "discount_group":
      return { ...exampleDiscountGroup() };
    case "payment_method":
      return examplePaymentMethod();
    case "payout":
      return event === "created" ? { ...examplePayout(), status: "unpaid" } : examplePayout();
    case "price":
      return { ...examplePrice() };
    case "product":
      return { ...exampleProduct() };
    case "report":
      return event === "created" ? { ...exampleReport(), status: "pending", rows: null } : exampleReport();
    case "subscription":
      return subscriptionFor(event);
    case "transaction":
      return transactionFor(event);
    default:
      throw new Error(`no example for event type ${eventType}`);
  }
}
