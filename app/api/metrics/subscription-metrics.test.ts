/**
 * The subscription metrics (MRR, its change and movements, active subscribers) through the real
 * subscription operations and the sandbox test clock: every lifecycle change moves the rollup in
 * its own transaction, a renewal that changes nothing moves nothing, and the rollup kept by the
 * triggers equals the one rebuilt from the rows. Each check compares the series before and after
 * one change, so the other tests of this file (one database) never disturb it.
 */
import { describe, expect, it } from "vitest";
import * as activate from "@/app/api/subscriptions/[subscription_id]/activate/route";
import * as cancel from "@/app/api/subscriptions/[subscription_id]/cancel/route";
import * as pause from "@/app/api/subscriptions/[subscription_id]/pause/route";
import * as resume from "@/app/api/subscriptions/[subscription_id]/resume/route";
import { convert } from "@/lib/billing/exchange-rates";
import { pool } from "@/lib/db/connection";
import { query } from "@/lib/db/sql";
import { call } from "@/lib/dev/test/api";
import { admin } from "@/lib/dev/test/resource";
import {
  advanceTo,
  chargeSubscription,
  DAY,
  MINUTE,
  patchSubscription,
  setClock,
  subscribed,
} from "@/lib/dev/test/subscription-updates";
import { DECLINES_LATER_CARD, makeRecurringPrice, subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { makePrice } from "@/lib/dev/test/transactions";
import * as activeSubscribers from "./active-subscribers/route";
import * as mrr from "./monthly-recurring-revenue/route";
import * as mrrChange from "./monthly-recurring-revenue-change/route";
import * as movements from "./monthly-recurring-revenue-movements/route";

type Entity = Record<string, any>;
const HANDLERS = { mrr, mrrChange, movements, activeSubscribers } as const;
const PATHS = {
  mrr: "monthly-recurring-revenue",
  mrrChange: "monthly-recurring-revenue-change",
  movements: "monthly-recurring-revenue-movements",
  activeSubscribers: "active-subscribers",
} as const;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function get(metric: keyof typeof HANDLERS, from: string, to: string): Promise<Entity> {
  const res = await call(HANDLERS[metric].GET, "GET", `/metrics/${PATHS[metric]}?from=${from}&to=${to}`, {
    key: await admin(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Every subscription series over [from, to), by day. */
async function snapshot(from: string, to: string) {
  const [m, c, mv, a] = await Promise.all([
    get("mrr", from, to),
    get("mrrChange", from, to),
    get("movements", from, to),
    get("activeSubscribers", from, to),
  ]);
  return {
    mrr: m.timeseries.map((p: Entity) => BigInt(p.amount)) as bigint[],
    change: c.timeseries.map((p: Entity) => BigInt(p.amount)) as bigint[],
    moves: mv.timeseries as Entity[],
    active: a.timeseries.map((p: Entity) => p.count) as number[],
  };
}
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

const MOVE_KEYS = ["new", "expansion", "contraction", "churn", "reactivation"] as const;
const COUNT_KEYS = ["new_subscribers", "reactivated_subscribers", "churned_subscribers"] as const;

/** What changed between two snapshots of the same range, per day. */
function diff(before: Snapshot, after: Snapshot) {
  return {
    mrr: after.mrr.map((v, i) => v - before.mrr[i]!),
    change: after.change.map((v, i) => v - before.change[i]!),
    active: after.active.map((v, i) => v - before.active[i]!),
    moves: after.moves.map((p, i) => {
      const out: Record<string, bigint | number> = {};
      for (const k of MOVE_KEYS) {
        const d = BigInt(p[k]) - BigInt(before.moves[i]![k]);
        if (d !== 0n) out[k] = d;
      }
      for (const k of COUNT_KEYS) {
        const d = p[k] - before.moves[i]![k];
        if (d !== 0) out[k] = d;
      }
      return out;
    }),
  };
}

const movementsOf = (id: string) =>
  query<{ movement: string; mrr_before: string; mrr_after: string; day: string; currency_code: string }>(
    `SELECT movement, mrr_before::text, mrr_after::text, to_char(day, 'YYYY-MM-DD') AS day, currency_code
       FROM subscription_mrr_movements WHERE subscription_id = $1 ORDER BY id`,
    [id],
  );

async function act(action: "pause" | "resume" | "cancel" | "activate", id: string, body?: unknown) {
  const handler = { pause, resume, cancel, activate }[action];
  const res = await call(handler.POST, "POST", `/subscriptions/${id}/${action}`, {
    key: await admin(),
    params: { subscription_id: id },
    body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Entity;
}

/** Runs `change` and returns what it did to the series of [from, to). */
async function effectOf(from: string, to: string, change: () => Promise<unknown>) {
  const before = await snapshot(from, to);
  await change();
  return diff(before, await snapshot(from, to));
}

/** [x, x, x] for days from index `from` on, 0 before. */
const stepFrom = <T extends bigint | number>(length: number, from: number, value: T, zero: T): T[] =>
  Array.from({ length }, (_, i) => (i >= from ? value : zero));

describe("MRR, its movements and active subscribers through a subscription's lifecycle", () => {
  it("counts create, upgrade, downgrade, pause, resume and cancel on the days they happen (the test clock's)", async () => {
    const price = await makeRecurringPrice(); // 30.00 a month
    const startedDay = day(Date.now());
    const created = await effectOf(startedDay, day(Date.now() + DAY), () => subscribed({ price }));
    expect(created.mrr).toEqual([3000n]);
    expect(created.active).toEqual([1]);
    expect(created.moves).toEqual([{ new: 3000n, new_subscribers: 1 }]);

    const { subscription, at } = await subscribed({ price });
    const t0 = at.getTime();
    // The range: from the day before the first change to 5 days after; the clock's days are 1..5.
    const from = day(t0 - DAY);
    const to = day(t0 + 6 * DAY);
    const len = 7;

    const upgrade = await effectOf(from, to, () =>
      patchSubscription(subscription.id, {
        items: [{ price_id: price.id, quantity: 3 }],
        proration_billing_mode: "prorated_immediately",
      }).then((res) => expect(res.status, JSON.stringify(res.body)).toBe(200)),
    );
    expect(upgrade.moves[1]).toEqual({ expansion: 6000n });
    expect(upgrade.mrr).toEqual(stepFrom(len, 1, 6000n, 0n));
    expect(upgrade.active).toEqual(stepFrom(len, 0, 0, 0));

    await setClock(subscription.id, new Date(t0 + DAY));
    const downgrade = await effectOf(from, to, () =>
      patchSubscription(subscription.id, {
        items: [{ price_id: price.id, quantity: 2 }],
        proration_billing_mode: "prorated_immediately",
      }).then((res) => expect(res.status, JSON.stringify(res.body)).toBe(200)),
    );
    expect(downgrade.moves[2]).toEqual({ contraction: 3000n });
    expect(downgrade.mrr).toEqual(stepFrom(len, 2, -3000n, 0n));

    await setClock(subscription.id, new Date(t0 + 2 * DAY));
    const paused = await effectOf(from, to, () => act("pause", subscription.id, { effective_from: "immediately" }));
    expect(paused.moves[3]).toEqual({ churn: 6000n, churned_subscribers: 1 });
    expect(paused.mrr).toEqual(stepFrom(len, 3, -6000n, 0n));
    expect(paused.active).toEqual(stepFrom(len, 3, -1, 0));

    await setClock(subscription.id, new Date(t0 + 3 * DAY));
    const resumed = await effectOf(from, to, () => act("resume", subscription.id, { effective_from: "immediately" }));
    expect(resumed.moves[4]).toEqual({ reactivation: 6000n, reactivated_subscribers: 1 });
    expect(resumed.mrr).toEqual(stepFrom(len, 4, 6000n, 0n));
    expect(resumed.active).toEqual(stepFrom(len, 4, 1, 0));

    await setClock(subscription.id, new Date(t0 + 4 * DAY));
    const canceled = await effectOf(from, to, () => act("cancel", subscription.id, { effective_from: "immediately" }));
    expect(canceled.moves[5]).toEqual({ churn: 6000n, churned_subscribers: 1 });
    expect(canceled.active).toEqual(stepFrom(len, 5, -1, 0));

    expect((await movementsOf(subscription.id)).map((m) => [m.movement, m.mrr_before, m.mrr_after])).toEqual([
      ["new", "0", "3000"],
      ["expansion", "3000", "9000"],
      ["contraction", "9000", "6000"],
      ["churn", "6000", "0"],
      ["reactivation", "0", "6000"],
      ["churn", "6000", "0"],
    ]);
  });

  it("counts a trial as nothing until it becomes active (by the engine at its end, or POST /activate)", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const today = day(Date.now());
    const trial = await effectOf(today, day(Date.now() + DAY), () => subscribeAtCheckout({ price }));
    expect(trial.mrr).toEqual([0n]);
    expect(trial.active).toEqual([0]);

    const { subscription } = await subscribeAtCheckout({ price });
    expect(subscription.status).toBe("trialing");
    const endsAt = Date.parse(subscription.next_billed_at);
    const from = day(endsAt);
    const ended = await effectOf(from, day(endsAt + DAY), () => advanceTo(subscription.id, new Date(endsAt + MINUTE)));
    expect(ended.moves).toEqual([{ new: 3000n, new_subscribers: 1 }]);
    expect(ended.active).toEqual([1]);

    const other = (await subscribeAtCheckout({ price })).subscription;
    const activated = await effectOf(today, day(Date.now() + DAY), () => act("activate", other.id));
    expect(activated.moves).toEqual([{ new: 3000n, new_subscribers: 1 }]);
  });

  it("moves nothing on a renewal, a one-time charge or past due (still a paying subscriber in dunning)", async () => {
    const { subscription } = await subscribeAtCheckout();
    const renewalAt = Date.parse(subscription.next_billed_at);
    const countBefore = (await movementsOf(subscription.id)).length;
    await advanceTo(subscription.id, new Date(renewalAt + MINUTE));
    const oneTime = await makePrice({ unit_price: { amount: "2500", currency_code: "USD" } });
    const charged = await chargeSubscription(subscription.id, {
      effective_from: "immediately",
      items: [{ price_id: oneTime.id, quantity: 2 }],
    });
    expect(charged.status, JSON.stringify(charged.body)).toBe(201);
    expect(await movementsOf(subscription.id)).toHaveLength(countBefore);

    const dunning = (await subscribeAtCheckout({ card: DECLINES_LATER_CARD })).subscription;
    const dueAt = Date.parse(dunning.next_billed_at);
    expect((await advanceTo(dunning.id, new Date(dueAt + MINUTE))).status).toBe("past_due");
    expect((await movementsOf(dunning.id)).map((m) => m.movement)).toEqual(["new"]);
    // Dunning exhausted at the last retry (7 days after the failure): canceled, churned on that day
    // (the day of the engine's action, not the day the test clock was moved to).
    const canceled = await advanceTo(dunning.id, new Date(dueAt + 8 * DAY));
    expect(canceled.status).toBe("canceled");
    const moves = await movementsOf(dunning.id);
    expect(moves.map((m) => m.movement)).toEqual(["new", "churn"]);
    expect(moves[1]!.day).toBe(canceled.canceled_at.slice(0, 10));
    expect(moves[1]!.day).toBe(day(dueAt + 7 * DAY));
  });

  it("normalises yearly, weekly, daily and multi-month cycles to a month, times the quantity", async () => {
    const cases: [Entity, number, string][] = [
      [
        { billing_cycle: { interval: "year", frequency: 1 }, unit_price: { amount: "12000", currency_code: "USD" } },
        1,
        "1000",
      ],
      [
        { billing_cycle: { interval: "year", frequency: 2 }, unit_price: { amount: "12001", currency_code: "USD" } },
        1,
        "500",
      ],
      [
        { billing_cycle: { interval: "month", frequency: 3 }, unit_price: { amount: "9000", currency_code: "USD" } },
        2,
        "6000",
      ],
      // 700 × 365 / 84 = 3041.67
      [
        { billing_cycle: { interval: "week", frequency: 1 }, unit_price: { amount: "700", currency_code: "USD" } },
        1,
        "3042",
      ],
      // 100 × 365 / 12 = 3041.67
      [
        { billing_cycle: { interval: "day", frequency: 1 }, unit_price: { amount: "100", currency_code: "USD" } },
        1,
        "3042",
      ],
    ];
    for (const [body, quantity, expected] of cases) {
      const price = await makeRecurringPrice(body);
      const { subscription } = await subscribeAtCheckout({ price, quantity });
      const moves = await movementsOf(subscription.id);
      expect(
        moves.map((m) => [m.movement, m.mrr_after]),
        JSON.stringify(body),
      ).toEqual([["new", expected]]);
    }
  });

  it("takes the country's price override, and converts other currencies at the current rate", async () => {
    const price = await makeRecurringPrice({
      unit_price: { amount: "3000", currency_code: "USD" },
      unit_price_overrides: [{ country_codes: ["DE"], unit_price: { amount: "2500", currency_code: "EUR" } }],
    });
    const today = day(Date.now());
    const effect = await effectOf(today, day(Date.now() + DAY), async () => {
      const { subscription } = await subscribeAtCheckout({ price, country: "DE", extra: { currency_code: "EUR" } });
      expect((await movementsOf(subscription.id)).map((m) => [m.currency_code, m.mrr_after])).toEqual([
        ["EUR", "2500"],
      ]);
    });
    expect(effect.moves[0]!.new).toBe(convert(2500n, "EUR", "USD"));
  });

  it("answers MRR change as the day's MRR minus the same day's a calendar month before", async () => {
    // Years ahead, where nothing else of this file happens: a subscription's movements written
    // at fixed moments (billing.metrics_at, as an import of history would).
    const client = await pool().connect();
    const { subscription } = await subscribeAtCheckout();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL billing.metrics_at = '2040-02-29T12:00:00Z'");
      await client.query("UPDATE subscription_items SET quantity = 4 WHERE subscription_id = $1", [subscription.id]);
      await client.query("COMMIT");
      await client.query("BEGIN");
      await client.query("SET LOCAL billing.metrics_at = '2040-03-30T12:00:00Z'");
      await client.query("UPDATE subscription_items SET quantity = 2 WHERE subscription_id = $1", [subscription.id]);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    const level = (await get("mrr", "2040-02-28", "2040-02-29")).timeseries[0].amount;
    const m = await get("mrr", "2040-03-28", "2040-04-01");
    expect(m.timeseries.map((p: Entity) => BigInt(p.amount) - BigInt(level))).toEqual([9000n, 9000n, 3000n, 3000n]);
    const change = await get("mrrChange", "2040-03-28", "2040-04-01");
    // 28 Mar vs 28 Feb, 29 Mar vs 29 Feb; 30 and 31 March vs 29 February (the month's last day).
    expect(change.timeseries.map((p: Entity) => p.amount)).toEqual(["9000", "0", "-6000", "-6000"]);
  });
});

describe("the subscription metrics rollup", () => {
  it("kept by the triggers equals the one rebuilt from the subscriptions, with no movement missing", async () => {
    const rows = async () =>
      (
        await pool().query(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, currency_code, new_mrr::text, expansion_mrr::text,
                  contraction_mrr::text, churn_mrr::text, reactivation_mrr::text, new_subscribers,
                  reactivated_subscribers, churned_subscribers
             FROM subscription_metrics_daily ORDER BY 1, 2`,
        )
      ).rows;
    const before = await rows();
    expect(before.length).toBeGreaterThan(0);
    const count = async () =>
      (await pool().query("SELECT count(*)::int AS n FROM subscription_mrr_movements")).rows[0].n;
    const movementsBefore = await count();
    await pool().query("SELECT subscription_metrics_rebuild()");
    expect(await rows()).toEqual(before);
    expect(await count()).toBe(movementsBefore);
  });

  it("brings a subscription changed behind the triggers' back up to date on rebuild", async () => {
    const { subscription } = await subscribeAtCheckout();
    await pool().query("ALTER TABLE subscription_items DISABLE TRIGGER subscription_items_metrics_on_update");
    try {
      await pool().query("UPDATE subscription_items SET quantity = 5 WHERE subscription_id = $1", [subscription.id]);
    } finally {
      await pool().query("ALTER TABLE subscription_items ENABLE TRIGGER subscription_items_metrics_on_update");
    }
    expect(await movementsOf(subscription.id)).toHaveLength(1);
    await pool().query("SELECT subscription_metrics_rebuild()");
    expect((await movementsOf(subscription.id)).map((m) => [m.movement, m.mrr_after])).toEqual([
      ["new", "3000"],
      ["expansion", "15000"],
    ]);
  });
});
