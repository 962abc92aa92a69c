/**
 * The rules between a transaction's fields, shared by create and update: checked on the
 * transaction as the request would leave it, each problem named by the field to change.
 */
import { type BillingDetails, type CollectionMode, MANUAL_CURRENCIES } from "../../schemas/transaction.ts";
import { pricedIn } from "./details.ts";
import type { ResolvedItem } from "./items.ts";
import { type DiscountRef, discountCurrencyProblem, type Problems } from "./references.ts";

/** The transaction as a request would leave it: what the rules between fields are checked on. */
export interface Outcome {
  items: ResolvedItem[];
  /** Whether the request sent `items` (else problems with them are blamed on what changed). */
  itemsSent: boolean;
  customerId: string | null;
  /** The customer's name, when there is a customer. */
  customerName: string | null;
  addressId: string | null;
  countryCode: string | null;
  currency: string;
  collectionMode: CollectionMode;
  billingDetails: BillingDetails | null;
  discount: DiscountRef | null;
  checkoutUrl: string | null;
}

/**
 * The rules between a transaction's fields (spec: Transaction), each problem named by the field the
 * request should change. `sent` tells which fields the request sent.
 */
export function checkOutcome(o: Outcome, sent: (field: string) => boolean, problems: Problems): void {
  recurringItemProblems(o.items, problems);
  for (const item of o.items) {
    if (pricedIn(item.price, o.countryCode, o.currency)) continue;
    const where = o.countryCode ? ` for customers in ${o.countryCode}` : "";
    const message = `has no unit price in ${o.currency}${where}`;
    if (o.itemsSent) {
      const field = item.catalogue ? `${item.field}.price_id` : `${item.field}.price.unit_price.currency_code`;
      problems.field(
        field,
        item.catalogue ? `${item.price.id} ${message}` : `is not ${o.currency}: the price ${message}`,
      );
    } else {
      const field = sent("currency_code") ? "currency_code" : "address_id";
      problems.field(field, `leaves ${item.field} (price ${item.price.id}) without a unit price: it ${message}`);
    }
  }
  if (o.discount) {
    const problem = discountCurrencyProblem(o.discount, o.currency);
    if (problem) problems.field(sent("discount_id") ? "discount_id" : "currency_code", `${o.discount.id} ${problem}`);
  }
  if (o.collectionMode === "manual") {
    if (!o.billingDetails) {
      problems.field("billing_details", "is required when collection_mode is manual (it holds the payment terms)");
    }
    if (!(MANUAL_CURRENCIES as readonly string[]).includes(o.currency)) {
      problems.field(
        "currency_code",
        `must be ${MANUAL_CURRENCIES.join(", ")} when collection_mode is manual, not ${o.currency}`,
      );
    }
    if (o.customerId !== null && !o.customerName?.trim()) {
      problems.field(
        "customer_id",
        `must be a customer with a name when collection_mode is manual: give customer ${o.customerId} a name first`,
      );
    }
  }
  if (o.checkoutUrl !== null && o.collectionMode === "manual" && !o.billingDetails?.enable_checkout) {
    problems.field(
      "checkout.url",
      "can be set only for automatically-collected transactions, or manually-collected ones with billing_details.enable_checkout true",
    );
  }
}

const durationText = (d: { interval: string; frequency: number } | null) =>
  d ? `every ${d.frequency} ${d.interval}${d.frequency === 1 ? "" : "s"}` : "none";

/**
 * The recurring items of a transaction become one subscription, with one billing cycle and one
 * trial period (decision: subscription-from-recurring-items): every recurring price must
 * have the first one's.
 */
export function recurringItemProblems(items: readonly ResolvedItem[], problems: Problems): void {
  const recurring = items.filter((item) => item.price.billing_cycle !== null);
  const first = recurring[0];
  if (!first) return;
  const same = (a: { interval: string; frequency: number } | null, b: typeof a) =>
    a === b || (a !== null && b !== null && a.interval === b.interval && a.frequency === b.frequency);
  for (const item of recurring.slice(1)) {
    const field = item.catalogue ? `${item.field}.price_id` : `${item.field}.price`;
    if (!same(item.price.billing_cycle, first.price.billing_cycle)) {
      problems.field(
        field,
        `bills ${durationText(item.price.billing_cycle)}, but ${first.field} bills ${durationText(first.price.billing_cycle)}: the recurring items of a transaction become one subscription and must share one billing cycle`,
      );
    } else if (!same(item.price.trial_period, first.price.trial_period)) {
      problems.field(
        field,
        `has trial period ${durationText(item.price.trial_period)}, but ${first.field} has ${durationText(first.price.trial_period)}: the recurring items of a transaction must share one trial period`,
      );
    }
  }
}
