/**
 * Rendering answers: `expand[]` (an ID replaced by its object, dotted paths for nested expansion,
 * `data.` for the items of a list) and Stripe's list shape
 * `{ object: "list", data, has_more, url }` with `limit`, `starting_after` and `ending_before`.
 */
import { invalidRequest } from "./errors.ts";
import type { Params } from "./params.ts";
import { type AccountState, snapshot } from "./state.ts";

/** Fields that hold an expandable ID, per object type. */
const EXPANDABLE: Record<string, readonly string[]> = {
  payment_intent: ["customer", "payment_method", "latest_charge"],
  setup_intent: ["customer", "payment_method"],
  charge: ["balance_transaction", "customer", "payment_intent", "failure_balance_transaction", "refunds"],
  refund: ["balance_transaction", "charge", "payment_intent", "failure_balance_transaction", "payment_method"],
  customer: ["invoice_settings.default_payment_method"],
  payment_method: ["customer"],
  dispute: ["charge", "payment_intent"],
  balance_transaction: ["source"],
};

const MAX_DEPTH = 4;

type Json = Record<string, unknown>;

function expandOne(account: AccountState, target: Json, path: string[], full: string): void {
  if (path.length === 0) return;
  if (target.object === "list" && path[0] === "data" && Array.isArray(target.data)) {
    for (const item of target.data as Json[]) expandOne(account, item, path.slice(1), full);
    return;
  }
  const type = String(target.object);
  // `invoice_settings.default_payment_method`: a nested field named by two segments.
  const two = path.length >= 2 ? `${path[0]}.${path[1]}` : null;
  const allowed = EXPANDABLE[type] ?? [];
  if (two && allowed.includes(two)) {
    const holder = target[path[0]!] as Json | null;
    if (holder) expandField(account, holder, path[1]!, target, path.slice(2), full);
    return;
  }
  if (!allowed.includes(path[0]!)) {
    throw invalidRequest(`This property cannot be expanded (${full}).`, { param: "expand" });
  }
  expandField(account, target, path[0]!, target, path.slice(1), full);
}

function expandField(account: AccountState, holder: Json, field: string, owner: Json, rest: string[], full: string) {
  if (field === "refunds" && owner.object === "charge") {
    const refunds = account
      .all<Json>("refund")
      .filter((refund) => refund.charge === owner.id)
      .reverse()
      .map((refund) => snapshot(refund));
    holder.refunds = { object: "list", data: refunds, has_more: false, url: `/v1/charges/${owner.id}/refunds` };
    if (rest.length) expandOne(account, holder.refunds as Json, rest, full);
    return;
  }
  const value = holder[field];
  if (typeof value !== "string" || value === "") {
    if (value && typeof value === "object" && rest.length) expandOne(account, value as Json, rest, full);
    return;
  }
  const found = account.objects.get(value);
  if (!found) return;
  const copy = snapshot(found) as unknown as Json;
  holder[field] = copy;
  if (rest.length) expandOne(account, copy, rest, full);
}

/** A JSON copy of `object` with the `expand` paths replaced by their objects. */
export function expand<T>(account: AccountState, object: T, paths: string[] | undefined): T {
  const copy = snapshot(object) as unknown as Json;
  for (const path of paths ?? []) {
    const parts = path.split(".");
    if (parts.length > MAX_DEPTH) {
      throw invalidRequest(`You cannot expand more than ${MAX_DEPTH} levels of a property (${path}).`, {
        param: "expand",
      });
    }
    expandOne(account, copy, parts, path);
  }
  return copy as unknown as T;
}

export interface ListWindow {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
}

/** Reads `limit` (1–100, default 10), `starting_after` and `ending_before`. */
export function readWindow(p: Params): ListWindow {
  return {
    limit: p.integer("limit", { min: 1, max: 100 }) ?? 10,
    startingAfter: p.string("starting_after"),
    endingBefore: p.string("ending_before"),
  };
}

/** A page of `items` (oldest first in storage; lists answer newest first). */
export function list<T extends { id: string }>(url: string, items: T[], window: ListWindow) {
  const newestFirst = [...items].reverse();
  let start = 0;
  let end = newestFirst.length;
  if (window.startingAfter) {
    const at = newestFirst.findIndex((item) => item.id === window.startingAfter);
    if (at < 0) throw invalidRequest(`No such object: '${window.startingAfter}'`, { param: "starting_after" });
    start = at + 1;
  } else if (window.endingBefore) {
    const at = newestFirst.findIndex((item) => item.id === window.endingBefore);
    if (at < 0) throw invalidRequest(`No such object: '${window.endingBefore}'`, { param: "ending_before" });
    end = at;
    start = Math.max(0, end - window.limit);
  }
  const data = newestFirst.slice(start, Math.min(end, start + window.limit));
  const hasMore = window.endingBefore ? start > 0 : start + window.limit < end;
  return { object: "list" as const, data, has_more: hasMore, url };
}
