/**
 * What a subscription update's request names, resolved (the rules: update.ts): its items (kept ones
 * with their snapshots, new ones resolved as a transaction's) and its discount.
 */
import type { ItemQuantity } from "../../billing/proration.ts";
import { type Queryable, query } from "../../db/sql.ts";
import { ApiError, type FieldError, Problems } from "../../errors.ts";
import type { UpdateSubscriptionInput } from "../../schemas/subscription.ts";
import type { PreviewItemInput } from "../../schemas/transaction.ts";
import { type PriceJson, type ProductJson, type ResolvedItem, resolveItems } from "../transactions/items.ts";
import { type DiscountRef, storedDiscount } from "../transactions/references.ts";
import type { SubscriptionItemRow, SubscriptionRow } from "./store.ts";

/** One item of the subscription after the change. */
export interface PlannedItem {
  /** The key of its lines: the price ID, or `~<index>` for a non-catalogue price not saved yet. */
  key: string;
  quantity: number;
  /** The subscription item kept (its snapshots), or null for a new one. */
  kept: SubscriptionItemRow | null;
  /** A new item, resolved (its price and product are replaced by the saved ones when applied). */
  added: ResolvedItem | null;
}

export const cycleText = (c: { interval: string; frequency: number } | null) =>
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

export function priceOf(item: PlannedItem): PriceJson {
  return (item.added?.price ?? item.kept?.price) as PriceJson;
}

export function productOf(item: PlannedItem): ProductJson {
  return (item.added?.product ?? item.kept?.product) as ProductJson;
}
export function sameQuantities(a: readonly ItemQuantity[], b: readonly ItemQuantity[]): boolean {
  if (a.length !== b.length) return false;
  const was = new Map(a.map((item) => [item.price_id, item.quantity]));
  return b.every((item) => was.get(item.price_id) === item.quantity);
}

export function keptItem(row: SubscriptionItemRow, quantity: number): PlannedItem {
  return { key: row.price_id, quantity, kept: row, added: null };
}

/** The request's items: kept ones with their snapshots, new ones resolved (the rules: update.ts). */
export async function planItems(
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
    const [, k] = /^items\[(\d+)\]/.exec(item.field) ?? [];
    const index = k === undefined ? undefined : newIndexes[Number(k)];
    if (index === undefined) throw new Error(`a resolved item of no new input: ${item.field}`);
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
export async function loadSubscriptionDiscount(
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
