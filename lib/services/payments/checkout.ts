/**
 * The hosted checkout of the sandbox processor: what the page shows (getCheckout) and a payment
 * with a sandbox test card (payAtCheckout), decided here at once. A card that buys a subscription
 * is saved for its renewals. With Stripe configured the checkout pays through Stripe instead
 * (lib/services/payments/stripe-checkout.ts): getCheckout says which (`processor`), and the page's
 * test-card payment (payWithTestCard) is refused.
 */

import { randomUUID } from "node:crypto";
import {
  type CardDetails,
  cardDigits,
  cardType,
  type DeclineCode,
  type Payment,
  parseExpiry,
  sandboxDecline,
  sandboxRenewalBehavior,
} from "../../billing/payments.ts";
import { canPayAtCheckout } from "../../billing/transaction-states.ts";
import { config } from "../../config.ts";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import { query, sqlTransaction, storableJson, updateJson } from "../../db/sql.ts";
import { ApiError, notFound } from "../../errors.ts";
import { stripeActive } from "../../payments/stripe.ts";
import { DEFAULT_MERCHANT_NAME } from "../../schemas/account-settings.ts";
import type { CardPaymentInput, CheckoutView } from "../../schemas/payment.ts";
import type { BillingDetails, Transaction } from "../../schemas/transaction.ts";
import { ACCOUNT_SETTING_KEYS } from "../account-settings.ts";
import { documentUrl } from "../documents.ts";
import { saveCard } from "../payment-methods.ts";
import {
  alreadyPaid,
  buysSubscription,
  completeWithPayment,
  lockForPayment,
  notPayableAtCheckout,
  nowText,
  type PaymentResult,
  paymentResult,
  refuseOutsideSandbox,
} from "./completion.ts";
import { checkDeclineLimits, MAX_STORED_DECLINES } from "./declines.ts";

// ---------------------------------------------------------------------------------------------
// Hosted checkout

/**
 * A card payment at the hosted checkout (sandbox only). The card is checked by the body schema;
 * its number decides the sandbox's outcome (lib/billing/payments.ts TEST_CARDS).
 */
export async function payAtCheckout(id: string, card: CardPaymentInput, clientKey = "unknown"): Promise<PaymentResult> {
  refuseOutsideSandbox();
  return sqlTransaction(async (client) => {
    const stored = await lockForPayment(client, id);
    if (stored.status === "completed" || stored.status === "paid") throw alreadyPaid(id);
    if (!canPayAtCheckout(stored)) {
      throw notPayableAtCheckout(id, stored);
    }
    await checkDeclineLimits(client, id, clientKey);
    const digits = cardDigits(card.number);
    const expiry = parseExpiry(card.expiry) ?? { month: 0, year: 0 };
    const decline: DeclineCode | null = sandboxDecline(digits);
    const now = await nowText(client);
    const payment: Payment = {
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: randomUUID(),
      payment_method_id: null,
      amount: stored.details.totals.balance,
      status: decline ? "error" : "captured",
      error_code: decline,
      method_details: {
        type: "card",
        underlying_details: null,
        card: {
          type: cardType(digits),
          last4: digits.slice(-4),
          expiry_month: expiry.month,
          expiry_year: expiry.year,
          cardholder_name: card.cardholder_name.trim(),
        },
      },
      created_at: now,
      captured_at: decline ? null : now,
    };
    if (decline) {
      await query(
        "INSERT INTO checkout_declines (transaction_id, client_key) VALUES ($1, $2)",
        [id, clientKey],
        client,
      );
      let declines = 0;
      const kept = [payment, ...stored.payments].filter(
        (p) => p.status !== "error" || ++declines <= MAX_STORED_DECLINES,
      );
      await updateJson(
        TRANSACTION,
        { sql: "t.id = $1", values: [id] },
        { payments: storableJson(kept) },
        ["transaction.updated", "transaction.payment_failed"],
        client,
      );
      return paymentResult(id, stored.status, payment);
    }
    // A card that buys a subscription, or pays one's failed charge, is saved for its renewals
    // (decision: saved-cards-for-subscriptions; origin subscription) and becomes the card the subscription charges.
    let paymentMethodId: string | null = null;
    const paysSubscription = stored.subscription_id !== null && stored.collection_mode === "automatic";
    if ((buysSubscription(stored) || paysSubscription) && stored.customer_id && stored.address_id) {
      paymentMethodId = await saveCard(
        client,
        stored.customer_id,
        stored.address_id,
        payment.method_details.card as CardDetails,
        sandboxRenewalBehavior(digits),
      );
      payment.stored_payment_method_id = paymentMethodId;
      payment.payment_method_id = paymentMethodId;
      if (paysSubscription) {
        await query(
          "UPDATE subscriptions SET payment_method_id = $2 WHERE id = $1",
          [stored.subscription_id, paymentMethodId],
          client,
        );
      }
    }
    await completeWithPayment(client, stored, payment, paymentMethodId);
    return paymentResult(id, "completed", payment);
  });
}

interface CheckoutRow {
  id: string;
  status: string;
  collection_mode: string;
  billing_details: BillingDetails | null;
  currency_code: string;
  invoice_number: string | null;
  customer_email: string | null;
  details: Transaction["details"];
  items: { price_id: string; description: string | null }[];
  payments: Payment[];
  merchant_name: string | null;
  checkout_success_url: string | null;
  subscription_id: string | null;
  discount_code: string | null;
}

/**
 * The page's card-form payment (POST /checkout/{id}/payments): the sandbox's test cards, refused
 * when a Stripe processor is configured — the checkout then pays through Stripe only
 * (stripe-checkout.ts), and no card number is ever sent here. payAtCheckout itself stays the
 * sandbox processor's operation (test fixtures make subscriptions with it).
 */
export async function payWithTestCard(
  id: string,
  card: CardPaymentInput,
  clientKey = "unknown",
): Promise<PaymentResult> {
  refuseOutsideSandbox();
  if (await stripeActive()) {
    throw new ApiError(
      "bad_request",
      "This checkout takes payments through Stripe (Stripe keys are configured): card numbers are entered in Stripe's form, never sent here. Use POST /checkout/{transaction_id}/payment-intent.",
    );
  }
  return payAtCheckout(id, card, clientKey);
}

/**
 * Which processor the checkout uses: Stripe when configured (test keys in the sandbox, live keys in
 * live), else the sandbox's test cards — which live refuses: a live deployment without Stripe takes
 * no card payment (sandbox_only).
 */
export async function checkoutProcessor(): Promise<"sandbox" | "stripe"> {
  if (await stripeActive()) return "stripe";
  refuseOutsideSandbox();
  return "sandbox";
}

/** What the hosted checkout page shows (no API key: the transaction ID in the link is the capability). */
export async function getCheckout(id: string): Promise<CheckoutView> {
  const processor = await checkoutProcessor();
  const [row] = await query<CheckoutRow>(
    `SELECT t.id, t.status, t.collection_mode, t.billing_details, t.currency_code, t.invoice_number,
            coalesce(t.customer_snapshot->>'email', (SELECT c.email FROM customers c WHERE c.id = t.customer_id)) AS customer_email,
            t.details, t.payments,
            (SELECT coalesce(json_agg(json_build_object('price_id', i.price_id, 'description', i.price->>'name')
                                      ORDER BY i.position), '[]'::json)
               FROM transaction_items i WHERE i.transaction_id = t.id) AS items,
            (SELECT s.value FROM settings s WHERE s.key = $2) AS merchant_name,
            t.checkout_success_url, t.subscription_id,
            (SELECT d.code FROM discounts d WHERE d.id = t.discount_id) AS discount_code
       FROM transactions t WHERE t.id = $1`,
    [id, ACCOUNT_SETTING_KEYS.merchant_name],
  );
  if (!row) throw notFound(id);
  const totals = row.details.totals;
  const state: CheckoutView["state"] =
    row.status === "completed" || row.status === "paid" ? "paid" : canPayAtCheckout(row) ? "payable" : "not_payable";
  const last = row.payments[0];
  const invoiced = state === "paid" && row.invoice_number !== null && totals.grand_total !== "0";
  return {
    transaction_id: row.id,
    status: row.status,
    state,
    environment: config.environment,
    processor,
    merchant_name: row.merchant_name?.trim() || DEFAULT_MERCHANT_NAME,
    currency_code: row.currency_code,
    invoice_number: row.invoice_number,
    customer_email: row.customer_email,
    items: row.details.line_items.map((line, i) => ({
      id: line.id,
      name: typeof line.product?.name === "string" ? line.product.name : line.price_id,
      description: row.items[i]?.description ?? null,
      quantity: line.quantity,
      tax_rate: line.tax_rate,
      total: line.totals.total,
    })),
    totals: {
      subtotal: totals.subtotal,
      discount: totals.discount,
      tax: totals.tax,
      total: totals.total,
      credit: totals.credit,
      grand_total: totals.grand_total,
    },
    success_url: row.checkout_success_url,
    receipt_url: invoiced ? (await documentUrl("invoice", row.id, "inline")).url : null,
    manages_subscription: state === "paid" && row.subscription_id !== null,
    accepts_discount_code: row.status === "ready" && row.collection_mode === "automatic",
    discount_code: row.discount_code,
    last_payment: last
      ? { status: last.status, error_code: last.error_code, amount: last.amount, created_at: last.created_at }
      : null,
  };
}
