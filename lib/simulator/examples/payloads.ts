/**
 * One example payload per event type: the example entity of the event's kind, in the state the
 * event describes (a single-event simulation's payload). Client-safe (see common.ts).
 */
import { exampleCast } from "./cast.ts";
import { EXAMPLE_START, type Json, later } from "./common.ts";
import {
  exampleAddress,
  exampleAdjustment,
  exampleApiKey,
  exampleBusiness,
  exampleClientToken,
  exampleCustomer,
  exampleDiscount,
  exampleDiscountGroup,
  examplePaymentMethod,
  examplePayout,
  examplePrice,
  exampleProduct,
  exampleReport,
} from "./entities.ts";
import { billingPeriod, exampleSubscription, type SubscriptionState } from "./subscription.ts";
import { exampleTransaction, type PaymentAttempt, type TransactionState } from "./transaction.ts";

const T0 = EXAMPLE_START;

/** The entity kind of an event type: `subscription` for `subscription.created`. */
export function entityKind(eventType: string): string {
  return eventType.slice(0, eventType.indexOf("."));
}

const TRANSACTION_STATUS: Record<string, TransactionState["status"]> = {
  created: "draft",
  updated: "ready",
  ready: "ready",
  billed: "billed",
  paid: "paid",
  completed: "completed",
  canceled: "canceled",
  past_due: "past_due",
  payment_failed: "ready",
  revised: "completed",
};

function transactionFor(event: string): Json {
  const cast = exampleCast();
  const status = TRANSACTION_STATUS[event] ?? "ready";
  const settled = status === "paid" || status === "completed";
  const payments: PaymentAttempt[] = event === "payment_failed" ? ["error"] : settled ? ["captured"] : [];
  const at = later(T0, 5);
  return exampleTransaction(cast, {
    status,
    origin: "web",
    customer: status !== "draft",
    business: false,
    discount: true,
    subscription: status === "completed",
    billingPeriod: status === "completed" ? billingPeriod(cast, 0) : null,
    invoice: status === "completed",
    payments,
    fees: status === "completed",
    createdAt: T0,
    updatedAt: at,
    billedAt: ["billed", "paid", "completed", "past_due"].includes(status) ? at : null,
    revisedAt: event === "revised" ? later(T0, 60) : null,
  });
}

const SUBSCRIPTION_STATUS: Record<string, SubscriptionState["status"]> = {
  canceled: "canceled",
  past_due: "past_due",
  paused: "paused",
  trialing: "trialing",
};

function subscriptionFor(event: string): Json {
  const cast = exampleCast();
  const status = SUBSCRIPTION_STATUS[event] ?? "active";
  const at = later(T0, 5);
  return exampleSubscription(cast, {
    status,
    period: 0,
    scheduledChange: null,
    pausedAt: status === "paused" ? at : null,
    canceledAt: status === "canceled" ? at : null,
    updatedAt: at,
    transactionId: event === "created" ? cast.transactionId : undefined,
  });
}

/** The example entity of `eventType`'s kind, in the state the event describes. */
export function examplePayload(eventType: string): Json {
  const kind = entityKind(eventType);
  const event = eventType.slice(kind.length + 1);
  const at = later(T0, 5);
  switch (kind) {
    case "address":
      return { ...exampleAddress() };
    case "adjustment":
      return event === "created" ? { ...exampleAdjustment(), status: "pending_approval" } : exampleAdjustment();
    case "api_key": {
      const key: Json = { ...exampleApiKey() };
      if (event === "revoked") Object.assign(key, { status: "revoked", revoked_at: at, updated_at: at });
      if (event === "expired") Object.assign(key, { status: "expired", expires_at: at, updated_at: at });
      if (event === "expiring") Object.assign(key, { expires_at: "2024-09-25T12:00:00.000000Z" });
      return key;
    }
    case "business":
      return { ...exampleBusiness() };
    case "client_token": {
      const token = exampleClientToken();
      if (event === "revoked") Object.assign(token, { status: "revoked", revoked_at: at, updated_at: at });
      return token;
    }
    case "customer":
      return { ...exampleCustomer() };
    case "discount":
      return { ...exampleDiscount() };
    case "discount_group":
      return { ...exampleDiscountGroup() };
    case "payment_method":
      return event === "deleted" ? { ...examplePaymentMethod(), deletion_reason: "api" } : examplePaymentMethod();
    case "payout":
      return event === "created" ? { ...examplePayout(), status: "unpaid" } : examplePayout();
    case "price":
      return { ...examplePrice() };
    case "product":
      return { ...exampleProduct() };
    case "report":
      return event === "created" ? { ...exampleReport(), status: "pending", rows: null } : exampleReport();
    case "subscription":
      return subscriptionFor(event);
    case "transaction":
      return transactionFor(event);
    default:
      throw new Error(`no example for event type ${eventType}`);
  }
}
