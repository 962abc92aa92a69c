/**
 * The `webhooks` of our OpenAPI document (lib/http/openapi.ts): one per event type of the
 * catalogue, named and shaped as the API family's (`api_key.created`, operationId
 * `api-key-created`, the signed notification payload as its body), from the payload schemas of
 * lib/schemas/event-payloads.ts.
 */
import type { z } from "zod";
import { SIGNATURE_HEADER } from "../events/signature.ts";
import { EVENT_PAYLOADS } from "../schemas/event-payloads.ts";
import type { Components } from "./openapi.ts";

type JsonSchema = Record<string, unknown>;

/** `api_key.created` → `ApiKeyCreated`. */
function pascal(eventType: string): string {
  return eventType
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

/**
 * Component names of the event schemas: an event of GET /events is `ApiKeyCreatedEvent`, a
 * notification's payload the family's name, `api_key.created`; the data of a notification whose
 * sensitive fields may be null is `<the entity's>InNotification` (named by the caller once the
 * entity's own name is known).
 */
export function eventSchemaNames(): [string, z.ZodType][] {
  return EVENT_PAYLOADS.flatMap(({ type, event, notification }) => [
    [`${pascal(type.name)}Event`, event] as [string, z.ZodType],
    [type.name, notification] as [string, z.ZodType],
  ]);
}

/**
 * Makes the event schemas components of their own (an event of GET /events, its data, a
 * notification's data), so that the union of events and each webhook refer to them instead of
 * repeating them inline. A notification's data whose sensitive fields may be null is named after
 * the event's data: `TransactionInNotification`.
 */
function registerEventSchemas(components: Components): void {
  for (const { type, event, notification } of EVENT_PAYLOADS) {
    const own = event.shape.data as z.ZodType;
    const data = notification.shape.data as z.ZodType;
    const ownName = components.names.get(own) ?? `${pascal(type.name)}Data`;
    components.ref(own, "output", ownName);
    components.ref(event, "output", `${pascal(type.name)}Event`);
    if (data !== own) components.ref(data, "output", `${ownName}InNotification`);
  }
}

/** The family's: `api_key.created` → `api-key-created`, `transaction.payment_failed` → `transaction-payment_failed`. */
function operationId(eventType: string): string {
  const dot = eventType.lastIndexOf(".");
  return `${eventType.slice(0, dot).replaceAll("_", "-")}-${eventType.slice(dot + 1)}`;
}

const SIGNATURE = SIGNATURE_HEADER.replaceAll("-", "");

export const SIGNATURE_PARAMETER = {
  [SIGNATURE]: {
    name: SIGNATURE_HEADER,
    in: "header",
    required: true,
    description:
      'The signature of the delivery: `ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">`, keyed by the destination\'s `endpoint_secret_key`. Recompute h1 over the raw body to verify it.',
    schema: {
      type: "string",
      examples: ["ts=1671552777;h1=eb4d0dc8853be92b7f063b9f3ba5233eb920a09459b6e6b2c26705b4364db151"],
    },
  },
};

export function webhooks(components: Components): Record<string, JsonSchema> {
  registerEventSchemas(components);
  return Object.fromEntries(
    [...EVENT_PAYLOADS]
      .sort((a, b) => a.type.name.localeCompare(b.type.name))
      .map(({ type, notification }) => [
        type.name,
        {
          post: {
            security: [],
            summary: type.name,
            tags: [type.group],
            description: type.description,
            operationId: operationId(type.name),
            parameters: [{ $ref: `#/components/parameters/${SIGNATURE}` }],
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: components.ref(notification, "output", type.name),
                },
              },
            },
            responses: {
              "200": {
                description:
                  "Answer with a 2xx status within the delivery timeout (5 seconds unless BILLING_WEBHOOK_TIMEOUT says otherwise) to acknowledge the notification; any other answer, or none, is retried with exponential backoff.",
              },
            },
          },
        },
      ]),
  );
}
