/**
 * What a subscription bought (or kept) at this checkout costs after today, for the order summary
 * (issue #11): "then $30.00 every month", the trial, and that the card is saved for renewals.
 *
 * - A new purchase with recurring prices: the recurring lines' totals (tax included) as the
 *   transaction prices them. Lines in their trial are charged nothing today: the first renewal is
 *   then priced by the same totals engine with trials ignored (no discount: it names the plan's
 *   price). The trial is the items' (they share one).
 * - A subscription's own transaction (a past-due renewal, or the zero-value card update from the
 *   portal): the subscription's renewal as the billing engine computes it, and its next date.
 * - Manually-collected (an invoice paid at the checkout): renewals are invoiced, no card is kept
 *   for them (`collection` manual), so the page does not say the card is saved.
 * A one-time discount can make later renewals cost more than these figures; the text then still
 * says what the subscription's prices are.
 */
import { pool } from "@/lib/db/connection";
import type { Transaction } from "@/lib/schemas/transaction";
import { subscriptionCountry } from "@/lib/services/subscriptions/billing";
import { recurringDetails, storedRenewalState } from "@/lib/services/subscriptions/preview";
import { readSubscription } from "@/lib/services/subscriptions/store";
import { taxContext, totalsFor } from "@/lib/services/transactions/details";
import { getTransaction } from "@/lib/services/transactions/get";
import { storedItems } from "@/lib/services/transactions/items";

export interface Period {
  interval: string;
  frequency: number;
}

export interface RecurringTerms {
  /** Minor units, in the transaction's currency. */
  amount: string;
  cycle: Period;
  trial: Period | null;
  /** When the first later payment is due (RFC 3339), when known. */
  next_at: string | null;
  /** `purchase`: a new subscription; `existing`: the card is for a subscription already running. */
  kind: "purchase" | "existing";
  /** `automatic`: renewals charge the saved card; `manual`: renewals are invoiced. */
  collection: "automatic" | "manual";
}

export async function recurringTerms(transactionId: string): Promise<RecurringTerms | null> {
  const t = (await getTransaction(transactionId)).parse() as Transaction;
  if (t.subscription_id) {
    const on = pool();
    const sub = await readSubscription(on, t.subscription_id);
    if (sub.status === "canceled") return null;
    const details = await recurringDetails(on, await storedRenewalState(on, sub));
    return {
      amount: details.totals.grand_total,
      cycle: sub.billing_cycle,
      trial: null,
      next_at: sub.next_billed_at?.toISOString() ?? null,
      kind: "existing",
      collection: sub.collection_mode,
    };
  }
  const recurring = t.items.filter((item) => item.price.billing_cycle);
  const [first] = recurring;
  if (!first) return null;
  const recurringPrices = new Set(recurring.map((item) => item.price_id));
  const trial = (first.price.trial_period as Period | null) ?? null;
  let amount = 0n;
  if (trial) {
    const on = pool();
    const items = (await storedItems(on, t.id)).filter((item) => item.price.billing_cycle);
    const country = t.address_id ? await subscriptionCountry(on, t.address_id) : null;
    const priced = totalsFor(items, {
      currency: t.currency_code,
      tax: await taxContext(country, on),
      discount: null,
      ignoreTrials: true,
    });
    amount = BigInt(priced.totals.grand_total);
  } else {
    for (const line of t.details.line_items) {
      if (recurringPrices.has(line.price_id)) amount += BigInt(line.totals.total);
    }
  }
  return {
    amount: amount.toString(),
    cycle: first.price.billing_cycle as Period,
    trial,
    next_at: null,
    kind: "purchase",
    collection: t.collection_mode,
  };
}
