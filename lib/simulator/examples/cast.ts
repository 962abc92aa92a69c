/**
 * Who and what takes part in a simulated story (the cast), and what follows from its items: the
 * currency, billing cycle and trial. Client-safe (see common.ts).
 */
import type { Duration, Json } from "./common.ts";
import { EXAMPLE_IDS } from "./common.ts";
import {
  exampleAddress,
  exampleBusiness,
  exampleCustomer,
  exampleDiscount,
  examplePaymentMethod,
  examplePrice,
  exampleProduct,
} from "./entities.ts";

export interface LineItem {
  price: Json;
  product: Json;
  quantity: number;
}

/** Who and what takes part in a simulated story. */
export interface Cast {
  customer: Json;
  address: Json;
  business: Json | null;
  discount: Json | null;
  paymentMethod: Json;
  items: LineItem[];
  transactionId: string;
  subscriptionId: string;
}

/** The example cast: every entity an example, one item of the example monthly price. */
export function exampleCast(): Cast {
  return {
    customer: exampleCustomer(),
    address: exampleAddress(),
    business: exampleBusiness(),
    discount: exampleDiscount(),
    paymentMethod: examplePaymentMethod(),
    items: [{ price: examplePrice(), product: exampleProduct(), quantity: 2 }],
    transactionId: EXAMPLE_IDS.transaction,
    subscriptionId: EXAMPLE_IDS.subscription,
  };
}

export interface Money {
  amount: string;
  currency_code: string;
}

export function unitPrice(item: LineItem): Money {
  return item.price.unit_price as Money;
}

export function castCurrency(cast: Cast): string {
  return cast.items[0] ? unitPrice(cast.items[0]).currency_code : "USD";
}

/** The billing cycle of the story: the first recurring item's (monthly when there is none). */
export function castBillingCycle(cast: Cast): Duration {
  const recurring = cast.items.find((item) => item.price.billing_cycle);
  return (recurring?.price.billing_cycle as Duration | undefined) ?? { interval: "month", frequency: 1 };
}

export function castTrial(cast: Cast): Duration | null {
  const trial = cast.items.find((item) => item.price.billing_cycle && item.price.trial_period);
  return (trial?.price.trial_period as Duration | undefined) ?? null;
}
