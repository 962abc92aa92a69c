/**
 * The subscription entity (spec: Subscription): how its API fields come from the
 * `subscriptions` and `subscription_items` rows, once, for every read, write and event.
 *
 * Decisions where the sources are silent or disagree (paused-subscription-shape and
 * portal-tokens in docs/decisions/):
 * - `current_billing_period` is stored while paused (resume may continue it) and shown null for
 *   paused and canceled subscriptions, as the schema and the spec say.
 * - Items of a paused subscription are `inactive` (the schema and the docs' example), `trialing`
 *   while the subscription is, else `active` (lib/billing/subscription-shape.ts, which this SQL is
 *   written from). An item's `next_billed_at` is the subscription's.
 * - `management_urls` point at our customer portal (app/portal): `update_payment_method` is null
 *   for manually-collected subscriptions. Rendered here as plain links (no token); for a key with
 *   customer_portal_session.write the subscription routes swap in authenticated ones
 *   (lib/services/portal/management-urls.ts). Webhook payloads leave `management_urls` out, as the
 *   API family's do (the links are for the caller of the API, not for stored payloads).
 * - `consent_requirements` is always `[]`: no consent rules exist in this product.
 */
import { STATUSES_WITHOUT_PERIOD, subscriptionItemStatus } from "../../billing/subscription-shape.ts";
import { SUBSCRIPTION_STATUSES } from "../../billing/subscription-states.ts";
import { config } from "../../config.ts";
import type { Subscription, SubscriptionListInclude } from "../../schemas/subscription.ts";
import { type EntityTable, jsonRecord, relatedJson, sqlText, ts } from "../sql.ts";
import { billingDetailsJson } from "./billing-details.ts";
import { BUSINESS } from "./business.ts";
import { CUSTOMER } from "./customer.ts";

const period = (starts: string, ends: string) =>
  `CASE WHEN ${starts} IS NULL THEN NULL ELSE ${jsonRecord([
    ["starts_at", ts(starts)],
    ["ends_at", ts(ends)],
  ])} END`;

/** subscriptionItemStatus in SQL, written from it: each status whose items are not `active`. */
const ITEM_STATUS = `CASE ${SUBSCRIPTION_STATUSES.filter((status) => subscriptionItemStatus(status) !== "active")
  .map((status) => `WHEN t.status = '${status}' THEN '${subscriptionItemStatus(status)}'`)
  .join(" ")} ELSE 'active' END`;

/** showsBillingPeriod in SQL: true when the row `t` shows no billing period. */
const WITHOUT_PERIOD = `t.status IN (${STATUSES_WITHOUT_PERIOD.map((status) => `'${status}'`).join(", ")})`;

/** `items`: each with its price and product snapshots, in the subscription's order. */
export const SUBSCRIPTION_ITEMS = `(SELECT coalesce(json_agg(${jsonRecord([
  ["status", ITEM_STATUS],
  ["quantity", "i.quantity"],
  ["recurring", "i.recurring"],
  ["created_at", ts("i.created_at")],
  ["updated_at", ts("i.updated_at")],
  ["previously_billed_at", ts("i.previously_billed_at")],
  ["next_billed_at", `CASE WHEN ${WITHOUT_PERIOD} THEN NULL ELSE ${ts("t.next_billed_at")} END`],
  ["trial_dates", period("i.trial_starts_at", "i.trial_ends_at")],
  ["price", "i.price"],
  ["product", "i.product"],
])} ORDER BY i.position), '[]'::json) FROM subscription_items i WHERE i.subscription_id = t.id)`;

const DISCOUNT = `CASE WHEN t.discount_id IS NULL THEN NULL ELSE ${jsonRecord([
  ["id", "t.discount_id"],
  ["starts_at", ts("t.discount_starts_at")],
  ["ends_at", ts("t.discount_ends_at")],
])} END`;

const SCHEDULED_CHANGE = `CASE WHEN t.scheduled_change IS NULL THEN NULL ELSE ${jsonRecord([
  ["action", "t.scheduled_change->>'action'"],
  ["effective_at", ts("(t.scheduled_change->>'effective_at')::timestamptz")],
  ["resume_at", ts("(t.scheduled_change->>'resume_at')::timestamptz")],
])} END`;

/**
 * The portal's deep links, plain: the SQL twin of lib/services/portal/links.ts managementUrls
 * (lib/services/subscriptions/subscription-shape.test.ts holds the two together). Opened without
 * a token, the portal explains that the link is to be opened from the merchant's app or email.
 */
const MANAGEMENT_URLS = jsonRecord([
  [
    "update_payment_method",
    `CASE WHEN t.collection_mode = 'automatic' THEN ${sqlText(`${config.publicUrl}/portal/subscriptions/`)} || t.id || '/update-payment-method' END`,
  ],
  ["cancel", `${sqlText(`${config.publicUrl}/portal/subscriptions/`)} || t.id || '/cancel'`],
]);

const FIELDS_BEFORE_URLS: (readonly [string, string])[] = [
  ["id", "t.id"],
  ["status", "t.status"],
  ["customer_id", "t.customer_id"],
  ["address_id", "t.address_id"],
  ["business_id", "t.business_id"],
  ["currency_code", "t.currency_code"],
  ["created_at", ts("t.created_at")],
  ["updated_at", ts("t.updated_at")],
  ["started_at", ts("t.started_at")],
  ["first_billed_at", ts("t.first_billed_at")],
  ["next_billed_at", ts("t.next_billed_at")],
  ["paused_at", ts("t.paused_at")],
  ["canceled_at", ts("t.canceled_at")],
  ["discount", DISCOUNT],
  ["collection_mode", "t.collection_mode"],
  ["billing_details", billingDetailsJson("t.billing_details")],
  [
    "current_billing_period",
    `CASE WHEN ${WITHOUT_PERIOD} THEN NULL ELSE ${period("t.current_period_starts_at", "t.current_period_ends_at")} END`,
  ],
  [
    "billing_cycle",
    jsonRecord([
      ["interval", "t.billing_cycle_interval"],
      ["frequency", "t.billing_cycle_frequency"],
    ]),
  ],
  ["scheduled_change", SCHEDULED_CHANGE],
];

const FIELDS_AFTER_URLS: (readonly [string, string])[] = [
  ["items", SUBSCRIPTION_ITEMS],
  ["custom_data", "t.custom_data"],
  ["import_meta", "t.import_meta"],
  ["consent_requirements", "'[]'::json"],
];

/** The subscription's API shape (spec: Subscription). */
export const SUBSCRIPTION: EntityTable<Subscription> = {
  table: "subscriptions",
  fields: [...FIELDS_BEFORE_URLS, ["management_urls", MANAGEMENT_URLS], ...FIELDS_AFTER_URLS],
};

/** What events carry: the entity without `management_urls`, as in the API family. */
export const SUBSCRIPTION_EVENT_FIELDS: readonly (readonly [string, string])[] = [
  ...FIELDS_BEFORE_URLS,
  ...FIELDS_AFTER_URLS,
];

/**
 * The list's `include` (ours): the subscription's customer and business after its own fields,
 * each left out when there is none (SQL NULL), as a transaction's includes are.
 */
const INCLUDED: Record<SubscriptionListInclude, string> = {
  customer: relatedJson(CUSTOMER, "t.id = parent.customer_id", false),
  business: relatedJson(BUSINESS, "t.id = parent.business_id", false),
};
const INCLUDE_ORDER = Object.keys(INCLUDED) as SubscriptionListInclude[];
const withIncludes = new Map<string, EntityTable<Subscription>>();

/** The subscription entity with the fields the list's `include` asks for. */
export function subscriptionEntity(include?: readonly SubscriptionListInclude[]): EntityTable<Subscription> {
  if (!include?.length) return SUBSCRIPTION;
  const names = INCLUDE_ORDER.filter((name) => include.includes(name));
  const key = names.join(",");
  let entity = withIncludes.get(key);
  if (!entity) {
    entity = { ...SUBSCRIPTION, optional: names.map((n) => [n, INCLUDED[n]] as const) };
    withIncludes.set(key, entity);
  }
  return entity;
}
