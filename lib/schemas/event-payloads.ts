/**
 * What each event of the catalogue (lib/events/catalogue.ts) carries as `data`: the entity its
 * type's prefix names, as our API returns it, without the parts an event leaves out (includes,
 * links for the API's caller). The one place that maps an event type to its payload: GET /events,
 * the notifications' payloads, the `webhooks` of our OpenAPI document (lib/http/openapi.ts) and the
 * strict checks of stored events and simulator examples (lib/dev/test/setup.ts,
 * lib/schemas/event-payloads.test.ts) all read it.
 *
 * Only tests and the OpenAPI document parse with these schemas: events are written as SQL-built
 * JSON and read back as is, never validated on the hot path.
 */
import { z } from "zod";
import { EVENT_TYPES, type EventType } from "../events/catalogue.ts";
import { addressSchema } from "./address.ts";
import { adjustmentSchema } from "./adjustment.ts";
import { apiKeySchema } from "./api-key.ts";
import { businessSchema } from "./business.ts";
import { clientTokenSchema } from "./client-token.ts";
import { customerSchema } from "./customer.ts";
import { discountSchema } from "./discount.ts";
import { discountGroupSchema } from "./discount-group.ts";
import { paymentMethodSchema } from "./payment-method.ts";
import { priceSchema } from "./price.ts";
import { productSchema } from "./product.ts";
import { reportSchema } from "./report.ts";
import { subscriptionSchema } from "./subscription.ts";
import { transactionSchema } from "./transaction.ts";

/**
 * A payout as payout events carry it (the API family's Payout Notification). We make no payouts:
 * only the webhook simulator sends these events.
 */
export const payoutSchema = z.object({
  id: z.string(),
  status: z.enum(["unpaid", "paid"]),
  amount: z.string(),
  currency_code: z.string(),
});

/** The discount in its events: never with its group or revision (those are includes of reads). */
export const discountEventDataSchema = discountSchema.omit({ discount_group: true, revision_id: true });

/**
 * The subscription in its events, without the includes of reads. The events we store leave
 * `management_urls` out (links for the API's caller, not for stored payloads:
 * lib/db/entities/subscription.ts); the webhook simulator's examples carry the family's example
 * links, which deliveries redact (a sensitive field), so the key is optional here.
 */
export const subscriptionEventDataSchema = subscriptionSchema
  .omit({
    next_transaction: true,
    recurring_transaction_details: true,
    customer: true,
    business: true,
  })
  .extend({ management_urls: subscriptionSchema.shape.management_urls.optional() });

/**
 * The events a subscription's creation writes (subscription.created, then .activated or
 * .trialing) also carry the ID of the transaction that created it, as the family's
 * subscription.created does; a subscription created without one has no such key.
 */
export const subscriptionCreationEventDataSchema = subscriptionEventDataSchema.extend({
  transaction_id: z.string().optional(),
});

/** A deleted saved payment method, with why it was deleted (the family's two reasons). */
export const paymentMethodDeletedEventDataSchema = paymentMethodSchema.extend({
  deletion_reason: z.enum(["replaced_by_newer_version", "api"]),
});

/** The payload of each family of events: the event type's prefix (`subscription` of `subscription.created`). */
const DATA_OF_FAMILY: Record<string, z.ZodObject> = {
  address: addressSchema,
  adjustment: adjustmentSchema,
  api_key: apiKeySchema,
  business: businessSchema,
  client_token: clientTokenSchema,
  customer: customerSchema,
  discount: discountEventDataSchema,
  discount_group: discountGroupSchema,
  payment_method: paymentMethodSchema,
  payout: payoutSchema,
  price: priceSchema,
  product: productSchema,
  report: reportSchema,
  subscription: subscriptionEventDataSchema,
  transaction: transactionSchema,
};

/** Event types whose payload is not their family's. */
const DATA_OF_TYPE: Record<string, z.ZodObject> = {
  "payment_method.deleted": paymentMethodDeletedEventDataSchema,
  "subscription.created": subscriptionCreationEventDataSchema,
  "subscription.activated": subscriptionCreationEventDataSchema,
  "subscription.trialing": subscriptionCreationEventDataSchema,
};

/** `subscription` of `subscription.created`. */
export function eventFamily(eventType: string): string {
  return eventType.slice(0, eventType.lastIndexOf("."));
}

function dataSchemaOf(eventType: string): z.ZodObject {
  const schema = DATA_OF_TYPE[eventType] ?? DATA_OF_FAMILY[eventFamily(eventType)];
  if (!schema) throw new Error(`no payload schema for the event family of ${eventType}: add it to DATA_OF_FAMILY`);
  return schema;
}

/**
 * Fields a notification destination receives as null unless it includes sensitive fields
 * (`include_sensitive_fields`): the twin of the SQL function sensitive_fields(), held together by
 * lib/schemas/event-payloads.test.ts. Events themselves (GET /events) carry them whole.
 */
export const SENSITIVE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  transaction: ["payments", "checkout"],
  subscription: ["management_urls"],
  business: ["tax_identifier"],
  adjustment: ["payout_totals"],
};

const eventFields = {
  event_id: z.string(),
  occurred_at: z.string(),
};

function eventOf(type: string, data: z.ZodType) {
  return z.object({
    event_id: eventFields.event_id,
    event_type: z.literal(type),
    occurred_at: eventFields.occurred_at,
    data,
  });
}

const notificationData = new Map<z.ZodObject, z.ZodObject>();

/**
 * `data` as a notification carries it: the sensitive fields the event's data has may be null. One
 * schema per payload schema (all transaction events share one), which the OpenAPI document names.
 */
function notificationDataSchema(eventType: string, data: z.ZodObject): z.ZodObject {
  const sensitive = SENSITIVE_FIELDS[eventFamily(eventType)] ?? [];
  const fields = Object.entries(data.shape).filter(([key]) => sensitive.includes(key));
  if (fields.length === 0) return data;
  let redactable = notificationData.get(data);
  if (!redactable) {
    redactable = data.extend(Object.fromEntries(fields.map(([key, field]) => [key, field.nullable()])));
    notificationData.set(data, redactable);
  }
  return redactable;
}

/**
 * A notification's payload of each type, the body of a webhook delivery (the family's
 * `address.created`, …): the event with the notification's ID, its sensitive fields null unless
 * the destination includes them.
 */
function notificationOf(type: string, data: z.ZodObject) {
  return z.object({
    event_id: eventFields.event_id,
    event_type: z.literal(type),
    occurred_at: eventFields.occurred_at,
    notification_id: z.string(),
    data: notificationDataSchema(type, data),
  });
}

/**
 * Every event type of the catalogue, in its order, with its schemas: its `data`, the event as
 * GET /events returns it, and the notification's payload. The maps below are keyed views of it.
 */
export const EVENT_PAYLOADS: readonly {
  type: EventType;
  data: z.ZodObject;
  event: z.ZodObject;
  notification: z.ZodObject;
}[] = EVENT_TYPES.map((type) => {
  const data = dataSchemaOf(type.name);
  return { type, data, event: eventOf(type.name, data), notification: notificationOf(type.name, data) };
});

/** Every event type of the catalogue → the schema of its `data`. */
export const EVENT_DATA_SCHEMAS: Readonly<Record<string, z.ZodObject>> = Object.fromEntries(
  EVENT_PAYLOADS.map((payload) => [payload.type.name, payload.data]),
);

/** An event of each type as GET /events returns it. */
export const EVENT_SCHEMAS: Readonly<Record<string, z.ZodObject>> = Object.fromEntries(
  EVENT_PAYLOADS.map((payload) => [payload.type.name, payload.event]),
);

/** A notification's payload of each type. */
export const NOTIFICATION_PAYLOAD_SCHEMAS: Readonly<Record<string, z.ZodObject>> = Object.fromEntries(
  EVENT_PAYLOADS.map((payload) => [payload.type.name, payload.notification]),
);

/** A notification's payload of any type (GET /notifications), by its `event_type`. */
export const notificationPayloadSchema = z.discriminatedUnion(
  "event_type",
  Object.values(NOTIFICATION_PAYLOAD_SCHEMAS) as [z.ZodObject, ...z.ZodObject[]],
);
