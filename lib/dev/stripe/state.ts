/**
 * What the stand-in remembers, per Stripe account (one account per configured key pair): its
 * objects by ID, the side facts Stripe keeps but does not show (a card's test behaviour, whether
 * it was set up for future use, which request created a charge), stored idempotent answers, and
 * its events. All in memory: `reset()` forgets everything but the accounts and their webhook
 * endpoints.
 */
import Stripe from "stripe";
import type { Behaviour } from "./cards.ts";
import { missing } from "./errors.ts";
import { newId, now } from "./objects.ts";

/** The API version the package speaks, stamped on events (an account's default version). */
export const API_VERSION: string = Stripe.API_VERSION;

export interface AccountConfig {
  /** `sk_test_…`/`sk_live_…` (and any `rk_…` restricted keys, which the stand-in treats alike). */
  secretKey: string;
  publishableKey: string;
  name: string;
  country: string;
  defaultCurrency: string;
  email?: string | null;
  /** Where events are POSTed, signed with `webhookSecret` (`whsec_…`). */
  webhookUrl?: string | null;
  webhookSecret?: string | null;
  /** More secret keys for the same account (a restricted key, a rolled key). */
  otherSecretKeys?: string[];
}

export interface StoredAnswer {
  fingerprint: string;
  method: string;
  path: string;
  status: number;
  body: string;
  requestId: string;
  createdAt: number;
}

export interface EventRecord {
  event: StripeEvent;
  /** The body as delivered (pretty-printed, as Stripe sends it), made at the first delivery: a redelivery sends the same bytes. */
  json: string | null;
  /** held: waiting for release; pending: queued; delivered / failed: last attempt's outcome; none: no endpoint. */
  delivery: "held" | "pending" | "delivered" | "failed" | "none";
  attempts: DeliveryAttempt[];
}

export interface DeliveryAttempt {
  at: number;
  url: string;
  signature: "valid" | "stale" | "invalid" | "none";
  status: number | null;
  error: string | null;
  body: string | null;
}

export interface StripeEvent {
  id: string;
  object: "event";
  account?: string;
  api_version: string | null;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: boolean;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null } | null;
  type: string;
}

export interface PaymentMethodFacts {
  behaviour: Behaviour;
  /** Set up for future use (a succeeded SetupIntent or a payment with setup_future_usage). */
  setUp: boolean;
  /** Used by a payment while attached to no customer: Stripe refuses to use it again. */
  consumed: boolean;
  /** The card number's last digits and brand are on the object; the number itself stays here. */
  number: string;
}

export interface IntentFacts {
  /** The payment method whose 3-D Secure challenge the customer passed for this intent. */
  authenticatedMethod: string | null;
  /** The confirmation's off_session flag (a 3-D Secure completion keeps it). */
  offSession: boolean;
}

export interface ChargeFacts {
  /** The Idempotency-Key of the request that made the charge (null: a challenge or a test-control settle). */
  idempotencyKey: string | null;
}

type AnyObject = { id: string; object: string };

export class AccountState {
  readonly id: string;
  readonly created = now();
  readonly livemode: boolean;
  webhookUrl: string | null;
  webhookSecret: string | null;
  objects = new Map<string, AnyObject>();
  /** IDs by object type, in creation order (lists answer newest first). */
  byType = new Map<string, string[]>();
  methods = new Map<string, PaymentMethodFacts>();
  intents = new Map<string, IntentFacts>();
  charges = new Map<string, ChargeFacts>();
  /** Charge IDs per PaymentIntent, in order. */
  chargesByIntent = new Map<string, string[]>();
  /** Stored answers by `<api key>\n<idempotency key>` (keys are scoped per API key, as Stripe's are). */
  idempotency = new Map<string, StoredAnswer>();
  inFlight = new Set<string>();
  events: EventRecord[] = [];
  eventsById = new Map<string, EventRecord>();

  constructor(readonly config: AccountConfig) {
    this.id = newId("acct", 16);
    this.livemode = /^(sk|rk)_live_/.test(config.secretKey);
    this.webhookUrl = config.webhookUrl ?? null;
    this.webhookSecret = config.webhookSecret ?? null;
  }

  get secretKeys(): string[] {
    return [this.config.secretKey, ...(this.config.otherSecretKeys ?? [])];
  }

  reset(): void {
    this.objects.clear();
    this.byType.clear();
    this.methods.clear();
    this.intents.clear();
    this.charges.clear();
    this.chargesByIntent.clear();
    this.idempotency.clear();
    this.inFlight.clear();
    this.events = [];
    this.eventsById.clear();
  }

  put<T extends AnyObject>(object: T): T {
    if (!this.objects.has(object.id)) {
      const list = this.byType.get(object.object) ?? [];
      list.push(object.id);
      this.byType.set(object.object, list);
    }
    this.objects.set(object.id, object);
    return object;
  }

  find<T>(type: string, id: string): T | undefined {
    const object = this.objects.get(id);
    return object && object.object === type ? (object as T) : undefined;
  }

  /** The object or Stripe's 404 `resource_missing` ("No such payment_intent: 'pi_…'"). */
  get<T>(type: string, id: string, param = "id"): T {
    const found = this.find<T>(type, id);
    if (!found) throw missing(type, id, param);
    return found;
  }

  all<T>(type: string): T[] {
    return (this.byType.get(type) ?? []).map((id) => this.objects.get(id) as T);
  }

  paymentIntent(id: string, param = "id"): Stripe.PaymentIntent {
    return this.get<Stripe.PaymentIntent>("payment_intent", id, param);
  }

  setupIntent(id: string, param = "id"): Stripe.SetupIntent {
    return this.get<Stripe.SetupIntent>("setup_intent", id, param);
  }

  paymentMethod(id: string, param = "id"): Stripe.PaymentMethod {
    return this.get<Stripe.PaymentMethod>("payment_method", id, param);
  }

  /** A customer that exists (a deleted one is "No such customer", except to a plain retrieve). */
  customer(id: string, param = "id"): Stripe.Customer {
    const found = this.get<Stripe.Customer | Stripe.DeletedCustomer>("customer", id, param);
    if (found.deleted) throw missing("customer", id, param);
    return found as Stripe.Customer;
  }

  charge(id: string, param = "id"): Stripe.Charge {
    return this.get<Stripe.Charge>("charge", id, param);
  }

  refund(id: string, param = "id"): Stripe.Refund {
    return this.get<Stripe.Refund>("refund", id, param);
  }

  dispute(id: string, param = "id"): Stripe.Dispute {
    return this.get<Stripe.Dispute>("dispute", id, param);
  }

  balanceTransaction(id: string, param = "id"): Stripe.BalanceTransaction {
    return this.get<Stripe.BalanceTransaction>("balance_transaction", id, param);
  }

  methodFacts(id: string): PaymentMethodFacts {
    const facts = this.methods.get(id);
    if (!facts) throw new Error(`no facts for ${id}`);
    return facts;
  }

  intentFacts(id: string): IntentFacts {
    let facts = this.intents.get(id);
    if (!facts) {
      facts = { authenticatedMethod: null, offSession: false };
      this.intents.set(id, facts);
    }
    return facts;
  }
}

/** Who is calling, and for which request: what an endpoint and the events it emits need. */
export interface Context {
  account: AccountState;
  /** Called with a publishable key (Stripe.js): only client-secret operations are allowed. */
  publishable: boolean;
  requestId: string | null;
  idempotencyKey: string | null;
}

/** A JSON snapshot: events carry the object as it was when they happened. */
export function snapshot<T>(object: T): T {
  return JSON.parse(JSON.stringify(object)) as T;
}

/**
 * The event's data with snapshot's value, read only when the event is (sent to a webhook, listed, asserted on): the text
 * is taken now, the parse deferred. Most events are never read in a benchmark, and parsing them
 * all was the stand-in's largest cost.
 */
function lazyData(object: unknown, previous?: Record<string, unknown>): StripeEvent["data"] {
  const text = JSON.stringify(object);
  let value: unknown;
  return {
    get object(): unknown {
      value ??= JSON.parse(text);
      return value;
    },
    ...(previous ? { previous_attributes: previous } : {}),
  };
}

export function newEvent(ctx: Context, type: string, object: unknown, previous?: Record<string, unknown>): StripeEvent {
  return {
    id: newId("evt"),
    object: "event",
    api_version: API_VERSION,
    created: now(),
    data: lazyData(object, previous),
    livemode: ctx.account.livemode,
    pending_webhooks: ctx.account.webhookUrl ? 1 : 0,
    request: { id: ctx.requestId, idempotency_key: ctx.idempotencyKey },
    type,
  };
}
