/**
 * The moves that stop or hold a subscription's billing, as they take effect: cancel, pause (with
 * the credit of the unused period) and past_due (the first step of dunning), and the pending lines
 * a renewal will bill. lifecycle.ts applies them for the engine and the API; the charge outcomes
 * (charge-outcomes.ts) apply them when a charge settles, which is why they live below both.
 * The decisions are at the top of lifecycle.ts (cancel-rules, pause-rules,
 * pause-credits-unused-period in docs/decisions/).
 */
import type pg from "pg";
import { formatRate, prorationRate } from "../../billing/proration.ts";
import { config } from "../../config.ts";
import { type Queryable, query, storableJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import type { OnResume } from "../../schemas/subscription.ts";
import { rfc3339 } from "../../timestamps.ts";
import { cancelTransactions } from "../transactions/moves.ts";
import type { BillLine } from "./billing.ts";
import { markSubscriptionCanceled, markSubscriptionPaused, markSubscriptionsPastDue } from "./moves.ts";
import { type SubscriptionRow, subscriptionItemsOf } from "./store.ts";

/**
 * A pending line's `proration` as `subscription_charges` stores it: the API's `{rate,
 * billing_period}`; the exact ratio the engine uses is the rate itself (5 places at most).
 */
export type StoredProration = Omit<NonNullable<BillLine["proration"]>, "ratio">;

export async function applyCancel(client: pg.PoolClient, sub: SubscriptionRow, at: Date): Promise<void> {
  await query(
    "DELETE FROM subscription_charges WHERE subscription_id = $1 AND transaction_id IS NULL",
    [sub.id],
    client,
  );
  await query("UPDATE subscription_items SET updated_at = now() WHERE subscription_id = $1", [sub.id], client);
  await markSubscriptionCanceled(client, sub.id, at);
}

export async function applyPause(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  at: Date,
  resumeAt: Date | null,
  onResume: OnResume = "start_new_billing_period",
): Promise<void> {
  const pastDue = await query<{ id: string }>(
    `SELECT id FROM transactions WHERE subscription_id = $1 AND status = 'past_due' AND origin = 'subscription_recurring'
      ORDER BY id FOR UPDATE`,
    [sub.id],
    client,
  );
  await cancelTransactions(
    client,
    pastDue.map((row) => row.id),
  );
  await query(
    "DELETE FROM subscription_charges WHERE subscription_id = $1 AND transaction_id IS NULL AND quantity < 0",
    [sub.id],
    client,
  );
  const credit = await pauseCreditLines(client, sub, at);
  if (credit.length > 0) await addPendingLines(client, sub.id, credit);
  await query("UPDATE subscription_items SET updated_at = now() WHERE subscription_id = $1", [sub.id], client);
  await markSubscriptionPaused(client, sub.id, at, resumeAt, onResume);
}

/**
 * The credit of a pause at `at` (see the top of this file): each item of a paid, active
 * subscription credited for the rest of its current period, prorated to the minute as an item
 * removed at `at` is (proration.ts prorationRate). None for a pause at the period's end (a
 * scheduled pause), a trial (nothing paid) or a past_due subscription (its period is unpaid).
 */
export async function pauseCreditLines(on: Queryable, sub: SubscriptionRow, at: Date): Promise<BillLine[]> {
  if (sub.status !== "active" || !sub.current_period_starts_at || !sub.current_period_ends_at) return [];
  const period = { starts_at: sub.current_period_starts_at, ends_at: sub.current_period_ends_at };
  if (at.getTime() >= period.ends_at.getTime() || at.getTime() < period.starts_at.getTime()) return [];
  const rate = prorationRate(period, at);
  if (rate.numerator === 0n) return [];
  const items = (await subscriptionItemsOf(on, [sub.id])).get(sub.id) ?? [];
  return items.map((item) => ({
    price: item.price as unknown as BillLine["price"],
    product: item.product as unknown as BillLine["product"],
    quantity: item.quantity,
    credit: true,
    proration: {
      rate: formatRate(rate),
      ratio: rate,
      billing_period: { starts_at: rfc3339(at), ends_at: rfc3339(period.ends_at) },
    },
  }));
}

/**
 * The delays, from the failure, before each retry of a past-due subscription's payment
 * (BILLING_DUNNING_SCHEDULE, default 1d,3d,5d,7d: four retries over a week, the API family's
 * "about a week"); when the last fails, BILLING_DUNNING_EXHAUSTED_ACTION (cancel, the default, or
 * pause) ends it.
 */
export function dunningOffsets(): number[] {
  return config.dunning.schedule;
}

/** Makes the subscription past_due after a failed charge at `at`, and schedules the first retry. */
export async function markPastDue(client: pg.PoolClient, subscriptionId: string, at: Date): Promise<void> {
  // Only from active or trialing: one already past due keeps its dunning schedule, and one ended or
  // paused while a charge settled later (a Stripe charge under way) has nothing to dun.
  const first = dunningOffsets()[0];
  await markSubscriptionsPastDue(client, [subscriptionId], {
    nextRetryAt: first === undefined ? null : new Date(at.getTime() + first),
  });
}

/** Lines for the next renewal (subscription_charges): credits as negative quantities. */
export async function addPendingLines(client: pg.PoolClient, id: string, lines: readonly BillLine[]): Promise<void> {
  await query(
    `INSERT INTO subscription_charges (id, subscription_id, price_id, quantity, price, product, proration)
     SELECT x.id, $1, x.price_id, x.quantity, x.price::json, x.product::json, x.proration::json
       FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[])
         AS x(id, price_id, quantity, price, product, proration)`,
    [
      id,
      lines.map(() => newId("subchg")),
      lines.map((line) => line.price.id),
      lines.map((line) => (line.credit ? -line.quantity : line.quantity)),
      lines.map((line) => storableJson(line.price)),
      lines.map((line) => storableJson(line.product)),
      lines.map((line) =>
        line.proration
          ? storableJson({ rate: line.proration.rate, billing_period: line.proration.billing_period })
          : null,
      ),
    ],
    client,
  );
}
