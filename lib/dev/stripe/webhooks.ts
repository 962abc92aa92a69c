/**
 * Webhook delivery as Stripe does it: each event is POSTed as JSON to the account's endpoint with
 * a `Stripe-Signature` header made by the `stripe` package's own helper
 * (`Stripe.webhooks.generateTestHeaderString`: `t=<unix>,v1=<HMAC-SHA256 of "t.body">`), so the
 * product's `stripe.webhooks.constructEvent` verifies it exactly as it would a real one.
 *
 * Delivery is one at a time in the order events happened, unless the test-control API holds
 * delivery (events queue as `held`) and then releases them in another order, or redelivers one
 * (optionally with a stale, wrong or missing signature). A failed delivery (no answer, or not 2xx)
 * is recorded and not retried on its own: tests redeliver explicitly, where Stripe would retry
 * over three days.
 */
import Stripe from "stripe";
import type { AccountState, DeliveryAttempt, EventRecord } from "./state.ts";

export type SignatureMode = DeliveryAttempt["signature"];

const TIMEOUT_MS = 10_000;
/** Stripe's signature tolerance is 300 s: a stale signature is older than that. */
const STALE_BY_S = 600;

export class WebhookDeliverer {
  hold = false;
  private queue: { account: AccountState; record: EventRecord }[] = [];
  private running: Promise<void> | null = null;

  enqueue(account: AccountState, record: EventRecord): void {
    if (!account.webhookUrl || !account.webhookSecret) {
      record.delivery = "none";
      return;
    }
    record.delivery = this.hold ? "held" : "pending";
    if (!this.hold) {
      this.queue.push({ account, record });
      this.kick();
    }
  }

  /** Releases held events: in the order they happened, reversed, or in the order of the IDs given. */
  release(accounts: AccountState[], order: "created" | "reverse" | string[]): string[] {
    this.hold = false;
    const held = accounts.flatMap((account) =>
      account.events.filter((record) => record.delivery === "held").map((record) => ({ account, record })),
    );
    let ordered = held;
    if (order === "reverse") ordered = [...held].reverse();
    else if (Array.isArray(order)) {
      const byId = new Map(held.map((item) => [item.record.event.id, item]));
      const first = order.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
      ordered = [...first, ...held.filter((item) => !order.includes(item.record.event.id))];
    }
    for (const item of ordered) {
      item.record.delivery = "pending";
      this.queue.push(item);
    }
    this.kick();
    return ordered.map((item) => item.record.event.id);
  }

  /** Delivers one event now (out of the queue), with the signature asked for; answers the attempt. */
  async deliverNow(account: AccountState, record: EventRecord, signature: SignatureMode): Promise<DeliveryAttempt> {
    return this.deliver(account, record, signature);
  }

  /** Resolves once every queued event has had its attempt (tests wait on this). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  clear(): void {
    this.queue = [];
    this.hold = false;
  }

  private kick(): void {
    if (this.running) return;
    this.running = (async () => {
      try {
        for (let item = this.queue.shift(); item; item = this.queue.shift()) {
          await this.deliver(item.account, item.record, "valid");
        }
      } finally {
        this.running = null;
      }
    })();
  }

  private async deliver(
    account: AccountState,
    record: EventRecord,
    signature: SignatureMode,
  ): Promise<DeliveryAttempt> {
    const url = account.webhookUrl;
    const secret = account.webhookSecret;
    const attempt: DeliveryAttempt = {
      at: Date.now(),
      url: url ?? "",
      signature,
      status: null,
      error: null,
      body: null,
    };
    if (!url || !secret) {
      attempt.error = "no webhook endpoint is configured for this account";
      record.attempts.push(attempt);
      record.delivery = "none";
      return attempt;
    }
    const headers: Record<string, string> = {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "cache-control": "no-cache",
    };
    record.json ??= JSON.stringify(record.event, null, 2);
    const body = record.json;
    const nowS = Math.floor(Date.now() / 1000);
    if (signature !== "none") {
      headers["stripe-signature"] = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: signature === "invalid" ? `${secret}_wrong` : secret,
        timestamp: signature === "stale" ? nowS - STALE_BY_S : nowS,
      });
    }
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: "manual",
      });
      attempt.status = response.status;
      attempt.body = (await response.text()).slice(0, 2_000);
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error);
    }
    record.attempts.push(attempt);
    record.delivery = attempt.status !== null && attempt.status >= 200 && attempt.status < 300 ? "delivered" : "failed";
    return attempt;
  }
}
