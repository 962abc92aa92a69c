/**
 * The status moves of subscriptions, one verb each: the status (lib/billing/transitions.ts
 * SUBSCRIPTION_MOVES says from what, and to what), its companion columns and its events, written
 * in one statement (the transactional outbox). A subscription in a status the move does not start
 * from is left as it is, without events. The caller holds the row lock and has written the rest of
 * the change (items, pending lines) first: the events show the subscription as it is after it.
 * Set-based where the engine moves many subscriptions at once (renewals).
 */
import type pg from "pg";
import { SUBSCRIPTION_MOVES, type SubscriptionMove } from "../../billing/transitions.ts";
import { type Params, storableJson } from "../../db/sql.ts";
import { movedFrom, movedTo } from "../../db/status-moves.ts";
import type { OnResume } from "../../schemas/subscription.ts";
import { type SubscriptionEvents, writeWithEvents } from "./store.ts";

/**
 * Moves the subscriptions `emits` names by `move`, setting `set` too (SQL over the row `t`, and the
 * `x` of `from` when given), and writes each moved one's events. Returns the IDs moved.
 */
function move(
  client: pg.PoolClient,
  name: SubscriptionMove,
  emits: readonly SubscriptionEvents[],
  changes: (params: Params) => { set: readonly string[]; from?: string },
): Promise<string[]> {
  const pairs = SUBSCRIPTION_MOVES[name];
  return writeWithEvents(client, emits, (ids, params) => {
    const { set, from } = changes(params);
    const sets = [`status = ${movedTo(pairs)}`, ...set, "updated_at = now()"];
    const join = from ? ` FROM ${from}` : "";
    const matches = from ? "t.id = x.id" : `t.id = ANY(${ids})`;
    return `UPDATE subscriptions t SET ${sets.join(", ")}${join} WHERE ${matches} AND ${movedFrom(pairs)} RETURNING t.*`;
  });
}

function each(ids: readonly string[], types: readonly string[]): SubscriptionEvents[] {
  return ids.map((id) => ({ id, types }));
}

/** trialing → active now (POST activate): the first period, `startsAt` to `endsAt`, starts. */
export async function activateTrialNow(
  client: pg.PoolClient,
  id: string,
  period: { startsAt: Date; endsAt: Date; discountEndsAt: Date | null },
): Promise<void> {
  await move(client, "activate", each([id], ["subscription.updated", "subscription.activated"]), (p) => {
    const startsAt = p.add(period.startsAt);
    const endsAt = p.add(period.endsAt);
    return {
      set: [
        `billing_anchor_at = ${startsAt}`,
        `first_billed_at = ${startsAt}`,
        `current_period_starts_at = ${startsAt}`,
        `current_period_ends_at = ${endsAt}`,
        `next_billed_at = ${endsAt}`,
        `discount_ends_at = ${p.add(period.discountEndsAt)}`,
      ],
    };
  });
}

/** A renewal: the subscription, in its `status` before it, starts the period `starts_at` to `ends_at`. */
export interface Renewal {
  id: string;
  status: string;
  starts_at: Date;
  ends_at: Date;
  /** The period is off the anchor: the subscription is re-anchored at its start. */
  reanchor: boolean;
}

/**
 * The engine's renewals, all in one statement: each subscription's next period starts (a trial's
 * end activates it, with subscription.activated after subscription.updated).
 */
export async function renewSubscriptions(client: pg.PoolClient, renewals: readonly Renewal[]): Promise<void> {
  if (renewals.length === 0) return;
  const emits = renewals.map(({ id, status }) => ({
    id,
    types: status === "trialing" ? ["subscription.updated", "subscription.activated"] : ["subscription.updated"],
  }));
  await move(client, "renew", emits, (p) => ({
    set: [
      "billing_anchor_at = CASE WHEN x.reanchor THEN x.starts_at ELSE t.billing_anchor_at END",
      "first_billed_at = coalesce(t.first_billed_at, x.starts_at)",
      "current_period_starts_at = x.starts_at",
      "current_period_ends_at = x.ends_at",
      "next_billed_at = x.ends_at",
    ],
    from: `unnest(${p.add(renewals.map((r) => r.id))}::text[], ${p.add(renewals.map((r) => r.starts_at))}::timestamptz[],
                  ${p.add(renewals.map((r) => r.ends_at))}::timestamptz[], ${p.add(renewals.map((r) => r.reanchor))}::boolean[])
             AS x(id, starts_at, ends_at, reanchor)`,
  }));
}

/** past_due → active: its last unpaid transaction was paid, dunning stops. */
export async function recoverSubscription(client: pg.PoolClient, id: string): Promise<void> {
  await move(client, "recover", each([id], ["subscription.updated", "subscription.activated"]), () => ({
    set: ["next_retry_at = NULL", "retry_count = 0"],
  }));
}

/**
 * → past_due (from active or trialing: one already past due keeps its dunning schedule). With
 * `dunning`, the dunning schedule starts: the first retry at `nextRetryAt`.
 */
export async function markSubscriptionsPastDue(
  client: pg.PoolClient,
  ids: readonly string[],
  dunning?: { nextRetryAt: Date | null },
): Promise<string[]> {
  return move(client, "past_due", each(ids, ["subscription.updated", "subscription.past_due"]), (p) => ({
    set: dunning ? ["retry_count = 0", `next_retry_at = ${p.add(dunning.nextRetryAt)}`] : [],
  }));
}

/**
 * → paused at `at`. `resumeAt`: the scheduled resume (then next_billed_at, when the resume bills);
 * null for an open-ended pause. Dunning stops.
 */
export async function markSubscriptionPaused(
  client: pg.PoolClient,
  id: string,
  at: Date,
  resumeAt: Date | null,
  onResume: OnResume,
): Promise<void> {
  const resume = resumeAt
    ? storableJson({ action: "resume", effective_at: resumeAt.toISOString(), resume_at: null, on_resume: onResume })
    : null;
  await move(client, "pause", each([id], ["subscription.updated", "subscription.paused"]), (p) => ({
    set: [
      `paused_at = ${p.add(at)}`,
      `next_billed_at = ${p.add(resumeAt)}`,
      `scheduled_change = ${p.add(resume)}::json`,
      "next_retry_at = NULL",
      "retry_count = 0",
    ],
  }));
}

/**
 * paused → active: with `period`, a new billing period starts (and is re-anchored there); without,
 * the kept period continues.
 */
export async function markSubscriptionResumed(
  client: pg.PoolClient,
  id: string,
  period: { startsAt: Date; endsAt: Date } | null,
): Promise<void> {
  await move(client, "resume", each([id], ["subscription.updated", "subscription.resumed"]), (p) => {
    const common = ["paused_at = NULL", "scheduled_change = NULL"];
    if (!period) return { set: [...common, "next_billed_at = t.current_period_ends_at"] };
    const startsAt = p.add(period.startsAt);
    const endsAt = p.add(period.endsAt);
    return {
      set: [
        ...common,
        `billing_anchor_at = ${startsAt}`,
        `current_period_starts_at = ${startsAt}`,
        `current_period_ends_at = ${endsAt}`,
        `next_billed_at = ${endsAt}`,
        `first_billed_at = coalesce(t.first_billed_at, ${startsAt})`,
      ],
    };
  });
}

/** → canceled at `at`, final: nothing more is billed, scheduled or retried. */
export async function markSubscriptionCanceled(client: pg.PoolClient, id: string, at: Date): Promise<void> {
  await move(client, "cancel", each([id], ["subscription.updated", "subscription.canceled"]), (p) => ({
    set: [
      `canceled_at = ${p.add(at)}`,
      "next_billed_at = NULL",
      "scheduled_change = NULL",
      "next_retry_at = NULL",
      "retry_count = 0",
    ],
  }));
}
