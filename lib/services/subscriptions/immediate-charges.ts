/**
 * What every charge billed "now" to a subscription shares — a change billed with
 * prorated_immediately or full_immediately (update.ts), a one-time charge billed immediately
 * (charge.ts): the per-subscription limits, the minimum charge, and collecting it with
 * `on_payment_failure`.
 *
 * Decisions (immediate-charge-limits, minimum-charge, declined-charge-changes-nothing in
 * docs/decisions/):
 * - Limits: 20 immediate charges per hour and 100 per 24 hours per subscription,
 *   counted from the subscription's own transactions of origin subscription_update and
 *   subscription_charge that asked the customer for money (grand_total > 0: a change fully covered
 *   by credit is not a charge), by `billed_at` on the subscription's clock. The API family's error
 *   example says "20 per 24 hours"; its docs say 100, which we follow. The answer carries
 *   `Retry-After` (seconds until the oldest counted charge leaves the window). Previews answer the
 *   same refusal, so a preview never promises what the update then refuses.
 * - Minimum charge (USD 0.70, subscription_update_transaction_balance_less_than_charge_limit):
 *   an update billed now that would charge a card less than USD 0.70 (converted at the fixed rates
 *   of lib/billing/exchange-rates.ts for other currencies) but more than nothing is refused — a
 *   card charge of a few cents costs more than it brings. It applies only to automatically-collected
 *   updates billed now: never to *_next_billing_period (integrators reported the API family
 *   refusing those too, paddle-node-sdk#227: the lines join a renewal, which is not charged on its
 *   own), never to do_not_bill or to changes that charge nothing (covered by credit, or a credit),
 *   never to manual invoices (no card is charged), and not to one-time charges, whose amount the
 *   merchant chose deliberately.
 * - A declined charge with `on_payment_failure` prevent_change (the default) rolls the whole request
 *   back: nothing is applied and no transaction is kept (400 subscription_payment_declined). With
 *   apply_change, the change stays, the transaction is past_due and the subscription past_due, with
 *   its dunning (stops.ts markPastDue).
 * - Through Stripe (the saved method is Stripe's) the charge is made after the request's database
 *   transaction commits, never inside it: with prevent_change the change commits with the charge
 *   recorded, and a decline undoes it (charge-outcomes.ts `change`): the request still answers 400
 *   subscription_payment_declined and the subscription is as it was; the transaction stays, canceled,
 *   with its failed payment (a real attempt at Stripe is kept on record).
 */
import type pg from "pg";
import { isCurrencyCode } from "../../billing/currencies.ts";
import { convert } from "../../billing/exchange-rates.ts";
import { formatAmount } from "../../billing/money.ts";
import { type Queryable, query } from "../../db/sql.ts";
import { ApiError } from "../../errors.ts";
import type { TransactionOrigin } from "../../schemas/transaction.ts";
import type { DiscountRef } from "../transactions/references.ts";
import { type BillLine, billSubscription, type Period } from "./billing.ts";
import { afterSyncCharge, type ChargePurpose, changePurpose, purposeText } from "./charge-outcomes.ts";
import { scheduleInvoiceCheck } from "./lifecycle.ts";
import type { SubscriptionRow } from "./store.ts";

const HOUR_MS = 3_600_000;

export const IMMEDIATE_CHARGE_LIMITS = [
  { windowMs: HOUR_MS, max: 20, code: "subscription_immediate_charge_hour_limit_exceeded", per: "hour" },
  { windowMs: 24 * HOUR_MS, max: 100, code: "subscription_immediate_charge_24_hour_limit_exceeded", per: "24 hours" },
] as const;

/** Refuses a new immediate charge of subscription `id` at `at` when a limit is reached (429). */
export async function checkImmediateChargeLimits(on: Queryable, id: string, at: Date): Promise<void> {
  for (const limit of IMMEDIATE_CHARGE_LIMITS) {
    // The max-th newest charge in the window: when it exists, the limit is reached until it leaves.
    const [row] = await query<{ billed_at: Date }>(
      `SELECT billed_at FROM transactions
        WHERE subscription_id = $1 AND origin IN ('subscription_update', 'subscription_charge')
          AND billed_at > $2 AND billed_at <= $3 AND (details->'totals'->>'grand_total')::numeric > 0
        ORDER BY billed_at DESC OFFSET $4 LIMIT 1`,
      [id, new Date(at.getTime() - limit.windowMs), at, limit.max - 1],
      on,
    );
    if (row) {
      const retryAfter = Math.max(1, Math.ceil((row.billed_at.getTime() + limit.windowMs - at.getTime()) / 1000));
      throw new ApiError(
        limit.code,
        `Too many immediate charges for subscription ${id}. Limit: ${limit.max} per ${limit.per}. Try again in ${retryAfter} seconds, or bill on the next billing period.`,
        { headers: { "retry-after": String(retryAfter) } },
      );
    }
  }
}

/** The smallest card charge an update billed now may make, in `currency`'s minor unit. */
export function minimumCharge(currency: string): bigint {
  const usd = 70n;
  return isCurrencyCode(currency) ? convert(usd, "USD", currency) : usd;
}

export function checkMinimumCharge(balance: bigint, currency: string): void {
  const minimum = minimumCharge(currency);
  if (balance > 0n && balance < minimum) {
    throw new ApiError(
      "subscription_update_transaction_balance_less_than_charge_limit",
      `The change would charge ${formatAmount(balance)} (${currency} minor units) now, less than the minimum charge of ${formatAmount(minimum)}: bill it with prorated_next_billing_period or full_next_billing_period instead.`,
    );
  }
}

export type OnPaymentFailure = "prevent_change" | "apply_change";

/**
 * Bills `lines` now (billSubscription) for `sub` as it is after the change, and applies
 * `onPaymentFailure` to a declined card (see the top of this file). Returns the transaction's ID.
 */
export async function billNow(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  options: {
    lines: readonly BillLine[];
    origin: TransactionOrigin;
    period: Period;
    at: Date;
    discount: DiscountRef | null;
    onPaymentFailure: OnPaymentFailure;
  },
): Promise<string> {
  const applyChange = options.onPaymentFailure === "apply_change";
  // Through Stripe, prevent_change cannot roll back a charge made after this commits: the charge's
  // settlement undoes the change instead (charge-outcomes.ts; lib/payments/README.md).
  const prevent = applyChange
    ? null
    : changePurpose(sub.id, options.at, options.origin === "subscription_charge" ? "charge" : "update");
  const purpose: ChargePurpose = prevent ?? {
    kind: "renewal",
    subscription_id: sub.id,
    at: options.at.toISOString(),
  };
  const billed = await billSubscription(client, sub, {
    lines: options.lines,
    origin: options.origin,
    period: options.period,
    at: options.at,
    discount: options.discount,
    onDecline: applyChange ? "past_due" : "keep",
    purpose: purposeText(purpose),
  });
  if (billed.outcome === "declined") {
    if (!applyChange) {
      throw new ApiError(
        "subscription_payment_declined",
        sub.payment_method_id
          ? "The payment for the change was declined, so nothing was changed (on_payment_failure prevent_change). Ask the customer to update their payment method, or send on_payment_failure apply_change."
          : "The subscription has no saved payment method to charge, so nothing was changed (on_payment_failure prevent_change).",
      );
    }
    await afterSyncCharge(client, purpose, billed.outcome, billed.transactionId);
  } else if (billed.outcome === "billed") {
    await scheduleInvoiceCheck(client, sub);
  }
  return billed.transactionId;
}
