/**
 * A typed client of the stand-in's test-control API (`/_stand-in/…`), for tests in this process or
 * another one (Playwright specs, the bench): `new StandInControl(STRIPE_API_URL)`.
 */
import type Stripe from "stripe";
import type { Behaviour } from "./cards.ts";
import type { DeliveryAttempt, StripeEvent } from "./state.ts";

export interface EventSummary {
  id: string;
  type: string;
  created: number;
  object_id: string | null;
  delivery: "held" | "pending" | "delivered" | "failed" | "none";
  attempts: DeliveryAttempt[];
  event: StripeEvent;
}

export interface ChargeCount {
  count: number;
  succeeded: number;
  failed: number;
  pending: number;
  charges: string[];
}

export class StandInControl {
  constructor(readonly url: string) {}

  private async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url.replace(/\/$/, "")}/_stand-in${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as T & { error?: { message: string } };
    if (!response.ok) throw new Error(`stand-in ${method} ${path}: ${response.status} ${json.error?.message}`);
    return json;
  }

  reset() {
    return this.send<{ reset: true }>("POST", "/reset");
  }

  health() {
    return this.send<{ ok: true; url: string; stripe_js_url: string }>("GET", "/health");
  }

  addAccount(account: {
    secret_key: string;
    publishable_key: string;
    name?: string;
    country?: string;
    default_currency?: string;
    webhook_url?: string;
    webhook_secret?: string;
  }) {
    return this.send<{ id: string }>("POST", "/accounts", account);
  }

  setWebhook(endpoint: { url: string | null; secret?: string; account?: string }) {
    return this.send("POST", "/webhooks", endpoint);
  }

  completeChallenge(intentId: string) {
    return this.send<Stripe.PaymentIntent | Stripe.SetupIntent>("POST", `/three_d_secure/${intentId}/complete`, {});
  }

  failChallenge(intentId: string) {
    return this.send<Stripe.PaymentIntent | Stripe.SetupIntent>("POST", `/three_d_secure/${intentId}/fail`, {});
  }

  setBehaviour(paymentMethodId: string, behaviour: Behaviour) {
    return this.send<{ id: string; behaviour: Behaviour; set_up: boolean }>(
      "POST",
      `/payment_methods/${paymentMethodId}/behaviour`,
      { behaviour },
    );
  }

  settleProcessing(paymentIntentId: string, outcome: "succeeded" | "failed") {
    return this.send<Stripe.PaymentIntent>("POST", `/payment_intents/${paymentIntentId}/settle`, { outcome });
  }

  refundMode(mode: "auto" | "manual", settleMs?: number) {
    return this.send("POST", "/refunds/mode", { mode, settle_ms: settleMs });
  }

  failNextRefunds(count = 1, account?: string) {
    return this.send("POST", "/refunds/fail_next", { count, account });
  }

  succeedRefund(refundId: string) {
    return this.send<Stripe.Refund>("POST", `/refunds/${refundId}/succeed`, {});
  }

  failRefund(refundId: string, reason?: string) {
    return this.send<Stripe.Refund>("POST", `/refunds/${refundId}/fail`, { reason });
  }

  openDispute(chargeId: string) {
    return this.send<Stripe.Dispute>("POST", `/charges/${chargeId}/dispute`, {});
  }

  closeDispute(disputeId: string, outcome: "won" | "lost") {
    return this.send<Stripe.Dispute>("POST", `/disputes/${disputeId}/close`, { outcome });
  }

  chargeCount(filter: {
    payment_intent?: string;
    idempotency_key?: string;
    metadata?: Record<string, string>;
    account?: string;
  }) {
    const query = new URLSearchParams();
    if (filter.payment_intent) query.set("payment_intent", filter.payment_intent);
    if (filter.idempotency_key) query.set("idempotency_key", filter.idempotency_key);
    if (filter.account) query.set("account", filter.account);
    for (const [k, v] of Object.entries(filter.metadata ?? {})) query.set(`metadata[${k}]`, v);
    return this.send<ChargeCount>("GET", `/charges/count?${query}`);
  }

  async events(filter: { type?: string; object?: string; account?: string } = {}) {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== undefined) as [string, string][]);
    return (await this.send<{ data: EventSummary[] }>("GET", `/events?${query}`)).data;
  }

  deliver(eventId: string, signature: DeliveryAttempt["signature"] = "valid") {
    return this.send<DeliveryAttempt>("POST", `/events/${eventId}/deliver`, { signature });
  }

  holdWebhooks() {
    return this.send("POST", "/webhooks/hold", {});
  }

  releaseWebhooks(order: "created" | "reverse" | string[] = "created") {
    return this.send<{ released: string[] }>("POST", "/webhooks/release", { order });
  }

  webhooksIdle() {
    return this.send("GET", "/webhooks/idle");
  }

  async requests(filter: { path?: string; method?: string } = {}) {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== undefined) as [string, string][]);
    return (
      await this.send<{
        data: {
          id: string;
          method: string;
          path: string;
          idempotency_key: string | null;
          status: number;
          replayed: boolean;
          params: Record<string, unknown>;
        }[];
      }>("GET", `/requests?${query}`)
    ).data;
  }

  fault(fault: {
    path: string;
    kind: "fail" | "drop" | "drop_after" | "delay";
    method?: string;
    delay_ms?: number;
    count?: number;
  }) {
    return this.send("POST", "/faults", fault);
  }

  clearFaults() {
    return this.send("DELETE", "/faults");
  }

  latency(ms: number) {
    return this.send("POST", "/latency", { ms });
  }
}
