/**
 * The webhook simulator's scenarios: each an ordered story of events whose payloads follow one cast
 * (customer, address, items, transaction, subscription) from step to step, with the config of a
 * scenario simulation (entities, options and their defaults).
 *
 * The scenario steps follow the API family's scenario descriptions: which events a checkout, a
 * renewal, a pause, a resume or a cancellation emits, in order, and how the options change them.
 *
 * Client-safe (the request schemas import the option lists from here).
 */
import { isEventType } from "../events/catalogue.ts";
import type { Cast } from "./examples/cast.ts";
import { type Json, later } from "./examples/common.ts";
import { examplePaymentMethod } from "./examples/entities.ts";
import { billingPeriod, exampleSubscription, type SubscriptionState } from "./examples/subscription.ts";
import { exampleTransaction, type PaymentAttempt, type TransactionState } from "./examples/transaction.ts";

// ---------------------------------------------------------------------------------------------
// Scenario names, entities and options (the config of POST /simulations)

export const SCENARIOS = [
  "subscription_creation",
  "subscription_renewal",
  "subscription_pause",
  "subscription_resume",
  "subscription_cancellation",
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** The keys of a simulation's `config`, in the API family's order. */
export const CONFIG_KEYS = [
  "subscription_cancellation",
  "subscription_creation",
  "subscription_pause",
  "subscription_renewal",
  "subscription_resume",
] as const satisfies readonly ScenarioName[];

export function isScenario(name: string): name is ScenarioName {
  return (SCENARIOS as readonly string[]).includes(name);
}

/** A simulation's `type`: an event type (a single event) or a scenario. */
export function isSimulationType(name: string): boolean {
  return isScenario(name) || isEventType(name);
}

export const CUSTOMER_SIMULATED_AS = ["new", "existing_email_matched", "existing_details_prefilled"] as const;
export const BUSINESS_SIMULATED_AS = ["not_provided", "new", "existing_details_prefilled"] as const;
export const DISCOUNT_SIMULATED_AS = ["not_provided", "prefilled", "entered_by_customer"] as const;
export const PAYMENT_OUTCOMES = [
  "success",
  "recovered_existing_payment_method",
  "recovered_updated_payment_method",
  "failed",
] as const;
export const DUNNING_EXHAUSTED_ACTIONS = ["subscription_paused", "subscription_canceled"] as const;
export const EFFECTIVE_FROM = ["next_billing_period", "immediately"] as const;

export interface CreationEntities {
  customer_id: string | null;
  address_id: string | null;
  business_id: string | null;
  payment_method_id: string | null;
  discount_id: string | null;
  transaction_id: string | null;
  items: { price_id: string; quantity: number }[] | null;
}
export interface CreationOptions {
  customer_simulated_as: (typeof CUSTOMER_SIMULATED_AS)[number];
  business_simulated_as: (typeof BUSINESS_SIMULATED_AS)[number];
  discount_simulated_as: (typeof DISCOUNT_SIMULATED_AS)[number];
}
export interface SubscriptionEntities {
  subscription_id: string | null;
}
export interface PaymentOptions {
  payment_outcome: (typeof PAYMENT_OUTCOMES)[number];
  dunning_exhausted_action: (typeof DUNNING_EXHAUSTED_ACTIONS)[number] | null;
}
export interface EffectiveOptions {
  effective_from: (typeof EFFECTIVE_FROM)[number];
  has_past_due_transaction: boolean;
}

export interface ScenarioConfigs {
  subscription_creation: { entities: CreationEntities; options: CreationOptions };
  subscription_renewal: { entities: SubscriptionEntities; options: PaymentOptions };
  subscription_pause: { entities: SubscriptionEntities; options: EffectiveOptions };
  subscription_resume: { entities: SubscriptionEntities; options: PaymentOptions };
  subscription_cancellation: { entities: SubscriptionEntities; options: EffectiveOptions };
}
export type ScenarioConfig = ScenarioConfigs[ScenarioName];

/** A simulation's whole `config`: every scenario key, only the simulation's own non-null. */
export type SimulationConfig = { [K in ScenarioName]: ScenarioConfigs[K] | null };

/** What a scenario config is when the request leaves parts out (the API family's defaults). */
export function defaultScenarioConfig<K extends ScenarioName>(name: K): ScenarioConfigs[K] {
  const subscription = { subscription_id: null };
  const payment: PaymentOptions = { payment_outcome: "success", dunning_exhausted_action: null };
  const effective: EffectiveOptions = { effective_from: "immediately", has_past_due_transaction: false };
  const defaults: ScenarioConfigs = {
    subscription_creation: {
      entities: {
        customer_id: null,
        address_id: null,
        business_id: null,
        payment_method_id: null,
        discount_id: null,
        transaction_id: null,
        items: null,
      },
      options: {
        customer_simulated_as: "new",
        business_simulated_as: "not_provided",
        discount_simulated_as: "not_provided",
      },
    },
    subscription_renewal: { entities: { ...subscription }, options: { ...payment } },
    subscription_pause: { entities: { ...subscription }, options: { ...effective } },
    subscription_resume: { entities: { ...subscription }, options: { ...payment } },
    subscription_cancellation: { entities: { ...subscription }, options: { ...effective } },
  };
  return defaults[name];
}

// ---------------------------------------------------------------------------------------------
// The stories

export interface SimulatedEvent {
  event_type: string;
  payload: Json;
}

/** Builds a story step by step; each step's time is a few minutes after the previous one. */
class Story {
  readonly events: SimulatedEvent[] = [];
  private minute = 0;

  constructor(private readonly start: string) {}

  /** The time of the next step. */
  tick(): string {
    this.minute += 1;
    return later(this.start, this.minute);
  }

  now(): string {
    return later(this.start, this.minute);
  }

  emit(eventType: string, payload: Json): void {
    this.events.push({ event_type: eventType, payload });
  }
}

function creation(cast: Cast, options: CreationOptions, named: { business: boolean; discount: boolean }): Story {
  const story = new Story(billingPeriod(cast, 0).starts_at);
  const prefilledCustomer = options.customer_simulated_as === "existing_details_prefilled";
  const hasBusiness = cast.business !== null && (named.business || options.business_simulated_as !== "not_provided");
  const prefilledBusiness = hasBusiness && options.business_simulated_as !== "new";
  const enteredDiscount = options.discount_simulated_as === "entered_by_customer";
  const hasDiscount = cast.discount !== null && (named.discount || options.discount_simulated_as !== "not_provided");
  const business = hasBusiness ? cast.business : null;
  const discount = hasDiscount ? cast.discount : null;
  const actors: Cast = { ...cast, business, discount };
  const created = story.now();
  const txn = (state: Partial<TransactionState>): Json =>
    exampleTransaction(actors, {
      status: "draft",
      origin: "web",
      customer: prefilledCustomer,
      business: prefilledBusiness,
      discount: hasDiscount && !enteredDiscount,
      subscription: false,
      billingPeriod: null,
      invoice: false,
      payments: [],
      fees: false,
      createdAt: created,
      updatedAt: story.now(),
      billedAt: null,
      ...state,
    });

  // 1. The customer opens a checkout (with their details when prefilled).
  story.emit("transaction.created", txn({ status: prefilledCustomer ? "ready" : "draft" }));
  if (prefilledCustomer) story.emit("transaction.ready", txn({ status: "ready" }));
  else {
    // 2. The customer enters their email (a new customer unless it matches one) and address.
    story.tick();
    if (options.customer_simulated_as === "new") story.emit("customer.created", cast.customer);
    story.emit("address.created", cast.address);
    story.emit("transaction.updated", txn({ status: "ready", customer: true, updatedAt: story.now() }));
    story.emit("transaction.ready", txn({ status: "ready", customer: true }));
  }
  const paidState = { customer: true, business: hasBusiness, discount: hasDiscount };
  // 3. Optionally a business (tax number) and a discount code entered at checkout.
  if (hasBusiness && !prefilledBusiness && business) {
    story.tick();
    story.emit("business.created", business);
    story.emit("address.updated", { ...cast.address, updated_at: story.now() });
    story.emit("transaction.updated", txn({ status: "ready", customer: true, business: true, updatedAt: story.now() }));
  }
  if (hasDiscount && enteredDiscount) {
    story.tick();
    story.emit(
      "transaction.updated",
      txn({ status: "ready", customer: true, business: hasBusiness, discount: true, updatedAt: story.now() }),
    );
  }
  // 4. The checkout completes: paid, the subscription is created, the transaction completed.
  const paidAt = story.tick();
  const paid: Partial<TransactionState> = { ...paidState, status: "paid", payments: ["captured"], billedAt: paidAt };
  story.emit("transaction.updated", txn({ ...paid, updatedAt: paidAt }));
  story.emit("transaction.paid", txn(paid));
  const trialing = cast.items.some((item) => item.price.billing_cycle && item.price.trial_period);
  const sub = (state: Partial<SubscriptionState>): Json =>
    exampleSubscription(actors, {
      status: trialing ? "trialing" : "active",
      period: 0,
      scheduledChange: null,
      pausedAt: null,
      canceledAt: null,
      updatedAt: story.now(),
      ...state,
    });
  story.emit("subscription.created", sub({ transactionId: cast.transactionId }));
  story.emit(trialing ? "subscription.trialing" : "subscription.activated", sub({}));
  const withSubscription = { ...paid, subscription: true, billingPeriod: billingPeriod(cast, 0) };
  story.emit("transaction.updated", txn({ ...withSubscription, fees: true, updatedAt: story.tick() }));
  const completed = { ...withSubscription, status: "completed" as const, fees: true, invoice: true };
  story.emit("transaction.updated", txn({ ...completed, updatedAt: story.tick() }));
  story.emit("transaction.completed", txn(completed));
  // 5. The payment method used is saved for renewals.
  story.emit("payment_method.saved", { ...cast.paymentMethod, saved_at: story.now(), updated_at: story.now() });
  return story;
}

/**
 * A subscription billed a new transaction (renewal, resume): its payment then succeeds, fails and
 * is recovered (with the saved or an updated payment method), or fails for good, after which
 * dunning pauses or cancels the subscription (or leaves it past due).
 */
function collect(
  story: Story,
  cast: Cast,
  period: number,
  options: PaymentOptions,
  sub: (state: Partial<SubscriptionState>) => Json,
): void {
  const billedAt = story.now();
  const renewal = `${cast.transactionId.slice(0, -4)}rnwl`;
  const txn = (state: Partial<TransactionState>): Json =>
    exampleTransaction(cast, {
      id: renewal,
      status: "billed",
      origin: "subscription_recurring",
      customer: true,
      business: cast.business !== null,
      discount: cast.discount !== null,
      subscription: true,
      billingPeriod: billingPeriod(cast, period),
      invoice: false,
      payments: [],
      fees: false,
      createdAt: billedAt,
      updatedAt: story.now(),
      billedAt,
      ...state,
    });
  story.emit("transaction.created", txn({}));
  story.emit("transaction.billed", txn({}));

  let attempts: PaymentAttempt[] = [];
  if (options.payment_outcome !== "success") {
    attempts = ["error"];
    story.tick();
    story.emit("transaction.payment_failed", txn({ payments: attempts }));
    story.emit("transaction.updated", txn({ status: "past_due", payments: attempts }));
    story.emit("transaction.past_due", txn({ status: "past_due", payments: attempts }));
    story.emit("subscription.updated", sub({ status: "past_due", updatedAt: story.now() }));
    story.emit("subscription.past_due", sub({ status: "past_due" }));
  }
  if (options.payment_outcome === "failed") {
    const action = options.dunning_exhausted_action;
    if (action === null) return;
    const at = story.tick();
    if (action === "subscription_canceled") {
      story.emit("subscription.updated", sub({ status: "canceled", canceledAt: at, updatedAt: at }));
      story.emit("subscription.canceled", sub({ status: "canceled", canceledAt: at, updatedAt: at }));
    } else {
      story.emit("subscription.updated", sub({ status: "paused", pausedAt: at, updatedAt: at }));
      story.emit("subscription.paused", sub({ status: "paused", pausedAt: at, updatedAt: at }));
    }
    story.emit("transaction.updated", txn({ status: "canceled", payments: attempts, updatedAt: at }));
    story.emit("transaction.canceled", txn({ status: "canceled", payments: attempts, updatedAt: at }));
    return;
  }
  if (options.payment_outcome === "recovered_updated_payment_method") {
    story.tick();
    story.emit("payment_method.saved", {
      ...examplePaymentMethod(String(cast.customer.id), String(cast.address.id), String(cast.paymentMethod.id)),
      origin: "subscription",
      saved_at: story.now(),
      updated_at: story.now(),
    });
  }
  attempts = [...attempts, "captured"];
  const paidAt = story.tick();
  story.emit("transaction.updated", txn({ status: "paid", payments: attempts, updatedAt: paidAt }));
  story.emit("transaction.paid", txn({ status: "paid", payments: attempts, updatedAt: paidAt }));
  if (options.payment_outcome !== "success") story.emit("subscription.updated", sub({ updatedAt: paidAt }));
  const completed = { status: "completed" as const, payments: attempts, invoice: true, fees: true };
  story.emit("transaction.updated", txn({ ...completed, updatedAt: story.tick() }));
  story.emit("transaction.completed", txn(completed));
}

function subscriptionStory(cast: Cast, period: number): { story: Story; sub: (s: Partial<SubscriptionState>) => Json } {
  const story = new Story(billingPeriod(cast, period).starts_at);
  const sub = (state: Partial<SubscriptionState>): Json =>
    exampleSubscription(cast, {
      status: "active",
      period,
      scheduledChange: null,
      pausedAt: null,
      canceledAt: null,
      updatedAt: story.now(),
      ...state,
    });
  return { story, sub };
}

function renewal(cast: Cast, options: PaymentOptions): Story {
  // The renewal of the first billing period into the second.
  const { story, sub } = subscriptionStory(cast, 1);
  story.emit("subscription.updated", sub({}));
  collect(story, cast, 1, options, sub);
  return story;
}

function resume(cast: Cast, options: PaymentOptions): Story {
  // Paused after the first period, resumed later: a new billing period starts on resume.
  const { story, sub } = subscriptionStory(cast, 2);
  story.emit("subscription.updated", sub({}));
  story.emit("subscription.resumed", sub({}));
  collect(story, cast, 2, options, sub);
  return story;
}

/** Pause or cancel, now or at the end of the billing period; a past due transaction is canceled. */
function stop(cast: Cast, options: EffectiveOptions, action: "pause" | "cancel"): Story {
  const { story, sub } = subscriptionStory(cast, 0);
  const status = action === "pause" ? "paused" : "canceled";
  const before = options.has_past_due_transaction ? "past_due" : "active";
  const atPeriodEnd = options.effective_from === "next_billing_period";
  if (atPeriodEnd) {
    const effectiveAt = billingPeriod(cast, 0).ends_at;
    story.emit(
      "subscription.updated",
      sub({ status: before, scheduledChange: { action, effective_at: effectiveAt, resume_at: null } }),
    );
  }
  // The change applies now, or when the billing period ends.
  const at = atPeriodEnd ? billingPeriod(cast, 0).ends_at : story.tick();
  const stopped = sub({
    status,
    pausedAt: action === "pause" ? at : null,
    canceledAt: action === "cancel" ? at : null,
    updatedAt: at,
  });
  story.emit("subscription.updated", stopped);
  story.emit(`subscription.${status}`, stopped);
  if (options.has_past_due_transaction) {
    const pastDue: TransactionState = {
      id: `${cast.transactionId.slice(0, -4)}pdue`,
      status: "canceled",
      origin: "subscription_recurring",
      customer: true,
      business: cast.business !== null,
      discount: cast.discount !== null,
      subscription: true,
      billingPeriod: billingPeriod(cast, 0),
      invoice: false,
      payments: ["error"],
      fees: false,
      createdAt: billingPeriod(cast, 0).starts_at,
      updatedAt: at,
      billedAt: billingPeriod(cast, 0).starts_at,
    };
    story.emit("transaction.updated", exampleTransaction(cast, pastDue));
    story.emit("transaction.canceled", exampleTransaction(cast, pastDue));
  }
  return story;
}

/**
 * The events of scenario `name` with `config`'s options, for `cast`. `named` tells which optional
 * entities the config names (a named business or discount takes part whatever the options say).
 */
export function scenarioEvents(
  name: ScenarioName,
  config: ScenarioConfig,
  cast: Cast,
  named: { business: boolean; discount: boolean } = { business: false, discount: false },
): SimulatedEvent[] {
  switch (name) {
    case "subscription_creation":
      return creation(cast, config.options as CreationOptions, named).events;
    case "subscription_renewal":
      return renewal(cast, config.options as PaymentOptions).events;
    case "subscription_resume":
      return resume(cast, config.options as PaymentOptions).events;
    case "subscription_pause":
      return stop(cast, config.options as EffectiveOptions, "pause").events;
    case "subscription_cancellation":
      return stop(cast, config.options as EffectiveOptions, "cancel").events;
  }
}
