/**
 * PATCH /subscriptions/{id} and PATCH /subscriptions/{id}/preview (reference §3, §4, §5).
 *
 * One function, `planUpdate`, turns a request and the subscription into a plan: the subscription
 * as it will be, its new items, the lines of the change (billed now, or waiting for the next
 * renewal), priced by the engine that bills them. The update applies the plan; the preview shows it
 * and writes nothing. Both refuse the same requests with the same errors, and the preview's
 * `immediate_transaction` is what the update's transaction is (both price the lines with
 * preview.ts priceLines / billing.ts billSubscription: the same engine, discount and credit).
 *
 * Rules and decisions (where the sources are silent, what a merchant would expect):
 * - `items` replaces the whole list (omitted → removed). An item whose price is already on the
 *   subscription keeps its price and product as they were when added (the catalogue may have moved
 *   on; an archived price stays billable for existing customers) and its quantity unless sent; a new
 *   price needs a quantity (subscription_quantity_missing_for_new_items) and is resolved as a
 *   transaction's items are (catalogue prices, or non-catalogue prices created as `custom` when the
 *   update is applied). Recurring prices only, all on one billing cycle.
 * - `proration_billing_mode` is required when the items or `next_billed_at` actually change (sending
 *   the same items back with other fields needs none). The modes a change allows are
 *   lib/billing/proration.ts allowedModes; trialing and paused subscriptions take do_not_bill only.
 * - prorated_* bills each added or increased quantity for the rest of the period at the proration
 *   rate and credits each removed or reduced one (negative lines); full_* bills the whole price of
 *   what is added and credits nothing. *_immediately: one transaction now (origin
 *   subscription_update, billing_period = now → the end of the period after the change), collected
 *   now (immediate-charges.ts billNow: on_payment_failure, limits, minimum charge); credits beyond
 *   the charges go to the customer's credit balance. *_next_billing_period: the lines wait in
 *   `subscription_charges` for the next renewal. do_not_bill: nothing.
 * - A billing-cycle swap billed now starts a new period at the change (anchor = now); with
 *   do_not_bill the current period runs out and the renewal re-anchors on the new cycle.
 * - `next_billed_at` (≥ 30 minutes ahead, on the subscription's clock) re-anchors the billing
 *   periods at the new date (it becomes the current period's end); for a trial it moves the trial's
 *   end. A later date bills the extra time, a sooner one credits it (proration.ts
 *   nextBilledAtChangeLines), after any item change, with the items after it.
 * - Changes that bill (a mode other than do_not_bill with items or next_billed_at changing) are
 *   refused within 30 minutes of the renewal, or once it is due (409 subscription_locked_renewal):
 *   the renewal is about to bill the items as they are.
 * - `discount`: {id, effective_from} sets it (an expired discount may be applied to a subscription,
 *   per the spec; an archived or used-up one may not; applying a new one counts a redemption),
 *   null removes it. `immediately`: from now (an immediate transaction in the same request uses it);
 *   `next_billing_period`: from the next renewal. It lasts one billed period without `recur`, N
 *   with `maximum_recurring_intervals` N, else forever — counted from the next renewal.
 * - `customer_id` changes need the new customer's address (and business, or business_id null) and
 *   drop the saved card: a change billed now then needs a card (400
 *   subscription_missing_payment_method_cannot_update), unless it charges nothing.
 * - `collection_mode` manual needs billing_details and USD, EUR or GBP, and drops the saved card;
 *   back to automatic clears billing_details unless sent (the customer adds a card at the
 *   update-payment-method checkout).
 * - `scheduled_change: null` removes a scheduled pause, cancel or resume: the subscription renews at
 *   its period's end again (a paused one stays paused, open-ended).
 * - Events: subscription.updated, then the transaction's when billed now (and
 *   subscription.past_due when apply_change leaves its charge past due).
 */
import type pg from "pg";
import { addInterval } from "../../billing/billing-dates.ts";
import { isCurrencyCode } from "../../billing/currencies.ts";
import type { Ratio } from "../../billing/money.ts";
import {
  allowedModes,
  billingCycleChanged,
  billsImmediately,
  formatRate,
  type ItemQuantity,
  itemChangeLines,
  nextBilledAtChangeLines,
  type ProrationBillingMode,
  prorationRate,
  updateSummary,
} from "../../billing/proration.ts";
import { periodAt, periodStart, sameCycle } from "../../billing/subscription-dates.ts";
import { refusal, trialingItemsRefusal } from "../../billing/subscription-states.ts";
import { pool } from "../../db/connection.ts";
import { type Queryable, query, type RawJson, storableJson } from "../../db/sql.ts";
import { ApiError, type FieldError, invalidField, Problems } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Subscription, UpdateSubscriptionInput } from "../../schemas/subscription.ts";
import { MANUAL_CURRENCIES, type PreviewItemInput } from "../../schemas/transaction.ts";
import { rfc3339 } from "../../timestamps.ts";
import { pricedIn } from "../transactions/details.ts";
import {
  type PriceJson,
  type ProductJson,
  type ResolvedItem,
  resolveItems,
  saveNewPrices,
} from "../transactions/items.ts";
import {
  type DiscountRef,
  discountCurrencyProblem,
  loadAddress,
  loadBusiness,
  loadCustomer,
  storedDiscount,
} from "../transactions/references.ts";
import { storedBillingDetails } from "../transactions/stored-fields.ts";
import { type BillLine, type Period, periodDiscount, subscriptionCountry, subscriptionNow } from "./billing.ts";
import { billNow, checkImmediateChargeLimits, checkMinimumCharge, type OnPaymentFailure } from "./immediate-charges.ts";
import { addPendingLines } from "./lifecycle.ts";
import { futureDate, refuse, subscriptionOperation } from "./operation.ts";
import {
  apiPeriod,
  availableCredit,
  managementUrls,
  nextTransaction,
  type Priced,
  previewShape,
  priceLines,
  recurringDetails,
  storedRenewalState,
  summaryOf,
  type TransactionPreview,
} from "./preview.ts";
import {
  emitSubscriptionEvents,
  readSubscription,
  type SubscriptionItemRow,
  type SubscriptionRow,
  subscriptionItems,
  subscriptionJson,
} from "./store.ts";

/** Changes that bill wait while the renewal is this close (reference §4: 30 minutes). */
export const RENEWAL_LOCK_MS = 30 * 60_000;
/** `next_billed_at` must be at least this far ahead (reference §11: subscription_next_billed_at_too_soon). */
export const NEXT_BILLED_AT_MIN_LEAD_MS = 30 * 60_000;

/** One item of the subscription after the change. */
interface PlannedItem {
  /** The key of its lines: the price ID, or `~<index>` for a non-catalogue price not saved yet. */
  key: string;
  quantity: number;
  /** The subscription item kept (its snapshots), or null for a new one. */
  kept: SubscriptionItemRow | null;
  /** A new item, resolved (its price and product are replaced by the saved ones when applied). */
  added: ResolvedItem | null;
}

/** One line of the change, by item key. */
interface ChangeLine {
  key: string;
  quantity: number;
  credit: boolean;
  rate: Ratio | null;
  period: Period;
}

export interface UpdatePlan {
  before: SubscriptionRow;
  /** The subscription row as it will be. */
  after: SubscriptionRow;
  at: Date;
  /** `custom_data` to write (undefined: unchanged). */
  customData: { value: unknown } | undefined;
  /** The items after the change, in order (null: unchanged). */
  items: PlannedItem[] | null;
  /** Snapshots of the items before the change (credits of removed items are priced from them). */
  itemsBefore: SubscriptionItemRow[];
  mode: ProrationBillingMode | null;
  onPaymentFailure: OnPaymentFailure;
  changes: ChangeLine[];
  /** The change is billed now (a transaction), rather than on the next renewal. */
  immediate: boolean;
  /** The immediate transaction's period, discount and prices (null: nothing billed now). */
  immediatePeriod: Period | null;
  immediateDiscount: DiscountRef | null;
  immediatePriced: Priced | null;
  /** The change's lines for the next renewal, priced as that renewal will (null: none). */
  deferredPriced: Priced | null;
  /** The items that were billed now start their period at `at` (a new billing cycle). */
  itemsBilledFrom: Date | null;
  /** A discount applied by this request (a redemption). */
  redeemedDiscountId: string | null;
}

const cycleText = (c: { interval: string; frequency: number } | null) =>
  c ? `every ${c.frequency} ${c.interval}${c.frequency === 1 ? "" : "s"}` : "once (a one-time price)";

/** The Problems of the new items, named by their index in the request. */
class RequestProblems extends Problems {
  constructor(
    private readonly target: Problems,
    private readonly indexes: readonly number[],
  ) {
    super();
  }

  private rename(field: string): string {
    return field.replace(/^items\[(\d+)\]/, (_, k: string) => `items[${this.indexes[Number(k)]}]`);
  }

  override field(field: string, message: string): void {
    this.target.field(this.rename(field), message);
  }

  override archivedField(field: string, message: string): void {
    this.target.archivedField(this.rename(field), message);
  }
}

function priceOf(item: PlannedItem): PriceJson {
  return (item.added?.price ?? item.kept?.price) as PriceJson;
}

function productOf(item: PlannedItem): ProductJson {
  return (item.added?.product ?? item.kept?.product) as ProductJson;
}

/** The fields a request changes (the modifiers proration_billing_mode and on_payment_failure are not changes). */
function sentFields(input: UpdateSubscriptionInput): string[] {
  return Object.entries(input)
    .filter(([key, value]) => value !== undefined && key !== "proration_billing_mode" && key !== "on_payment_failure")
    .map(([key]) => key);
}

/** The plan of `input` for `sub` (see the top of this file). `lock`: share-lock the catalogue rows read. */
export async function planUpdate(
  on: Queryable,
  sub: SubscriptionRow,
  input: UpdateSubscriptionInput,
  lock: boolean,
): Promise<UpdatePlan> {
  const at = subscriptionNow(sub);
  const fields = sentFields(input);
  refuse(refusal("update", sub, { fields }));

  const problems = new Problems();
  const after: SubscriptionRow = { ...sub };

  // --- customer, address, business
  const customerChanged = input.customer_id !== undefined && input.customer_id !== sub.customer_id;
  if (input.customer_id !== undefined) {
    await loadCustomer(input.customer_id, "customer_id", problems, on);
    after.customer_id = input.customer_id;
  }
  if (customerChanged && input.address_id === undefined) {
    problems.field("address_id", "is required when customer_id changes: send an address of the new customer");
  }
  // The address is checked when it changes (or its customer does): an address archived since does
  // not stop other changes.
  let countryCode: string | null;
  after.address_id = input.address_id ?? sub.address_id;
  if (input.address_id !== undefined || customerChanged) {
    const address = await loadAddress(after.address_id, after.customer_id, "address_id", problems, on);
    countryCode = address?.countryCode ?? null;
  } else countryCode = await subscriptionCountry(on, sub.address_id);
  if (input.business_id !== undefined) after.business_id = input.business_id;
  if (customerChanged && input.business_id === undefined && sub.business_id !== null) {
    problems.field("business_id", "is required when customer_id changes: send a business of the new customer, or null");
  } else if (after.business_id !== null && (input.business_id !== undefined || customerChanged)) {
    await loadBusiness(after.business_id, after.customer_id, "business_id", problems, on);
  }

  // --- currency, collection mode, billing details
  if (input.currency_code !== undefined) {
    if (!isCurrencyCode(input.currency_code)) {
      problems.field("currency_code", `${input.currency_code} is not a supported currency`);
    }
    after.currency_code = input.currency_code;
  }
  if (input.collection_mode !== undefined) after.collection_mode = input.collection_mode;
  if (input.billing_details !== undefined) {
    after.billing_details = input.billing_details && storedBillingDetails(input.billing_details);
  } else if (after.collection_mode === "automatic" && sub.collection_mode === "manual") {
    after.billing_details = null;
  }
  if (after.collection_mode === "manual") {
    if (!after.billing_details) {
      problems.field("billing_details", "is required when collection_mode is manual (it holds the payment terms)");
    }
    if (!(MANUAL_CURRENCIES as readonly string[]).includes(after.currency_code)) {
      problems.field(
        input.currency_code !== undefined ? "currency_code" : "collection_mode",
        `needs the currency to be ${MANUAL_CURRENCIES.join(", ")} when collection_mode is manual, not ${after.currency_code}`,
      );
    }
  }
  // A new customer, or invoices instead of a card: the saved card is not the subscription's any more.
  if (customerChanged || after.collection_mode === "manual") after.payment_method_id = null;

  // --- items
  const itemsBefore = await subscriptionItems(on, sub.id);
  const items = input.items ? await planItems(on, input.items, itemsBefore, problems, lock) : null;

  // --- discount
  let discountRef: { ref: DiscountRef; recur: boolean; intervals: number | null } | null = null;
  if (input.discount) discountRef = await loadSubscriptionDiscount(on, input.discount.id, sub, problems);
  problems.throwIfAny();

  // --- rules between the fields, with every entity known
  const afterItems = items ?? itemsBefore.map((row) => keptItem(row, row.quantity));
  const cycle = afterItems[0].kept?.price.billing_cycle ?? afterItems[0].added?.price.billing_cycle;
  if (!cycle) throw new Error("a subscription item without a billing cycle passed validation");
  if (items) {
    items.forEach((item, index) => {
      const itemCycle = priceOf(item).billing_cycle;
      if (itemCycle && !sameCycle(itemCycle, cycle)) {
        problems.field(
          item.added && !item.added.catalogue ? `items[${index}].price.billing_cycle` : `items[${index}].price_id`,
          `bills ${cycleText(itemCycle)}, but items[0] bills ${cycleText(cycle)}: a subscription's items share one billing cycle`,
        );
      }
    });
  }
  afterItems.forEach((item, index) => {
    if (pricedIn(priceOf(item), countryCode, after.currency_code)) return;
    const where = countryCode ? ` for customers in ${countryCode}` : "";
    const message = `${priceOf(item).id ?? "the price"} has no unit price in ${after.currency_code}${where}`;
    if (items) {
      problems.field(
        item.added && !item.added.catalogue ? `items[${index}].price.unit_price` : `items[${index}].price_id`,
        message,
      );
    } else problems.field(input.currency_code !== undefined ? "currency_code" : "address_id", message);
  });
  if (input.currency_code !== undefined || input.address_id !== undefined) {
    const pending = await query<{ price: PriceJson }>(
      "SELECT price FROM subscription_charges WHERE subscription_id = $1 AND transaction_id IS NULL",
      [sub.id],
      on,
    );
    if (pending.some((line) => !pricedIn(line.price, countryCode, after.currency_code))) {
      problems.field(
        input.currency_code !== undefined ? "currency_code" : "address_id",
        `leaves a charge waiting for the next renewal without a unit price in ${after.currency_code}`,
      );
    }
  }
  if (discountRef) {
    const problem = discountCurrencyProblem(discountRef.ref, after.currency_code);
    if (problem) problems.field("discount.id", `${discountRef.ref.id} ${problem}`);
  }
  problems.throwIfAny();

  // --- scheduled change removed: the subscription renews again at its period's end
  if (input.scheduled_change === null && sub.scheduled_change) {
    after.scheduled_change = null;
    if (sub.status === "paused") after.next_billed_at = null;
    else if (sub.scheduled_change.action !== "resume") after.next_billed_at = sub.current_period_ends_at;
  }

  // --- what changes, and how it may be billed
  const quantities = (list: readonly PlannedItem[]): ItemQuantity[] =>
    list.map((item) => ({ price_id: item.key, quantity: item.quantity, billing_cycle: priceOf(item).billing_cycle }));
  const beforeQ = quantities(itemsBefore.map((row) => keptItem(row, row.quantity)));
  const afterQ = quantities(afterItems);
  const itemsChanged = items !== null && !sameQuantities(beforeQ, afterQ);
  const cycleChanged = items !== null && billingCycleChanged(beforeQ, afterQ);
  const requested = input.next_billed_at !== undefined ? new Date(input.next_billed_at) : null;
  const dateChanged = requested !== null && requested.getTime() !== after.next_billed_at?.getTime();
  if (dateChanged && requested.getTime() < at.getTime() + NEXT_BILLED_AT_MIN_LEAD_MS) {
    throw new ApiError(
      "subscription_next_billed_at_too_soon",
      `next_billed_at must be at least 30 minutes after now (${at.toISOString()}, the subscription's clock).`,
      { errors: [{ field: "next_billed_at", message: "must be at least 30 minutes ahead" }] },
    );
  }
  // At most ten years ahead, as every date of the subscription operations (operation.ts).
  if (dateChanged) futureDate("next_billed_at", input.next_billed_at as string, at, at, "now");
  const mode = input.proration_billing_mode ?? null;
  if ((itemsChanged || dateChanged) && mode === null) {
    throw new ApiError(
      "subscription_items_update_missing_proration_billing_mode",
      "proration_billing_mode is required when items or next_billed_at change: it says how the change is billed.",
      { errors: [{ field: "proration_billing_mode", message: "is required when items or next_billed_at change" }] },
    );
  }
  const trialing = sub.status === "trialing";
  if (trialing && itemsChanged) {
    const trial = trialingItemsRefusal(
      beforeQ.map((item) => item.price_id),
      afterQ.map((item) => item.price_id),
    );
    refuse(trial);
  }
  if (mode !== null && (itemsChanged || dateChanged)) {
    const allowed = allowedModes({
      itemsChanged,
      cycleChanged,
      nextBilledAtChanged: dateChanged,
      trialing,
      paused: sub.status === "paused",
    });
    if (!allowed.includes(mode)) {
      if (trialing) {
        throw new ApiError(
          "subscription_trialing_items_update_invalid_options",
          "A subscription in trial takes item quantity and next_billed_at changes with proration_billing_mode do_not_bill only: nothing is billed during a trial.",
        );
      }
      const what = cycleChanged
        ? "the billing cycle changes"
        : dateChanged
          ? "next_billed_at changes"
          : `the subscription is ${sub.status}`;
      throw invalidField("proration_billing_mode", `cannot be ${mode} when ${what}: use ${allowed.join(", ")}`);
    }
  }
  const bills = mode !== null && mode !== "do_not_bill" && (itemsChanged || dateChanged);
  if (bills && sub.next_billed_at && sub.next_billed_at.getTime() - at.getTime() < RENEWAL_LOCK_MS) {
    throw new ApiError(
      "subscription_locked_renewal",
      `unable to update subscription 30m0s before renewal: it renews at ${sub.next_billed_at.toISOString()}. Changes that bill wait until it has renewed (do_not_bill changes are taken).`,
    );
  }

  // --- the lines of the change, and the dates after it
  const changes: ChangeLine[] = [];
  let itemsBilledFrom: Date | null = null;
  const current =
    sub.current_period_starts_at && sub.current_period_ends_at
      ? { starts_at: sub.current_period_starts_at, ends_at: sub.current_period_ends_at }
      : null;
  if (items) after.billing_cycle = { interval: cycle.interval, frequency: cycle.frequency };
  if (itemsChanged && bills && current) {
    const rate = prorationRate(current, at);
    const newPeriod = { starts_at: at, ends_at: addInterval(at, cycle.interval, cycle.frequency) };
    const lines = itemChangeLines(beforeQ, afterQ, mode, rate);
    for (const line of lines) {
      changes.push({
        key: line.price_id,
        quantity: line.quantity,
        credit: line.credit,
        rate: line.rate,
        period: line.new_cycle ? newPeriod : { starts_at: at, ends_at: current.ends_at },
      });
    }
    if (cycleChanged) {
      // The new cycle starts now (itemChangeLines billed a whole new period).
      itemsBilledFrom = at;
      after.billing_anchor_at = at;
      after.current_period_starts_at = at;
      after.current_period_ends_at = newPeriod.ends_at;
      after.next_billed_at = newPeriod.ends_at;
    }
  }
  if (dateChanged) {
    const periodNow =
      after.current_period_starts_at && after.current_period_ends_at
        ? { starts_at: after.current_period_starts_at, ends_at: after.current_period_ends_at }
        : null;
    if (bills && periodNow) {
      const oldEnd = periodNow.ends_at;
      const lines = nextBilledAtChangeLines(afterQ, periodNow, requested, mode);
      for (const line of lines) {
        changes.push({
          key: line.price_id,
          quantity: line.quantity,
          credit: line.credit,
          rate: line.rate,
          period: line.credit ? { starts_at: requested, ends_at: oldEnd } : { starts_at: oldEnd, ends_at: requested },
        });
      }
    }
    after.billing_anchor_at = requested;
    after.current_period_ends_at = requested;
    after.next_billed_at = requested;
  }

  // --- discount, from now or from the next renewal
  let redeemedDiscountId: string | null = null;
  if (input.discount === null) {
    after.discount_id = null;
    after.discount_starts_at = null;
    after.discount_ends_at = null;
  } else if (input.discount && discountRef) {
    const firstRenewal = after.next_billed_at ?? at;
    after.discount_id = discountRef.ref.id;
    after.discount_starts_at = input.discount.effective_from === "immediately" ? at : firstRenewal;
    const periods = discountRef.recur ? discountRef.intervals : 1;
    after.discount_ends_at = periods === null ? null : renewalAfter(after, firstRenewal, periods);
    if (discountRef.ref.id !== sub.discount_id) redeemedDiscountId = discountRef.ref.id;
  }

  // --- pricing: now, or with the next renewal
  const immediate = changes.length > 0 && mode !== null && billsImmediately(mode);
  const plan: UpdatePlan = {
    before: sub,
    after,
    at,
    customData: input.custom_data !== undefined ? { value: input.custom_data } : undefined,
    items,
    itemsBefore,
    mode,
    onPaymentFailure: input.on_payment_failure ?? "prevent_change",
    changes,
    immediate,
    immediatePeriod: null,
    immediateDiscount: null,
    immediatePriced: null,
    deferredPriced: null,
    itemsBilledFrom,
    redeemedDiscountId,
  };
  const lines = changeLines(plan);
  if (immediate) {
    plan.immediatePeriod = { starts_at: at, ends_at: after.current_period_ends_at ?? at };
    plan.immediateDiscount = await periodDiscount(on, after, at);
    const credit = await availableCredit(on, after.customer_id, after.currency_code);
    plan.immediatePriced = await priceLines(on, after, lines, plan.immediateDiscount, credit);
    const balance = plan.immediatePriced.balance;
    if (balance > 0n) {
      if (after.collection_mode === "automatic") {
        if (!after.payment_method_id) {
          throw new ApiError(
            "subscription_missing_payment_method_cannot_update",
            customerChanged
              ? "The change is billed now, but changing customer_id drops the saved payment method: bill it on the next billing period (or do_not_bill), or change the customer first and have them add a card at the update-payment-method checkout."
              : "The change is billed now, but the subscription has no saved payment method: bill it on the next billing period, or have the customer add a card at the update-payment-method checkout.",
          );
        }
        checkMinimumCharge(balance, after.currency_code);
      }
      await checkImmediateChargeLimits(on, sub.id, at);
    }
  } else if (lines.length > 0) {
    const start = after.next_billed_at ?? at;
    plan.deferredPriced = await priceLines(on, after, lines, await periodDiscount(on, after, start), 0n);
  }
  return plan;
}

/** The start of the renewal `periods` billing periods after `firstRenewal` (the discount's end). */
function renewalAfter(sub: SubscriptionRow, firstRenewal: Date, periods: number): Date {
  if (firstRenewal.getTime() < sub.billing_anchor_at.getTime()) {
    return addInterval(firstRenewal, sub.billing_cycle.interval, sub.billing_cycle.frequency * periods);
  }
  const { index, starts_at } = periodAt(sub.billing_anchor_at, sub.billing_cycle, firstRenewal);
  // On the anchor's grid (renewals are); else from the renewal itself.
  return starts_at.getTime() === firstRenewal.getTime()
    ? periodStart(sub.billing_anchor_at, sub.billing_cycle, index + periods)
    : addInterval(firstRenewal, sub.billing_cycle.interval, sub.billing_cycle.frequency * periods);
}

function sameQuantities(a: readonly ItemQuantity[], b: readonly ItemQuantity[]): boolean {
  if (a.length !== b.length) return false;
  const was = new Map(a.map((item) => [item.price_id, item.quantity]));
  return b.every((item) => was.get(item.price_id) === item.quantity);
}

function keptItem(row: SubscriptionItemRow, quantity: number): PlannedItem {
  return { key: row.price_id, quantity, kept: row, added: null };
}

/** The request's items: kept ones with their snapshots, new ones resolved (see the top of this file). */
async function planItems(
  on: Queryable,
  inputs: NonNullable<UpdateSubscriptionInput["items"]>,
  before: readonly SubscriptionItemRow[],
  problems: Problems,
  lock: boolean,
): Promise<PlannedItem[]> {
  const existing = new Map(before.map((row) => [row.price_id, row]));
  const seen = new Map<string, number>();
  const duplicates: FieldError[] = [];
  const missing: FieldError[] = [];
  inputs.forEach((input, index) => {
    if ("price_id" in input && input.price_id) {
      const first = seen.get(input.price_id);
      if (first !== undefined) {
        duplicates.push({
          field: `items[${index}].price_id`,
          message: `repeats items[${first}].price_id (${input.price_id}): send one item per price, with the total quantity`,
        });
      } else seen.set(input.price_id, index);
      if (input.quantity === undefined && !existing.has(input.price_id)) {
        missing.push({ field: `items[${index}].quantity`, message: `is required: ${input.price_id} is a new item` });
      }
    } else if (input.quantity === undefined) {
      missing.push({ field: `items[${index}].quantity`, message: "is required for a new (non-catalogue) price" });
    }
  });
  if (duplicates.length > 0) {
    throw new ApiError(
      "subscription_duplicate_price_ids",
      "The same price appears in more than one item: send one item per price, with the total quantity.",
      { errors: duplicates },
    );
  }
  if (missing.length > 0) {
    throw new ApiError(
      "subscription_quantity_missing_for_new_items",
      "quantity is required for items that are not on the subscription yet.",
      { errors: missing },
    );
  }

  const newIndexes: number[] = [];
  const newInputs: PreviewItemInput[] = [];
  inputs.forEach((input, index) => {
    if ("price_id" in input && input.price_id && existing.has(input.price_id)) return;
    newIndexes.push(index);
    newInputs.push(
      "price_id" in input && input.price_id
        ? { price_id: input.price_id, quantity: input.quantity as number }
        : {
            price: (input as { price: NonNullable<PreviewItemInput["price"]> }).price,
            quantity: input.quantity as number,
          },
    );
  });
  const resolved =
    newInputs.length > 0 ? await resolveItems(newInputs, new RequestProblems(problems, newIndexes), on, lock) : [];
  const byIndex = new Map<number, ResolvedItem>();
  for (const item of resolved) {
    const k = Number(/^items\[(\d+)\]/.exec(item.field)?.[1]);
    const index = newIndexes[k];
    item.field = `items[${index}]`;
    byIndex.set(index, item);
  }

  const planned: PlannedItem[] = [];
  inputs.forEach((input, index) => {
    const kept = "price_id" in input && input.price_id ? existing.get(input.price_id) : undefined;
    if (kept) {
      const quantity = input.quantity ?? kept.quantity;
      const limits = (kept.price as { quantity?: { minimum: number; maximum: number } }).quantity;
      if (limits && (quantity < limits.minimum || quantity > limits.maximum)) {
        problems.field(
          `items[${index}].quantity`,
          `must be ${limits.minimum} to ${limits.maximum}: the quantity limits of price ${kept.price_id}`,
        );
      }
      planned.push(keptItem(kept, quantity));
      return;
    }
    const added = byIndex.get(index);
    if (!added) return; // its problem is reported
    if (added.price.billing_cycle === null) {
      problems.field(
        added.catalogue ? `items[${index}].price_id` : `items[${index}].price.billing_cycle`,
        `${added.price.id ?? "the price"} is a one-time price: a subscription's items are recurring (bill one-time charges with POST /subscriptions/{subscription_id}/charge)`,
      );
    }
    planned.push({
      key: added.price.id ?? `~${index}`,
      quantity: added.quantity,
      kept: null,
      added,
    });
  });
  return planned;
}

/**
 * The discount `id` for a subscription: it must exist and not be archived; an expired one may be
 * applied to a subscription (spec: Discount, redemption rules), a used-up one may not (unless it is
 * already the subscription's).
 */
async function loadSubscriptionDiscount(
  on: Queryable,
  id: string,
  sub: SubscriptionRow,
  problems: Problems,
): Promise<{ ref: DiscountRef; recur: boolean; intervals: number | null } | null> {
  const [row] = await query<{ status: string; recur: boolean; intervals: number | null; used_up: boolean }>(
    `SELECT status, recur, maximum_recurring_intervals AS intervals, coalesce(times_used >= usage_limit, false) AS used_up
       FROM discounts WHERE id = $1`,
    [id],
    on,
  );
  const ref = row ? await storedDiscount(id, on) : null;
  if (!row || !ref) {
    problems.field("discount.id", `no discount has the ID ${id}`);
    return null;
  }
  if (row.status === "archived") {
    problems.archivedField("discount.id", `${id} is archived: set its status to active to apply it`);
  } else if (row.used_up && id !== sub.discount_id) {
    problems.field("discount.id", `${id} has reached its usage_limit and cannot be redeemed again`);
  }
  return { ref, recur: row.recur, intervals: row.intervals };
}

/** The change's lines as billed (BillLine): each key's price and product, as they are now. */
function changeLines(plan: UpdatePlan): BillLine[] {
  const byKey = new Map<string, PlannedItem>();
  for (const row of plan.itemsBefore) byKey.set(row.price_id, keptItem(row, row.quantity));
  for (const item of plan.items ?? []) byKey.set(item.key, item);
  return plan.changes.map((change) => {
    const item = byKey.get(change.key);
    if (!item) throw new Error(`a change line names ${change.key}, which no item has`);
    return {
      price: priceOf(item),
      product: productOf(item),
      quantity: change.quantity,
      credit: change.credit,
      proration: change.rate && {
        rate: formatRate(change.rate),
        ratio: change.rate,
        billing_period: apiPeriod(change.period),
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Apply

export async function updateSubscription(id: string, input: UpdateSubscriptionInput): Promise<RawJson<Subscription>> {
  return subscriptionOperation(id, async (client, sub) => {
    const plan = await planUpdate(client, sub, input, true);
    const { after, at } = plan;
    const newItems = (plan.items ?? []).flatMap((item) => (item.added ? [item.added] : []));
    await saveNewPrices(newItems, client);
    await writeSubscription(client, plan);
    if (plan.items) await writeItems(client, plan);
    await trialDates(client, plan);
    if (plan.redeemedDiscountId) {
      await query("UPDATE discounts SET times_used = times_used + 1 WHERE id = $1", [plan.redeemedDiscountId], client);
    }
    const lines = changeLines(plan);
    if (!plan.immediate && lines.length > 0) await addPendingLines(client, id, lines);
    await emitSubscriptionEvents(client, id, ["subscription.updated"]);
    if (plan.immediate && plan.immediatePeriod) {
      await billNow(client, after, {
        lines,
        origin: "subscription_update",
        period: plan.immediatePeriod,
        at,
        discount: plan.immediateDiscount,
        onPaymentFailure: plan.onPaymentFailure,
      });
    }
  });
}

async function writeSubscription(client: pg.PoolClient, plan: UpdatePlan): Promise<void> {
  const a = plan.after;
  await query(
    `UPDATE subscriptions SET customer_id = $2, address_id = $3, business_id = $4, currency_code = $5, collection_mode = $6,
            billing_details = $7::json, billing_cycle_interval = $8, billing_cycle_frequency = $9, billing_anchor_at = $10,
            current_period_starts_at = $11, current_period_ends_at = $12, next_billed_at = $13, discount_id = $14,
            discount_starts_at = $15, discount_ends_at = $16, scheduled_change = $17::json, payment_method_id = $18,
            custom_data = CASE WHEN $19::boolean THEN $20::jsonb ELSE custom_data END
      WHERE id = $1`,
    [
      a.id,
      a.customer_id,
      a.address_id,
      a.business_id,
      a.currency_code,
      a.collection_mode,
      a.billing_details === null ? null : storableJson(a.billing_details),
      a.billing_cycle.interval,
      a.billing_cycle.frequency,
      a.billing_anchor_at,
      a.current_period_starts_at,
      a.current_period_ends_at,
      a.next_billed_at,
      a.discount_id,
      a.discount_starts_at,
      a.discount_ends_at,
      a.scheduled_change === null ? null : storableJson(a.scheduled_change),
      a.payment_method_id,
      plan.customData !== undefined,
      plan.customData?.value == null ? null : storableJson(plan.customData.value),
    ],
    client,
  );
}

/** Replaces the subscription's items with the plan's, keeping the rows (and history) of kept prices. */
async function writeItems(client: pg.PoolClient, plan: UpdatePlan): Promise<void> {
  const items = plan.items ?? [];
  const id = plan.after.id;
  const kept = items.flatMap((item, position) => (item.kept ? [{ id: item.kept.id, position, q: item.quantity }] : []));
  // Positions are unique per subscription: move the old ones out of the way first.
  await query("UPDATE subscription_items SET position = -1 - position WHERE subscription_id = $1", [id], client);
  await query(
    "DELETE FROM subscription_items WHERE subscription_id = $1 AND NOT (id = ANY($2::text[]))",
    [id, kept.map((k) => k.id)],
    client,
  );
  await query(
    `UPDATE subscription_items i SET position = x.position, quantity = x.quantity,
            updated_at = CASE WHEN i.quantity <> x.quantity THEN now() ELSE i.updated_at END
       FROM unnest($1::text[], $2::int[], $3::int[]) AS x(id, position, quantity) WHERE i.id = x.id`,
    [kept.map((k) => k.id), kept.map((k) => k.position), kept.map((k) => k.q)],
    client,
  );
  const added = items.flatMap((item, position) => (item.added ? [{ item: item.added, position }] : []));
  const billedNow = plan.immediate ? plan.at : null;
  if (added.length > 0) {
    await query(
      `INSERT INTO subscription_items (id, subscription_id, position, price_id, status, quantity, price, product,
         previously_billed_at, created_at, updated_at)
       SELECT x.id, $1, x.position, x.price_id, $2, x.quantity, x.price::json, x.product::json, $3, $4, $4
         FROM unnest($5::text[], $6::int[], $7::text[], $8::int[], $9::text[], $10::text[])
           AS x(id, position, price_id, quantity, price, product)`,
      [
        id,
        plan.after.status,
        billedNow,
        plan.at,
        added.map(() => newId("subitm")),
        added.map((a) => a.position),
        added.map((a) => a.item.price.id),
        added.map((a) => a.item.quantity),
        added.map((a) => storableJson(a.item.price)),
        added.map((a) => storableJson(a.item.product)),
      ],
      client,
    );
  }
  if (plan.itemsBilledFrom) {
    await query(
      "UPDATE subscription_items SET previously_billed_at = $2 WHERE subscription_id = $1",
      [id, plan.itemsBilledFrom],
      client,
    );
  }
}

/** A trial's end moved with next_billed_at moves the items' trial dates too. */
async function trialDates(client: pg.PoolClient, plan: UpdatePlan): Promise<void> {
  if (
    plan.before.status !== "trialing" ||
    plan.after.next_billed_at?.getTime() === plan.before.next_billed_at?.getTime()
  ) {
    return;
  }
  await query(
    "UPDATE subscription_items SET trial_ends_at = $2, updated_at = now() WHERE subscription_id = $1 AND trial_ends_at IS NOT NULL",
    [plan.after.id, plan.after.next_billed_at],
    client,
  );
}

// ---------------------------------------------------------------------------------------------
// Preview

export async function previewUpdate(id: string, input: UpdateSubscriptionInput): Promise<Record<string, unknown>> {
  const on = pool();
  const sub = await readSubscription(on, id);
  const plan = await planUpdate(on, sub, input, false);
  const entity = (await subscriptionJson(on, id)).parse() as Record<string, any>;
  const shaped = await previewEntity(entity, plan);
  const lines = changeLines(plan);
  const state = await storedRenewalState(on, plan.after);
  const priced = plan.immediatePriced;
  const renewal = {
    sub: plan.after,
    items: (plan.items ?? plan.itemsBefore.map((row) => keptItem(row, row.quantity))).map((item) => ({
      price: priceOf(item),
      product: productOf(item),
      quantity: item.quantity,
    })),
    pending: plan.immediate ? state.pending : [...state.pending, ...lines],
    // What the immediate transaction takes from, or adds to, the balance before the renewal.
    credit: state.credit - (priced?.creditUsed ?? 0n) + (priced?.creditAdded ?? 0n),
  };
  const immediate: TransactionPreview | null =
    priced && plan.immediatePeriod
      ? { billing_period: apiPeriod(plan.immediatePeriod), details: priced.details, adjustments: [] }
      : null;
  return previewShape(shaped, {
    immediate_transaction: immediate,
    next_transaction: await nextTransaction(on, renewal),
    recurring_transaction_details: await recurringDetails(on, renewal),
    update_summary: priced
      ? summaryOf(priced.details, plan.after.currency_code)
      : plan.deferredPriced
        ? summaryOf(plan.deferredPriced.details, plan.after.currency_code)
        : updateSummary(0n, 0n, plan.after.currency_code),
  });
}

/** The subscription entity as the plan leaves it (what the update would answer). */
async function previewEntity(entity: Record<string, any>, plan: UpdatePlan): Promise<Record<string, unknown>> {
  const a = plan.after;
  const time = (date: Date | null) => rfc3339(date);
  const shown = a.status !== "paused" && a.status !== "canceled";
  const itemStatus = a.status === "paused" ? "inactive" : a.status === "trialing" ? "trialing" : "active";
  let items = entity.items as Record<string, any>[];
  if (plan.items) {
    const byRow = new Map(plan.itemsBefore.map((row, index) => [row.id, items[index]]));
    items = plan.items.map((item) => {
      if (item.kept) {
        const json = { ...byRow.get(item.kept.id) };
        if (json.quantity !== item.quantity) json.updated_at = time(new Date());
        json.quantity = item.quantity;
        return json;
      }
      return {
        status: itemStatus,
        quantity: item.quantity,
        recurring: true,
        created_at: time(plan.at),
        updated_at: time(plan.at),
        previously_billed_at: plan.immediate ? time(plan.at) : null,
        next_billed_at: null,
        trial_dates: null,
        price: priceOf(item),
        product: productOf(item),
      };
    });
  }
  items = items.map((json) => ({
    ...json,
    next_billed_at: shown ? time(a.next_billed_at) : null,
    previously_billed_at: plan.itemsBilledFrom ? time(plan.itemsBilledFrom) : json.previously_billed_at,
    trial_dates:
      json.trial_dates && plan.before.status === "trialing"
        ? { starts_at: json.trial_dates.starts_at, ends_at: time(a.next_billed_at) }
        : json.trial_dates,
  }));
  return {
    ...entity,
    customer_id: a.customer_id,
    address_id: a.address_id,
    business_id: a.business_id,
    currency_code: a.currency_code,
    updated_at: time(new Date()),
    next_billed_at: time(a.next_billed_at),
    discount: a.discount_id
      ? { id: a.discount_id, starts_at: time(a.discount_starts_at), ends_at: time(a.discount_ends_at) }
      : null,
    collection_mode: a.collection_mode,
    billing_details: a.billing_details,
    current_billing_period:
      shown && a.current_period_starts_at && a.current_period_ends_at
        ? { starts_at: time(a.current_period_starts_at), ends_at: time(a.current_period_ends_at) }
        : null,
    billing_cycle: a.billing_cycle,
    scheduled_change: a.scheduled_change ? entity.scheduled_change : null,
    management_urls: managementUrls(a.id, a.collection_mode),
    items,
    custom_data: plan.customData !== undefined ? (plan.customData.value ?? null) : entity.custom_data,
  };
}
