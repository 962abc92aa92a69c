/**
 * POST /subscriptions/{id}/charge and POST /subscriptions/{id}/charge/preview:
 * one-time charges billed to a subscription — prices without a billing cycle, never prorated, not
 * added to its items.
 * - `immediately`: a transaction now (origin subscription_charge, billing_period = the current
 *   period), collected now with `on_payment_failure` (immediate-charges.ts billNow), counted by the
 *   per-subscription limits (20 an hour, 100 a day); the subscription's discount in effect now
 *   applies to it as it would to its renewal (restrict_to decides which lines).
 * - `next_billing_period`: the lines wait in `subscription_charges` and the next renewal bills them
 *   once (`next_transaction` shows them); subscription.updated is written (the next transaction
 *   changed).
 * One plan (`planCharge`) serves the charge and its preview, as for updates.
 *
 * Decisions: a recurring price is refused with a field error naming it (add it to the items with
 * PATCH instead); a subscription without a saved card is charged like one whose card declines
 * (on_payment_failure decides); the minimum charge of updates does not apply (the merchant chose
 * the amount). The answer is the subscription (201, as the API family answers it; its other actions answer 200).
 */
import { updateSummary } from "../../billing/proration.ts";
import { refusal } from "../../billing/subscription-states.ts";
import { pool } from "../../db/connection.ts";
import type { Queryable, RawJson } from "../../db/sql.ts";
import { Problems } from "../../errors.ts";
import type { ChargeSubscriptionInput, Subscription } from "../../schemas/subscription.ts";
import type { PreviewItemInput } from "../../schemas/transaction.ts";
import { pricedIn } from "../transactions/details.ts";
import { type ResolvedItem, resolveItems, saveNewPrices } from "../transactions/items.ts";
import type { DiscountRef } from "../transactions/references.ts";
import { type BillLine, type Period, periodDiscount, subscriptionCountry, subscriptionNow } from "./billing.ts";
import { billNow, checkImmediateChargeLimits, type OnPaymentFailure } from "./immediate-charges.ts";
import { refuse, subscriptionOperation } from "./operation.ts";
import {
  apiPeriod,
  availableCredit,
  nextTransaction,
  type Priced,
  previewShape,
  priceLines,
  recurringDetails,
  storedRenewalState,
  summaryOf,
} from "./preview.ts";
import { addPendingLines } from "./stops.ts";
import { emitSubscriptionEvents, readSubscription, type SubscriptionRow, subscriptionJson } from "./store.ts";

export interface ChargePlan {
  sub: SubscriptionRow;
  at: Date;
  items: ResolvedItem[];
  immediate: boolean;
  onPaymentFailure: OnPaymentFailure;
  period: Period;
  discount: DiscountRef | null;
  /** The charge's lines priced: as the immediate transaction, or as they join the next renewal. */
  priced: Priced;
}

function linesOf(items: readonly ResolvedItem[]): BillLine[] {
  return items.map((item) => ({ price: item.price, product: item.product, quantity: item.quantity }));
}

export async function planCharge(
  on: Queryable,
  sub: SubscriptionRow,
  input: ChargeSubscriptionInput,
  lock: boolean,
): Promise<ChargePlan> {
  const at = subscriptionNow(sub);
  refuse(refusal("charge", sub, { effective_from: input.effective_from }));
  const problems = new Problems();
  const items = await resolveItems(input.items as PreviewItemInput[], problems, on, lock);
  const country = await subscriptionCountry(on, sub.address_id);
  for (const item of items) {
    if (item.price.billing_cycle !== null) {
      problems.field(
        item.catalogue ? `${item.field}.price_id` : `${item.field}.price.billing_cycle`,
        `${item.price.id ?? "the price"} is a recurring price: one-time charges take prices without a billing cycle (add recurring prices to the subscription's items with PATCH /subscriptions/{subscription_id})`,
      );
    } else if (!pricedIn(item.price, country, sub.currency_code)) {
      problems.field(
        item.catalogue ? `${item.field}.price_id` : `${item.field}.price.unit_price`,
        `${item.price.id ?? "the price"} has no unit price in ${sub.currency_code}, the subscription's currency`,
      );
    }
  }
  problems.throwIfAny();

  const immediate = input.effective_from === "immediately";
  const lines = linesOf(items);
  let period: Period;
  let discount: DiscountRef | null;
  let priced: Priced;
  if (immediate) {
    period =
      sub.current_period_starts_at && sub.current_period_ends_at
        ? { starts_at: sub.current_period_starts_at, ends_at: sub.current_period_ends_at }
        : { starts_at: at, ends_at: at };
    discount = await periodDiscount(on, sub, at);
    priced = await priceLines(on, sub, lines, discount, await availableCredit(on, sub.customer_id, sub.currency_code));
    if (priced.balance > 0n) await checkImmediateChargeLimits(on, sub.id, at);
  } else {
    const start = sub.next_billed_at ?? at;
    period = { starts_at: start, ends_at: start };
    discount = await periodDiscount(on, sub, start);
    priced = await priceLines(on, sub, lines, discount, 0n);
  }
  return {
    sub,
    at,
    items,
    immediate,
    onPaymentFailure: input.on_payment_failure ?? "prevent_change",
    period,
    discount,
    priced,
  };
}

export async function chargeSubscription(id: string, input: ChargeSubscriptionInput): Promise<RawJson<Subscription>> {
  return subscriptionOperation(id, async (client, sub) => {
    const plan = await planCharge(client, sub, input, true);
    await saveNewPrices(plan.items, client);
    const lines = linesOf(plan.items);
    if (plan.immediate) {
      await billNow(client, sub, {
        lines,
        origin: "subscription_charge",
        period: plan.period,
        at: plan.at,
        discount: plan.discount,
        onPaymentFailure: plan.onPaymentFailure,
      });
    } else {
      await addPendingLines(client, id, lines);
      await emitSubscriptionEvents(client, id, ["subscription.updated"]);
    }
  });
}

export async function previewCharge(id: string, input: ChargeSubscriptionInput): Promise<Record<string, unknown>> {
  const on = pool();
  const sub = await readSubscription(on, id);
  const plan = await planCharge(on, sub, input, false);
  const entity = (await subscriptionJson(on, id)).parse() as Record<string, unknown>;
  const state = await storedRenewalState(on, sub);
  const renewal = plan.immediate
    ? { ...state, credit: state.credit - plan.priced.creditUsed + plan.priced.creditAdded }
    : { ...state, pending: [...state.pending, ...linesOf(plan.items)] };
  return previewShape(entity, {
    immediate_transaction: plan.immediate
      ? { billing_period: apiPeriod(plan.period), details: plan.priced.details, adjustments: [] }
      : null,
    next_transaction: await nextTransaction(on, renewal),
    recurring_transaction_details: await recurringDetails(on, renewal),
    update_summary: plan.items.length
      ? summaryOf(plan.priced.details, sub.currency_code)
      : updateSummary(0n, 0n, sub.currency_code),
  });
}
