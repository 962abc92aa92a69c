import type { Discount } from "../../schemas/discount.ts";
import { type EntityTable, jsonObject, ts } from "../sql.ts";
import { discountGroupFields } from "./discount-group.ts";

/**
 * `status` as reported: the stored status (`active` or `archived`), except that an active discount
 * whose `expires_at` has passed is `expired`, and one whose `times_used` has reached its
 * `usage_limit` is `used` (expiry is reported first when both hold), as in the API family.
 */
export const DISCOUNT_STATUS_SQL = `CASE WHEN t.status <> 'active' THEN t.status
  WHEN t.expires_at IS NOT NULL AND t.expires_at <= now() THEN 'expired'
  WHEN t.usage_limit IS NOT NULL AND t.times_used >= t.usage_limit THEN 'used'
  ELSE 'active' END`;

/**
 * The discount's API shape (spec: Discount), in the spec's field order: what every answer, list,
 * event and transaction `include=discount` carries. The revision (`revision_id`, our extension) is
 * not part of it: the family's discount schema allows no other field, so it is added only when
 * asked for (`include=revision`, discountEntity) and sent in the `Service-Revision-Id` header of
 * GET and PATCH /discounts/{discount_id}.
 */
export const DISCOUNT: EntityTable<Discount> = {
  table: "discounts",
  fields: [
    ["id", "t.id"],
    ["status", DISCOUNT_STATUS_SQL],
    ["description", "t.description"],
    ["enabled_for_checkout", "t.enabled_for_checkout"],
    ["code", "t.code"],
    ["type", "t.type"],
    ["mode", "t.mode"],
    // Percentages as given in canonical form ("10", "12.5"); flat amounts as integers of minor units.
    ["amount", "trim_scale(t.amount)::text"],
    ["currency_code", "t.currency_code"],
    ["recur", "t.recur"],
    ["maximum_recurring_intervals", "t.maximum_recurring_intervals"],
    ["usage_limit", "t.usage_limit"],
    ["restrict_to", "CASE WHEN t.restricted THEN to_json(t.restrict_to) END"],
    ["expires_at", ts("t.expires_at")],
    ["times_used", "t.times_used"],
    ["discount_group_id", "t.discount_group_id"],
    ["custom_data", "t.custom_data"],
    ["import_meta", "t.import_meta"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
  orderColumns: { created_at: "t.created_at", updated_at: "t.updated_at" },
};

/** What `include` adds, in this order: the discount's group (or null), the current revision. */
const INCLUDED: Record<string, readonly [string, string]> = {
  discount_group: [
    "discount_group",
    `(SELECT ${jsonObject({ table: "discount_groups", fields: discountGroupFields("g") })}
        FROM discount_groups g WHERE g.id = t.discount_group_id)`,
  ],
  // Ours: the revision a PATCH can name (`dsc_…@dscrev_…`).
  revision: ["revision_id", "t.revision_id"],
};

const entities = new Map<string, EntityTable<Discount>>();

/** The discount entity with the fields `include` asks for (`discount_group`, `revision`). */
export function discountEntity(include: readonly string[] | undefined): EntityTable<Discount> {
  const asked = Object.entries(INCLUDED).filter(([name]) => include?.includes(name));
  if (asked.length === 0) return DISCOUNT;
  const key = asked.map(([name]) => name).join(",");
  let entity = entities.get(key);
  if (!entity) {
    entity = { ...DISCOUNT, fields: [...DISCOUNT.fields, ...asked.map(([, field]) => field)] };
    entities.set(key, entity);
  }
  return entity;
}
