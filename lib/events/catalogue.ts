/**
 * The whole catalogue of event types of this API family (`GET /event-types`): name, group,
 * description and the API versions each is available in.
 */
export interface EventType {
  name: string;
  description: string;
  group: string;
  available_versions: number[];
}

const V1 = [1];

function family(group: string, entity: string, events: Record<string, string>): EventType[] {
  return Object.entries(events).map(([event, description]) => ({
    name: `${entity}.${event}`,
    description,
    group,
    available_versions: V1,
  }));
}

export const EVENT_TYPES: readonly EventType[] = [
  ...family("Address", "address", {
    created: "Occurs when an address is created.",
    imported: "Occurs when an address is imported.",
    updated: "Occurs when an address is updated.",
  }),
  ...family("Adjustment", "adjustment", {
    created: "Occurs when an adjustment (refund, credit or chargeback) is created.",
    updated: "Occurs when an adjustment is updated, for example when a refund is approved or rejected.",
  }),
  ...family("API key", "api_key", {
    created: "Occurs when an API key is created.",
    expired: "Occurs when an API key expires.",
    expiring: "Occurs when an API key is about to expire.",
    revoked: "Occurs when an API key is revoked.",
    updated: "Occurs when an API key is updated.",
  }),
  ...family("Business", "business", {
    created: "Occurs when a business is created.",
    imported: "Occurs when a business is imported.",
    updated: "Occurs when a business is updated.",
  }),
  ...family("Client token", "client_token", {
    created: "Occurs when a client-side token is created.",
    revoked: "Occurs when a client-side token is revoked.",
    updated: "Occurs when a client-side token is updated.",
  }),
  ...family("Customer", "customer", {
    created: "Occurs when a customer is created.",
    imported: "Occurs when a customer is imported.",
    updated: "Occurs when a customer is updated.",
  }),
  ...family("Discount", "discount", {
    created: "Occurs when a discount is created.",
    imported: "Occurs when a discount is imported.",
    updated: "Occurs when a discount is updated.",
  }),
  ...family("Discount group", "discount_group", {
    created: "Occurs when a discount group is created.",
    updated: "Occurs when a discount group is updated.",
  }),
  ...family("Payment method", "payment_method", {
    deleted: "Occurs when a customer's saved payment method is deleted.",
    saved: "Occurs when a customer saves a payment method.",
  }),
  ...family("Payout", "payout", {
    created: "Occurs when a payout is created.",
    paid: "Occurs when a payout is paid.",
  }),
  ...family("Price", "price", {
    created: "Occurs when a price is created.",
    imported: "Occurs when a price is imported.",
    updated: "Occurs when a price is updated.",
  }),
  ...family("Product", "product", {
    created: "Occurs when a product is created.",
    imported: "Occurs when a product is imported.",
    updated: "Occurs when a product is updated.",
  }),
  ...family("Report", "report", {
    created: "Occurs when a report is created.",
    updated: "Occurs when a report is updated, for example when it is ready to download.",
  }),
  ...family("Subscription", "subscription", {
    activated: "Occurs when a subscription becomes active: its status changes to active.",
    canceled: "Occurs when a subscription is canceled: its status changes to canceled.",
    created: "Occurs when a subscription is created.",
    imported: "Occurs when a subscription is imported.",
    past_due: "Occurs when a subscription has an unpaid transaction: its status changes to past_due.",
    paused: "Occurs when a subscription is paused: its status changes to paused.",
    resumed: "Occurs when a paused subscription is resumed: its status changes to active.",
    trialing: "Occurs when a subscription enters its trial period: its status changes to trialing.",
    updated: "Occurs when a subscription is updated.",
  }),
  ...family("Transaction", "transaction", {
    billed: "Occurs when a transaction is billed: its status changes to billed and billed_at is set.",
    canceled: "Occurs when a transaction is canceled: its status changes to canceled.",
    completed: "Occurs when a transaction is completed: its status changes to completed after payment and processing.",
    created: "Occurs when a transaction is created.",
    paid: "Occurs when a transaction is paid: its status changes to paid, before processing completes.",
    past_due: "Occurs when a transaction becomes past due: its status changes to past_due.",
    payment_failed: "Occurs when a payment attempt on a transaction fails.",
    ready:
      "Occurs when a transaction is ready: its status changes to ready because it has items, a customer and an address.",
    revised: "Occurs when the customer information of a billed or completed transaction is revised.",
    updated: "Occurs when a transaction is updated.",
  }),
];

const NAMES = new Set(EVENT_TYPES.map((t) => t.name));

export function isEventType(name: string): boolean {
  return NAMES.has(name);
}

/**
 * Who may see an event: an event carries its entity as data, so reading it is reading that
 * entity, and needs the entity's read permission besides `event.read` (or `notification.read` for
 * the notifications that carry it), as the API family asks read permission "for any entity an
 * operation returns". A viewer then sees no API key events (names and permissions of keys), and a
 * key with event.read alone sees no events at all.
 *
 * Families with no permission of their own borrow the nearest: a saved payment method belongs to
 * a customer (customer.read); a payout is an account-level money total, as revenue is (metrics.read).
 */
const READ_PERMISSION_OF_FAMILY: Record<string, string> = {
  address: "address.read",
  adjustment: "adjustment.read",
  api_key: "api_key.read",
  business: "business.read",
  client_token: "client_token.read",
  customer: "customer.read",
  discount: "discount.read",
  discount_group: "discount_group.read",
  payment_method: "customer.read",
  payout: "metrics.read",
  price: "price.read",
  product: "product.read",
  report: "report.read",
  subscription: "subscription.read",
  transaction: "transaction.read",
};

/** The read permission an event type's data needs (see READ_PERMISSION_OF_FAMILY). */
export function eventReadPermission(eventType: string): string {
  const family = eventType.slice(0, eventType.lastIndexOf("."));
  const permission = READ_PERMISSION_OF_FAMILY[family];
  // Every family in the catalogue has one (a unit test holds them together); an unknown one is nobody's.
  return permission ?? `${family}.read`;
}

/** The catalogue's event type names a caller holding `held` (expanded) may see. */
export function readableEventTypes(held: ReadonlySet<string>): string[] {
  return EVENT_TYPES.filter((type) => held.has(eventReadPermission(type.name))).map((type) => type.name);
}
