/**
 * The plan of a subscription update (the rules: update.ts): the subscription as it will be, its
 * items, the lines of the change and how they are billed. Shared by the update and its preview.
 */
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
} from "../../billing/proration.ts";
import { periodAt, periodStart, sameCycle } from "../../billing/subscription-dates.ts";
import { refusal, trialingItemsRefusal } from "../../billing/subscription-states.ts";
import { type Queryable, query } from "../../db/sql.ts";
import { ApiError, invalidField, Problems } from "../../errors.ts";
import type { UpdateSubscriptionInput } from "../../schemas/subscription.ts";
import { MANUAL_CURRENCIES } from "../../schemas/transaction.ts";
import { pricedIn } from "../transactions/details.ts";
import type { PriceJson } from "../transactions/items.ts";
import {
  type DiscountRef,
  discountCurrencyProblem,
  loadAddress,
  loadBusiness,
  loadCustomer,
} from "../transactions/references.ts";
import { storedBillingDetails } from "../transactions/stored-fields.ts";
import { type BillLine, type Period, periodDiscount, subscriptionCountry, subscriptionNow } from "./billing.ts";
import { checkImmediateChargeLimits, checkMinimumCharge, type OnPaymentFailure } from "./immediate-charges.ts";
import { futureDate, refuse } from "./operation.ts";
import { apiPeriod, availableCredit, type Priced, priceLines } from "./preview.ts";
import { type SubscriptionItemRow, type SubscriptionRow, subscriptionItems } from "./store.ts";
import {
  cycleText,
  keptItem,
  loadSubscriptionDiscount,
  type PlannedItem,
  planItems,
  priceOf,
  productOf,
  sameQuantities,
} from "./update-items.ts";

/** Changes that bill wait while the renewal is this close (the API family's 30 minutes). */
export const RENEWAL_LOCK_MS = 30 * 60_000;
/** `next_billed_at` must be at least this far ahead (the API family's subscription_next_billed_at_too_soon). */
export const NEXT_BILLED_AT_MIN_LEAD_MS = 30 * 60_000;

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

/** The fields a request changes (the modifiers proration_billing_mode and on_payment_failure are not changes). */
function sentFields(input: UpdateSubscriptionInput): string[] {
  return Object.entries(input)
    .filter(([key, value]) => value !== undefined && key !== "proration_billing_mode" && key !== "on_payment_failure")
    .map(([key]) => key);
}

/** The plan of `input` for `sub` (the rules: update.ts). `lock`: share-lock the catalogue rows read. */
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
  const [firstItem] = afterItems;
  const cycle = firstItem?.kept?.price.billing_cycle ?? firstItem?.added?.price.billing_cycle;
  if (!cycle) throw new Error("a subscription without items, or an item without a billing cycle, passed validation");
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

/** The change's lines as billed (BillLine): each key's price and product, as they are now. */
export function changeLines(plan: UpdatePlan): BillLine[] {
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
