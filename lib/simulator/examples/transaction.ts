/**
 * The transaction of a story, in the API family's transaction shape, in the state a step of the
 * story leaves it (totals from the cast's items, discount and a flat example tax rate).
 * Client-safe (see common.ts).
 */
import { invoiceIdOf } from "../../billing/payments.ts";
import { type Cast, castCurrency, type LineItem, unitPrice } from "./cast.ts";
import { EXAMPLE_IDS, EXAMPLE_TAX_RATE, indexedId, type Json, later } from "./common.ts";

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

/** Each item with its line's totals, in the items' order. */
function lineTotals(items: LineItem[], discount: Json | null, currency: string): (LineTotals & { item: LineItem })[] {
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
    return { item, subtotal, discount: off, tax, total: subtotal - off + tax };
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
      underlying_details: null,
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
    invoice_id: state.invoice ? invoiceIdOf(id) : null,
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
              grand_total_tax: String(tax),
              fee: String(fee),
              fee_rate: "0.05",
              earnings: String(earnings),
              exchange_rate: "1",
              currency_code: currency,
            },
      // Null until an adjustment is approved, as the API answers it (lib/billing/adjustments.ts).
      adjusted_payout_totals: null,
      line_items: lines.map(({ item, ...line }, i) => {
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
