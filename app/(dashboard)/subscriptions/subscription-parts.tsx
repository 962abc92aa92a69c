import { type BadgeTone, StatusBadge } from "@/components/status-badge";
import { formatDate } from "@/lib/dashboard/display";
import { itemName, type Subscription, type SubscriptionStatus } from "@/lib/dashboard/subscriptions";

/** A subscription's badge colour: trialing is blue, past due red, paused amber, canceled grey. */
const TONES: Record<SubscriptionStatus, BadgeTone> = {
  active: "green",
  trialing: "blue",
  past_due: "red",
  paused: "amber",
  canceled: "slate",
};

export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return <StatusBadge status={status} tone={TONES[status]} />;
}

const CHANGE_VERBS = { cancel: "Cancels", pause: "Pauses", resume: "Resumes" } as const;

/** "Pauses on 3 Dec 2026" for a scheduled change. */
export function scheduledChangeText(change: NonNullable<Subscription["scheduled_change"]>): string {
  return `${CHANGE_VERBS[change.action]} on ${formatDate(change.effective_at)}`;
}

/** The first item's product and quantity, and how many more there are. */
export function itemsSummary(sub: Pick<Subscription, "items">): string {
  const [first, ...rest] = sub.items;
  if (!first) return "No items";
  const head = `${itemName(first)}${first.quantity > 1 ? ` × ${first.quantity}` : ""}`;
  return rest.length > 0 ? `${head} + ${rest.length} more` : head;
}

export function subscriptionPath(id: string): string {
  return `/subscriptions/${id}`;
}
