/**
 * TanStack Query hooks and display helpers for subscriptions and the
 * customer's saved payment methods and credit balances. Every action is the
 * API's own operation (pause, resume, cancel, activate, PATCH, charge, the sandbox test clock);
 * each refreshes the subscription, every subscription list, the transactions and the events, since
 * an action can bill (a transaction) and always emits events.
 */
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { allowedActions, type SubscriptionAction, type SubscriptionState } from "../billing/subscription-states.ts";
import type { PaymentMethod } from "../schemas/payment-method.ts";
import {
  type CancelSubscriptionInput,
  type ChargeSubscriptionInput,
  type PauseSubscriptionInput,
  type ProrationBillingMode,
  type ResumeSubscriptionInput,
  SCHEDULED_CHANGE_ACTIONS,
  SUBSCRIPTION_STATUSES,
  type Subscription,
  type SubscriptionPreview,
  type SubscriptionStatus,
  type TestClock,
  type UpdateSubscriptionInput,
} from "../schemas/subscription.ts";
import { api, type ListResponse, query } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useEntity, useList, useSave } from "./hooks.ts";
import { transactionKeys } from "./transactions.ts";

export type {
  CancelSubscriptionInput,
  ChargeSubscriptionInput,
  PauseSubscriptionInput,
  PaymentMethod,
  ProrationBillingMode,
  ResumeSubscriptionInput,
  Subscription,
  SubscriptionAction,
  SubscriptionPreview,
  SubscriptionStatus,
  UpdateSubscriptionInput,
};
export { SCHEDULED_CHANGE_ACTIONS, SUBSCRIPTION_STATUSES };

export type SubscriptionItem = Subscription["items"][number];
export type TransactionPreview = NonNullable<Subscription["next_transaction"]>;

export interface CreditBalance {
  customer_id: string;
  currency_code: string;
  balance: { available: string; reserved: string; used: string };
}

export const subscriptionKeys = {
  all: ["subscriptions"] as const,
  lists: ["subscriptions", "list"] as const,
  counts: ["subscriptions", "counts"] as const,
  detail: (id: string) => ["subscriptions", "detail", id] as const,
  paymentMethods: (customerId: string) => ["customers", "detail", customerId, "payment-methods"] as const,
  creditBalances: (customerId: string) => ["customers", "detail", customerId, "credit-balances"] as const,
};

/** The subscription's page: with the next payment's preview (it needs transaction.read too). */
const DETAIL_INCLUDE = "next_transaction";

export function useSubscriptions(params: ListParams, enabled = true) {
  return useList<Subscription>(subscriptionKeys.lists, "/subscriptions", params, enabled);
}

/**
 * How many subscriptions have each status, under the page's other filters: one list request per
 * status with per_page=1, reading `meta.pagination.estimated_total` (the list has no count
 * endpoint; five tiny requests instead of an API extension).
 */
export function useStatusCounts(params: ListParams, enabled = true) {
  const results = useQueries({
    queries: SUBSCRIPTION_STATUSES.map((status) => ({
      queryKey: [...subscriptionKeys.counts, status, params],
      queryFn: () =>
        api<ListResponse<Subscription>>(`/subscriptions${query({ ...params, status, per_page: 1, after: undefined })}`),
      enabled,
      // The counts stay on screen while other filters load theirs.
      placeholderData: keepPreviousData,
    })),
  });
  const counts: Partial<Record<SubscriptionStatus, number>> = {};
  SUBSCRIPTION_STATUSES.forEach((status, index) => {
    const data = results[index]?.data;
    if (data) counts[status] = data.meta.pagination.estimated_total;
  });
  return counts;
}

export function useSubscription(id: string) {
  return useEntity<Subscription>(subscriptionKeys.detail(id), `/subscriptions/${enc(id)}?include=${DETAIL_INCLUDE}`);
}

/** What every subscription action refreshes: it may bill (transactions) and always emits events. */
function refreshed(customerId?: string) {
  return [
    subscriptionKeys.lists,
    subscriptionKeys.counts,
    transactionKeys.all,
    ["events"],
    ...(customerId ? [subscriptionKeys.creditBalances(customerId), subscriptionKeys.paymentMethods(customerId)] : []),
  ];
}

/**
 * A subscription operation: the answer is the subscription without its preview, so the page's
 * copy is fetched again (with `next_transaction`) rather than replaced.
 */
function useSubscriptionAction<I>(
  sub: Pick<Subscription, "id" | "customer_id">,
  send: (input: I) => Promise<EntityResponse<Subscription>>,
) {
  return useSave(
    async (input: I) => (await send(input)).data,
    () => [subscriptionKeys.detail(sub.id), ...refreshed(sub.customer_id)],
  );
}

const path = (id: string, action = "") => `/subscriptions/${enc(id)}${action}`;

export function usePauseSubscription(sub: Pick<Subscription, "id" | "customer_id">) {
  return useSubscriptionAction(sub, async (body: PauseSubscriptionInput) =>
    api<EntityResponse<Subscription>>(path(sub.id, "/pause"), { method: "POST", body: body ?? {} }),
  );
}

export function useResumeSubscription(sub: Pick<Subscription, "id" | "customer_id">) {
  return useSubscriptionAction(sub, async (body: ResumeSubscriptionInput) =>
    api<EntityResponse<Subscription>>(path(sub.id, "/resume"), { method: "POST", body: body ?? {} }),
  );
}

export function useCancelSubscription(sub: Pick<Subscription, "id" | "customer_id">) {
  return useSubscriptionAction(sub, async (body: CancelSubscriptionInput) =>
    api<EntityResponse<Subscription>>(path(sub.id, "/cancel"), { method: "POST", body: body ?? {} }),
  );
}

export function useActivateSubscription(sub: Pick<Subscription, "id" | "customer_id">) {
  return useSubscriptionAction(sub, async () =>
    api<EntityResponse<Subscription>>(path(sub.id, "/activate"), { method: "POST" }),
  );
}

export function useUpdateSubscription(sub: Pick<Subscription, "id" | "customer_id">) {
  return useSubscriptionAction(sub, async (body: UpdateSubscriptionInput) =>
    api<EntityResponse<Subscription>>(path(sub.id), { method: "PATCH", body }),
  );
}

export function useChargeSubscription(sub: Pick<Subscription, "id" | "customer_id">) {
  return useSubscriptionAction(sub, async (body: ChargeSubscriptionInput) =>
    api<EntityResponse<Subscription>>(path(sub.id, "/charge"), { method: "POST", body }),
  );
}

/** Sandbox only: moves the subscription's clock forward to `to`, running what falls due by then. */
export function useAdvanceTestClock(sub: Pick<Subscription, "id" | "customer_id">) {
  return useSubscriptionAction(sub, async (to: string) =>
    api<EntityResponse<Subscription>>(path(sub.id, "/test-clock/advance"), { method: "POST", body: { to } }),
  );
}

/** Sandbox only: where the subscription's clock stands (GET /subscriptions/{id}/test-clock). */
export function useTestClock(id: string) {
  return useEntity<TestClock>([...subscriptionKeys.detail(id), "test-clock"], path(id, "/test-clock"));
}

/** PATCH /subscriptions/{id}/preview: what an update would do, without doing it. */
export async function previewUpdate(id: string, body: UpdateSubscriptionInput): Promise<SubscriptionPreview> {
  return (await api<EntityResponse<SubscriptionPreview>>(path(id, "/preview"), { method: "PATCH", body })).data;
}

/** POST /subscriptions/{id}/charge/preview: what a one-time charge would bill. */
export async function previewCharge(id: string, body: ChargeSubscriptionInput): Promise<SubscriptionPreview> {
  return (await api<EntityResponse<SubscriptionPreview>>(path(id, "/charge/preview"), { method: "POST", body })).data;
}

/** POST /subscriptions/{id}/resume/preview (ours): what resuming would charge now and next. */
export async function previewResume(id: string, body: ResumeSubscriptionInput): Promise<SubscriptionPreview> {
  return (
    await api<EntityResponse<SubscriptionPreview>>(path(id, "/resume/preview"), { method: "POST", body: body ?? {} })
  ).data;
}

/** POST /subscriptions/{id}/activate/preview (ours): what ending the trial now would charge. */
export async function previewActivate(id: string): Promise<SubscriptionPreview> {
  return (await api<EntityResponse<SubscriptionPreview>>(path(id, "/activate/preview"), { method: "POST" })).data;
}

type PreviewBodies = {
  update: UpdateSubscriptionInput;
  charge: ChargeSubscriptionInput;
  resume: ResumeSubscriptionInput;
  activate: Record<string, never>;
};

const PREVIEWS: { [K in keyof PreviewBodies]: (id: string, body: PreviewBodies[K]) => Promise<SubscriptionPreview> } = {
  update: previewUpdate,
  charge: previewCharge,
  resume: previewResume,
  activate: (id) => previewActivate(id),
};

/**
 * The preview of `body` while it is not null (a dialog open with a valid body): refetched as the
 * body changes. Every action that charges shows its preview before it is confirmed.
 */
export function usePreview<K extends keyof PreviewBodies>(kind: K, id: string, body: PreviewBodies[K] | null) {
  return useQuery({
    queryKey: [...subscriptionKeys.detail(id), "preview", kind, body],
    queryFn: () => PREVIEWS[kind](id, body as PreviewBodies[K]),
    enabled: body !== null,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}

// Saved payment methods and credit balances

export function usePaymentMethods(customerId: string, enabled = true) {
  return useList<PaymentMethod>(
    subscriptionKeys.paymentMethods(customerId),
    `/customers/${enc(customerId)}/payment-methods`,
    { per_page: 50 },
    enabled,
  );
}

export function useDeletePaymentMethod(customerId: string) {
  return useSave(
    async (id: string) => {
      await api<null>(`/customers/${enc(customerId)}/payment-methods/${enc(id)}`, { method: "DELETE" });
      return id;
    },
    () => [subscriptionKeys.paymentMethods(customerId)],
  );
}

export function useCreditBalances(customerId: string) {
  return useEntity<CreditBalance[]>(
    subscriptionKeys.creditBalances(customerId),
    `/customers/${enc(customerId)}/credit-balances`,
  );
}

// Display helpers

/** The actions the subscription allows now (lib/billing/subscription-states.ts, shared with the API). */
export function allowed(sub: SubscriptionState): Set<SubscriptionAction> {
  return new Set(allowedActions(sub));
}

/** Whether the signed-in staff member holds `permission` (write implies read server-side too). */
export function can(permissions: readonly string[], permission: string): boolean {
  return permissions.includes(permission);
}

export const PRORATION_MODE_LABELS: Record<ProrationBillingMode, { label: string; hint: string }> = {
  prorated_immediately: {
    label: "Prorated, billed now",
    hint: "Charge or credit the change for the rest of the current period, on a transaction now.",
  },
  prorated_next_billing_period: {
    label: "Prorated, on the next renewal",
    hint: "Charge or credit the change for the rest of the current period with the next renewal.",
  },
  full_immediately: { label: "Full price, billed now", hint: "Bill the whole price of the change now, no proration." },
  full_next_billing_period: {
    label: "Full price, on the next renewal",
    hint: "Add the whole price of the change to the next renewal.",
  },
  do_not_bill: { label: "Do not bill", hint: "Change the items without charging or crediting anything." },
};

/** A product's or price's name from a subscription item's snapshots. */
export function itemName(item: SubscriptionItem): string {
  const product = item.product as { name?: unknown };
  return typeof product.name === "string" ? product.name : "Product";
}

export function itemPriceText(item: SubscriptionItem): string {
  const price = item.price as { description?: unknown; name?: unknown };
  if (typeof price.name === "string" && price.name) return price.name;
  return typeof price.description === "string" ? price.description : String(item.price.id ?? "");
}

export function itemPriceId(item: SubscriptionItem): string {
  return String(item.price.id ?? "");
}

export function itemUnitPrice(item: SubscriptionItem): { amount: string; currency_code: string } | null {
  const unit = (item.price as { unit_price?: { amount?: unknown; currency_code?: unknown } }).unit_price;
  return unit && typeof unit.amount === "string" && typeof unit.currency_code === "string"
    ? { amount: unit.amount, currency_code: unit.currency_code }
    : null;
}

/** Adds whole days to an instant (the test clock's "Advance N days"). */
export function addDays(iso: string, days: number): string {
  return new Date(new Date(iso).getTime() + days * 86_400_000).toISOString();
}
