/**
 * The webhook simulator's catalogue (`GET /simulation-types`): every event type of the catalogue as
 * a single-event simulation, and the scenarios (scenarios.ts). A scenario's `events` in the
 * catalogue are the distinct event types it can send, in the order they first occur, over every
 * combination of its options (what a destination must subscribe to).
 *
 * Client-safe (the dashboard imports its type).
 */
import { EVENT_TYPES } from "../events/catalogue.ts";
import { exampleCast } from "./examples/cast.ts";
import {
  BUSINESS_SIMULATED_AS,
  CUSTOMER_SIMULATED_AS,
  DISCOUNT_SIMULATED_AS,
  DUNNING_EXHAUSTED_ACTIONS,
  defaultScenarioConfig,
  EFFECTIVE_FROM,
  PAYMENT_OUTCOMES,
  SCENARIOS,
  type ScenarioConfig,
  type ScenarioName,
  scenarioEvents,
} from "./scenarios.ts";

export interface SimulationType {
  name: string;
  label: string;
  description: string;
  group: string;
  type: "single_event" | "scenario";
  events: string[];
}

const SCENARIO_INFO: Record<ScenarioName, { label: string; description: string }> = {
  subscription_creation: {
    label: "Subscription created from a checkout",
    description:
      "Simulates all events that occur when a customer subscribes through a checkout. Options: customer_simulated_as (new, existing_email_matched, existing_details_prefilled), business_simulated_as (not_provided, new, existing_details_prefilled), discount_simulated_as (not_provided, prefilled, entered_by_customer).",
  },
  subscription_renewal: {
    label: "Subscription renewed",
    description:
      "Simulates all events that occur when a subscription renews. Options: payment_outcome (success, recovered_existing_payment_method, recovered_updated_payment_method, failed), dunning_exhausted_action (subscription_paused, subscription_canceled, or null to leave it past due) for a failed payment.",
  },
  subscription_pause: {
    label: "Subscription paused",
    description:
      "Simulates all events that occur when a subscription is paused. Options: effective_from (immediately, next_billing_period), has_past_due_transaction (whether a past due transaction is canceled).",
  },
  subscription_resume: {
    label: "Subscription resumed",
    description:
      "Simulates all events that occur when a paused subscription is resumed and its new billing period is charged. Options: payment_outcome and dunning_exhausted_action, as for a renewal.",
  },
  subscription_cancellation: {
    label: "Subscription canceled",
    description:
      "Simulates all events that occur when a subscription is canceled. Options: effective_from (immediately, next_billing_period), has_past_due_transaction (whether a past due transaction is canceled).",
  },
};

/** Every combination of values of `lists` (the cartesian product), the first values first. */
function combinations<T extends Record<string, readonly unknown[]>>(lists: T): { [K in keyof T]: T[K][number] }[] {
  let out: Record<string, unknown>[] = [{}];
  for (const [key, values] of Object.entries(lists)) {
    out = out.flatMap((partial) => values.map((value) => ({ ...partial, [key]: value })));
  }
  return out as { [K in keyof T]: T[K][number] }[];
}

function optionCombinations(name: ScenarioName): ScenarioConfig["options"][] {
  switch (name) {
    case "subscription_creation":
      return combinations({
        customer_simulated_as: CUSTOMER_SIMULATED_AS,
        business_simulated_as: BUSINESS_SIMULATED_AS,
        discount_simulated_as: DISCOUNT_SIMULATED_AS,
      });
    case "subscription_renewal":
    case "subscription_resume":
      return combinations({
        payment_outcome: PAYMENT_OUTCOMES,
        dunning_exhausted_action: [...DUNNING_EXHAUSTED_ACTIONS, null],
      });
    case "subscription_pause":
    case "subscription_cancellation":
      return combinations({ effective_from: [...EFFECTIVE_FROM].reverse(), has_past_due_transaction: [false, true] });
  }
}

/** The distinct event types scenario `name` can send, in the order they first occur. */
function scenarioEventTypes(name: ScenarioName): string[] {
  const seen = new Set<string>();
  const defaults = defaultScenarioConfig(name);
  for (const options of [defaults.options, ...optionCombinations(name)]) {
    const config = { entities: defaults.entities, options } as ScenarioConfig;
    for (const event of scenarioEvents(name, config, exampleCast())) seen.add(event.event_type);
  }
  return [...seen];
}

let catalogue: SimulationType[] | undefined;

/** GET /simulation-types: every event type as a single event, then the scenarios. */
export function simulationTypes(): SimulationType[] {
  catalogue ??= [
    ...EVENT_TYPES.map((t) => ({
      name: t.name,
      label: t.name,
      description: t.description,
      group: t.group,
      type: "single_event" as const,
      events: [t.name],
    })),
    ...SCENARIOS.map((name) => ({
      name,
      label: SCENARIO_INFO[name].label,
      description: SCENARIO_INFO[name].description,
      group: "Subscription",
      type: "scenario" as const,
      events: scenarioEventTypes(name),
    })),
  ];
  return catalogue;
}
