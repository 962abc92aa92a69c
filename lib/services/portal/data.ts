/**
 * What the portal's pages show, always for one customer: the customer ID comes from the checked
 * portal token (access.ts), and every query here is filtered by it, so no ID in a page's address
 * can reach another customer's data (another customer's subscription is "not found").
 */
import type { CardDetails } from "../../billing/payments.ts";
import { pool } from "../../db/connection.ts";
import { ADDRESS } from "../../db/entities/address.ts";
import { BUSINESS } from "../../db/entities/business.ts";
import { SUBSCRIPTION } from "../../db/entities/subscription.ts";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import { jsonObject, query } from "../../db/sql.ts";
import { invoiceUnavailableReason } from "../../documents/invoice-data.ts";
import { notFound } from "../../errors.ts";
import type { Address } from "../../schemas/address.ts";
import type { Business } from "../../schemas/business.ts";
import type { Subscription } from "../../schemas/subscription.ts";
import type { Transaction } from "../../schemas/transaction.ts";
import { nextTransaction, recurringDetails, storedRenewalState } from "../subscriptions/preview.ts";
import { readSubscription } from "../subscriptions/store.ts";

export interface PortalCustomer {
  id: string;
  name: string | null;
  email: string;
}

export interface PortalSubscription {
  subscription: Subscription;
  /** The saved card renewals charge, when there is one. */
  card: CardDetails | null;
  /** What each renewal costs (recurring items, discount and tax included), in minor units. */
  recurring_total: string | null;
  /** The next payment: when and how much; null when nothing will be billed (canceled, cancel scheduled). */
  next_payment: { at: string; amount: string } | null;
  /** The past-due amount, when a payment failed. */
  past_due_amount: string | null;
}

export interface PortalTransaction {
  transaction: Transaction;
  has_invoice: boolean;
}

export async function portalCustomer(customerId: string): Promise<PortalCustomer> {
  const [row] = await query<PortalCustomer>("SELECT id, name, email FROM customers WHERE id = $1", [customerId]);
  if (!row) throw notFound(customerId);
  return row;
}

async function subscriptionRows(customerId: string, subscriptionId?: string): Promise<PortalSubscription[]> {
  const rows = await query<{ j: string; card: CardDetails | null; past_due: string | null }>(
    `SELECT ${jsonObject(SUBSCRIPTION)}::text AS j,
            (SELECT pm.card FROM payment_methods pm WHERE pm.id = t.payment_method_id) AS card,
            (SELECT x.details->'totals'->>'grand_total' FROM transactions x
              WHERE x.subscription_id = t.id AND x.status = 'past_due' ORDER BY x.id DESC LIMIT 1) AS past_due
     FROM subscriptions t
     WHERE t.customer_id = $1 AND ($2::text IS NULL OR t.id = $2)
     ORDER BY (t.status = 'canceled'), t.id DESC LIMIT 100`,
    [customerId, subscriptionId ?? null],
  );
  const on = pool();
  return Promise.all(
    rows.map(async (row) => {
      const subscription = JSON.parse(row.j) as Subscription;
      let recurring: string | null = null;
      let next: PortalSubscription["next_payment"] = null;
      if (subscription.status !== "canceled") {
        const state = await storedRenewalState(on, await readSubscription(on, subscription.id));
        recurring = (await recurringDetails(on, state)).totals.grand_total;
        const preview = subscription.status === "paused" ? null : await nextTransaction(on, state);
        if (preview && subscription.next_billed_at) {
          next = { at: subscription.next_billed_at, amount: preview.details.totals.grand_total };
        }
      }
      return {
        subscription,
        card: row.card,
        recurring_total: recurring,
        next_payment: next,
        past_due_amount: subscription.status === "past_due" ? row.past_due : null,
      };
    }),
  );
}

/** The customer's subscriptions, live ones first, newest first. */
export function portalSubscriptions(customerId: string): Promise<PortalSubscription[]> {
  return subscriptionRows(customerId);
}

/** One of the customer's subscriptions: not found when it is another customer's. */
export async function portalSubscription(customerId: string, subscriptionId: string): Promise<PortalSubscription> {
  // The page's address may hold anything: only an ID's shape is looked up.
  if (!/^sub_[a-z0-9]{26}$/.test(subscriptionId)) throw notFound(subscriptionId.slice(0, 40));
  const [row] = await subscriptionRows(customerId, subscriptionId);
  if (!row) throw notFound(subscriptionId);
  return row;
}

/**
 * The customer's transactions that mean something to them (billed, paid, completed, past due;
 * not drafts, ready ones nobody paid, or zero-value card updates), newest first, the last 100.
 */
export async function portalTransactions(customerId: string): Promise<PortalTransaction[]> {
  const rows = await query<{ j: string }>(
    `SELECT ${jsonObject(TRANSACTION)}::text AS j FROM transactions t
     WHERE t.customer_id = $1 AND t.status IN ('billed', 'paid', 'completed', 'past_due')
       AND t.origin <> 'subscription_payment_method_change'
     ORDER BY t.id DESC LIMIT 100`,
    [customerId],
  );
  return rows.map((row) => {
    const transaction = JSON.parse(row.j) as Transaction;
    return { transaction, has_invoice: invoiceUnavailableReason(transaction) === null };
  });
}

/** The customer's active addresses and businesses. */
export async function portalBillingDetails(
  customerId: string,
): Promise<{ addresses: Address[]; businesses: Business[] }> {
  const [addresses, businesses] = await Promise.all([
    query<{ j: string }>(
      `SELECT ${jsonObject(ADDRESS)}::text AS j FROM addresses t WHERE t.customer_id = $1 AND t.status = 'active' ORDER BY t.id LIMIT 50`,
      [customerId],
    ),
    query<{ j: string }>(
      `SELECT ${jsonObject(BUSINESS)}::text AS j FROM businesses t WHERE t.customer_id = $1 AND t.status = 'active' ORDER BY t.id LIMIT 50`,
      [customerId],
    ),
  ]);
  return {
    addresses: addresses.map((row) => JSON.parse(row.j) as Address),
    businesses: businesses.map((row) => JSON.parse(row.j) as Business),
  };
}
