/**
 * Subscriptions (spec: Subscription; decisions in docs/decisions/): the response shape,
 * path and query parameters, and the request bodies of every subscription operation. Client-safe:
 * the dashboard's forms use these schemas too.
 */
import { z } from "zod";
import { PRORATION_BILLING_MODES, type ProrationBillingMode } from "../billing/proration.ts";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "../billing/subscription-states.ts";
import { businessSchema } from "./business.ts";
import { csv, customData, dateTime, entityId, includeParam, listQuery } from "./common.ts";
import { customerSchema } from "./customer.ts";
import { INTERVALS } from "./price.ts";
import { productSchema } from "./product.ts";
import {
  billingDetails,
  billingDetailsSchema,
  COLLECTION_MODES,
  MANUAL_CURRENCIES,
  MAX_ITEMS,
  nonCataloguePrice,
  transactionDetailsSchema,
  transactionLineItemSchema,
  transactionTotalsSchema,
} from "./transaction.ts";

export { SUBSCRIPTION_STATUSES, type SubscriptionStatus };

export const SUBSCRIPTION_ITEM_STATUSES = ["active", "inactive", "trialing"] as const;

export const SCHEDULED_CHANGE_ACTIONS = ["cancel", "pause", "resume"] as const;
export type ScheduledChangeAction = (typeof SCHEDULED_CHANGE_ACTIONS)[number];

export { PRORATION_BILLING_MODES, type ProrationBillingMode };

export const ON_PAYMENT_FAILURE = ["prevent_change", "apply_change"] as const;
export const ON_RESUME = ["start_new_billing_period", "continue_existing_billing_period"] as const;
export type OnResume = (typeof ON_RESUME)[number];

export { MANUAL_CURRENCIES };

const period = z.object({ starts_at: z.string(), ends_at: z.string() });
const cycle = z.object({ interval: z.enum(INTERVALS), frequency: z.number().int() });

/** A subscription item as the API returns it: the price and product as they were when added. */
export const subscriptionItemSchema = z.object({
  status: z.enum(SUBSCRIPTION_ITEM_STATUSES),
  quantity: z.number().int(),
  recurring: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  previously_billed_at: z.string().nullable(),
  next_billed_at: z.string().nullable(),
  trial_dates: period.nullable(),
  price: z.record(z.string(), z.unknown()),
  product: productSchema.or(z.record(z.string(), z.unknown())),
});

export const scheduledChangeSchema = z.object({
  action: z.enum(SCHEDULED_CHANGE_ACTIONS),
  effective_at: z.string(),
  resume_at: z.string().nullable(),
});
export type ScheduledChange = z.infer<typeof scheduledChangeSchema>;

/** A preview of a transaction the subscription will bill (`next_transaction`, previews). */
export const transactionPreviewSchema = z.object({
  billing_period: period,
  details: z.object({
    tax_rates_used: transactionDetailsSchema.shape.tax_rates_used,
    totals: transactionTotalsSchema,
    // price_id is null for a non-catalogue price a preview shows before it is created.
    line_items: z.array(transactionLineItemSchema.omit({ id: true }).extend({ price_id: z.string().nullable() })),
  }),
  adjustments: z.array(z.record(z.string(), z.unknown())),
});

/** The subscription as the API returns it (spec: Subscription), in the API family's field order. */
export const subscriptionSchema = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  customer_id: z.string(),
  address_id: z.string(),
  business_id: z.string().nullable(),
  currency_code: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  first_billed_at: z.string().nullable(),
  next_billed_at: z.string().nullable(),
  paused_at: z.string().nullable(),
  canceled_at: z.string().nullable(),
  discount: z.object({ id: z.string(), starts_at: z.string().nullable(), ends_at: z.string().nullable() }).nullable(),
  collection_mode: z.enum(COLLECTION_MODES),
  billing_details: billingDetailsSchema.nullable(),
  current_billing_period: period.nullable(),
  billing_cycle: cycle,
  scheduled_change: scheduledChangeSchema.nullable(),
  management_urls: z.object({ update_payment_method: z.string().nullable(), cancel: z.string() }),
  items: z.array(subscriptionItemSchema),
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  import_meta: z.record(z.string(), z.unknown()).nullable(),
  consent_requirements: z.array(z.unknown()),
  next_transaction: transactionPreviewSchema.nullable().optional(),
  recurring_transaction_details: transactionPreviewSchema.shape.details.optional(),
  /** Ours, on the list with `include=customer` / `business`: left out when there is none. */
  customer: customerSchema.optional(),
  business: businessSchema.optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

const money = z.object({ amount: z.string(), currency_code: z.string() });

/**
 * The answer of PATCH /subscriptions/{id}/preview and POST /subscriptions/{id}/charge/preview (the
 * API family's SubscriptionPreview): the subscription as it would be, without `id`, with the
 * transaction billed now (null when none), the next one, the plain renewal and the change's summary.
 */
export const subscriptionPreviewSchema = subscriptionSchema
  .omit({
    id: true,
    consent_requirements: true,
    next_transaction: true,
    recurring_transaction_details: true,
    customer: true,
    business: true,
  })
  .extend({
    immediate_transaction: transactionPreviewSchema.nullable(),
    next_transaction: transactionPreviewSchema.nullable(),
    recurring_transaction_details: transactionPreviewSchema.shape.details,
    update_summary: z.object({
      credit: money,
      charge: money,
      result: money.extend({ action: z.enum(["credit", "charge"]) }),
    }),
  });
export type SubscriptionPreview = z.infer<typeof subscriptionPreviewSchema>;

// ---------------------------------------------------------------------------------------------
// Parameters

export const subscriptionParams = z.object({ subscription_id: entityId("sub") });

export const SUBSCRIPTION_INCLUDES = ["next_transaction", "recurring_transaction_details"] as const;
export type SubscriptionInclude = (typeof SUBSCRIPTION_INCLUDES)[number];
export const subscriptionQuery = z.object({ include: includeParam(SUBSCRIPTION_INCLUDES).optional() });

/**
 * Ours on the list (the family's takes no `include`): the customer and business of each
 * subscription, read with the page in one query, so a list titled by names costs no request per row.
 */
export const SUBSCRIPTION_LIST_INCLUDES = ["customer", "business"] as const;
export type SubscriptionListInclude = (typeof SUBSCRIPTION_LIST_INCLUDES)[number];

/** As in the API family: order by id only, newest first unless asked. */
export const listSubscriptionsQuery = z.object({
  include: includeParam(SUBSCRIPTION_LIST_INCLUDES).optional(),
  ...listQuery(["id"], "desc"),
  id: csv(entityId("sub")).optional(),
  address_id: csv(entityId("add")).optional(),
  customer_id: csv(entityId("ctm")).optional(),
  price_id: csv(entityId("pri")).optional(),
  collection_mode: z.enum(COLLECTION_MODES, { error: `must be one of ${COLLECTION_MODES.join(", ")}` }).optional(),
  scheduled_change_action: csv(
    z.enum(SCHEDULED_CHANGE_ACTIONS, { error: `must be one of ${SCHEDULED_CHANGE_ACTIONS.join(", ")}` }),
  ).optional(),
  status: csv(
    z.enum(SUBSCRIPTION_STATUSES, { error: `must be one of ${SUBSCRIPTION_STATUSES.join(", ")}` }),
  ).optional(),
  // Ours, for the dashboard: next billing date range.
  "next_billed_at[GTE]": dateTime.optional(),
  "next_billed_at[LT]": dateTime.optional(),
});
export type ListSubscriptionsQuery = z.infer<typeof listSubscriptionsQuery>;

// ---------------------------------------------------------------------------------------------
// Request bodies

const quantity = z
  .number({ error: "must be a whole number" })
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(999_999_999, "must be at most 999999999");

/** An item of PATCH: a catalogue price (quantity optional for one already on the subscription) or a non-catalogue price. */
export const subscriptionItemInput = z.union(
  [
    z.strictObject({ price_id: entityId("pri"), quantity: quantity.optional() }),
    z.strictObject({ price: nonCataloguePrice, quantity: quantity.optional() }),
  ],
  { error: "must be an object with price_id (or a non-catalogue price) and quantity" },
);
export type SubscriptionItemInput = z.infer<typeof subscriptionItemInput>;

const items = z
  .array(subscriptionItemInput, { error: "must be an array of items" })
  .min(1, `must have 1 to ${MAX_ITEMS} items`)
  .max(MAX_ITEMS, `must have 1 to ${MAX_ITEMS} items`);

export const updateSubscriptionBody = z.strictObject({
  customer_id: entityId("ctm").optional(),
  address_id: entityId("add").optional(),
  business_id: entityId("biz").nullable().optional(),
  currency_code: z.string().length(3, "must be a three-letter currency code").optional(),
  next_billed_at: dateTime.optional(),
  discount: z
    .strictObject({
      id: entityId("dsc"),
      effective_from: z.enum(["immediately", "next_billing_period"], {
        error: "must be immediately or next_billing_period",
      }),
    })
    .nullable()
    .optional(),
  collection_mode: z.enum(COLLECTION_MODES, { error: "must be automatic or manual" }).optional(),
  billing_details: billingDetails.nullable().optional(),
  scheduled_change: z.null({ error: "can only be null (it removes the scheduled change)" }).optional(),
  items: items.optional(),
  custom_data: customData.optional(),
  proration_billing_mode: z
    .enum(PRORATION_BILLING_MODES, { error: `must be one of ${PRORATION_BILLING_MODES.join(", ")}` })
    .optional(),
  on_payment_failure: z.enum(ON_PAYMENT_FAILURE, { error: "must be prevent_change or apply_change" }).optional(),
});
export type UpdateSubscriptionInput = z.infer<typeof updateSubscriptionBody>;

export const pauseSubscriptionBody = z
  .strictObject({
    effective_from: z
      .enum(["next_billing_period", "immediately"], { error: "must be next_billing_period or immediately" })
      .nullable()
      .optional(),
    resume_at: dateTime.nullable().optional(),
    on_resume: z.enum(ON_RESUME, { error: `must be one of ${ON_RESUME.join(", ")}` }).optional(),
  })
  .optional();
export type PauseSubscriptionInput = z.infer<typeof pauseSubscriptionBody>;

export const resumeSubscriptionBody = z
  .strictObject({
    effective_from: z
      .union([z.literal("immediately"), dateTime], {
        error: "must be immediately or an RFC 3339 date-time",
      })
      .nullable()
      .optional(),
    on_resume: z.enum(ON_RESUME, { error: `must be one of ${ON_RESUME.join(", ")}` }).optional(),
  })
  .optional();
export type ResumeSubscriptionInput = z.infer<typeof resumeSubscriptionBody>;

export const cancelSubscriptionBody = z
  .strictObject({
    effective_from: z
      .enum(["next_billing_period", "immediately"], { error: "must be next_billing_period or immediately" })
      .nullable()
      .optional(),
  })
  .optional();
export type CancelSubscriptionInput = z.infer<typeof cancelSubscriptionBody>;

export const chargeSubscriptionBody = z.strictObject({
  effective_from: z.enum(["next_billing_period", "immediately"], {
    error: "must be next_billing_period or immediately",
  }),
  items: z
    .array(
      z.union(
        [
          z.strictObject({ price_id: entityId("pri"), quantity }),
          z.strictObject({ price: nonCataloguePrice, quantity }),
        ],
        { error: "must be an object with price_id (or a non-catalogue price) and quantity" },
      ),
      { error: "must be an array of items" },
    )
    .min(1, `must have 1 to ${MAX_ITEMS} items`)
    .max(MAX_ITEMS, `must have 1 to ${MAX_ITEMS} items`),
  on_payment_failure: z.enum(ON_PAYMENT_FAILURE, { error: "must be prevent_change or apply_change" }).optional(),
});
export type ChargeSubscriptionInput = z.infer<typeof chargeSubscriptionBody>;

/** Sandbox test clock (ours): move the subscription's clock forward to `to`. */
export const advanceTestClockBody = z.strictObject({ to: dateTime });
export type AdvanceTestClockInput = z.infer<typeof advanceTestClockBody>;

/** Sandbox test clock (ours): where the subscription's clock stands, for the dashboard to show and move on from. */
export const testClockSchema = z.object({
  subscription_id: z.string(),
  /** The subscription's now: the time its test clock was moved to, or the real time once that is later. */
  now: z.string(),
});
export type TestClock = z.infer<typeof testClockSchema>;
