/**
 * The test-control API (`/_stand-in/…`): what a test does that, at Stripe, a person or the card
 * network would do — pass or fail a 3-D Secure challenge, make a saved card start declining,
 * settle or fail a refund, close a dispute — and what a test needs to see — the events sent and
 * their deliveries, the charges made for a PaymentIntent or an idempotency key, the requests
 * received. It needs no key (it is test tooling on loopback). Bodies are JSON or form-encoded.
 * Every route is listed in lib/dev/stripe/README.md.
 */
import type Stripe from "stripe";
import { BEHAVIOURS, isBehaviour } from "./cards.ts";
import { invalidRequest, missing } from "./errors.ts";
import type { Fault, StripeStandIn } from "./server.ts";
import { AccountState, type Context } from "./state.ts";
import { challengePage } from "./stripe-js.ts";
import type { SignatureMode } from "./webhooks.ts";

export interface ControlAnswer {
  status: number;
  body?: unknown;
  html?: string;
}

type Body = Record<string, unknown>;

function text(body: Body, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" && typeof value !== "number") {
    throw invalidRequest(`${key} must be a string.`, { param: key });
  }
  return String(value);
}

function required(body: Body, key: string): string {
  const value = text(body, key);
  if (value === undefined) throw invalidRequest(`Missing required param: ${key}.`, { param: key });
  return value;
}

function oneOf<T extends string>(body: Body, key: string, values: readonly T[], fallback?: T): T {
  const value = text(body, key) ?? fallback;
  if (value === undefined || !(values as readonly string[]).includes(value)) {
    throw invalidRequest(`${key} must be one of ${values.join(", ")}.`, { param: key });
  }
  return value as T;
}

function controlContext(account: AccountState): Context {
  return { account, publishable: false, requestId: null, idempotencyKey: null };
}

/** The account holding an object (IDs are unique across accounts). */
function owner(standIn: StripeStandIn, id: string, kind: string): AccountState {
  const account = standIn.accounts.find((a) => a.objects.has(id));
  if (!account) throw missing(kind, id);
  return account;
}

/** `account`: an account ID or one of its keys; the first account when not given. */
function accountOf(standIn: StripeStandIn, value: string | undefined): AccountState {
  if (value === undefined) return standIn.accounts[0]!;
  const account = standIn.accountFor(value);
  if (!account) throw invalidRequest(`No stand-in account matches ${value}.`, { param: "account", status: 404 });
  return account;
}

function accountSummary(account: AccountState) {
  return {
    id: account.id,
    name: account.config.name,
    country: account.config.country,
    default_currency: account.config.defaultCurrency,
    secret_key: account.config.secretKey,
    publishable_key: account.config.publishableKey,
    livemode: account.livemode,
    webhook_url: account.webhookUrl,
  };
}

function eventSummary(record: AccountState["events"][number]) {
  const object = record.event.data.object as { id?: string };
  return {
    id: record.event.id,
    type: record.event.type,
    created: record.event.created,
    object_id: object.id ?? null,
    delivery: record.delivery,
    attempts: record.attempts,
    event: record.event,
  };
}

type Handler = (standIn: StripeStandIn, body: Body, args: string[], url: URL) => ControlAnswer | Promise<ControlAnswer>;

const ok = (body: unknown, status = 200): ControlAnswer => ({ status, body });

const ROUTES: { method: string; pattern: RegExp; handle: Handler }[] = [];
function on(method: string, path: string, handle: Handler): void {
  ROUTES.push({ method, pattern: new RegExp(`^/_stand-in${path.replace(/:id/g, "([A-Za-z0-9_]+)")}$`), handle });
}

on("GET", "/health", (standIn) => ok({ ok: true, url: standIn.url, stripe_js_url: standIn.stripeJsUrl }));

on("POST", "/reset", (standIn) => {
  standIn.reset();
  return ok({ reset: true });
});

on("GET", "/accounts", (standIn) => ok({ data: standIn.accounts.map(accountSummary) }));

on("POST", "/accounts", (standIn, body) => {
  const secretKey = required(body, "secret_key");
  const publishableKey = required(body, "publishable_key");
  if (!/^(sk|rk)_(test|live)_/.test(secretKey))
    throw invalidRequest("secret_key must start with sk_test_, sk_live_, rk_test_ or rk_live_.", {
      param: "secret_key",
    });
  if (!/^pk_(test|live)_/.test(publishableKey))
    throw invalidRequest("publishable_key must start with pk_test_ or pk_live_.", { param: "publishable_key" });
  if (standIn.accountFor(secretKey) || standIn.accountFor(publishableKey)) {
    throw invalidRequest("An account already has one of these keys.", { param: "secret_key" });
  }
  const account = new AccountState({
    secretKey,
    publishableKey,
    name: text(body, "name") ?? "Stand-in account",
    country: text(body, "country") ?? "US",
    defaultCurrency: (text(body, "default_currency") ?? "usd").toLowerCase(),
    email: text(body, "email") ?? null,
    webhookUrl: text(body, "webhook_url") ?? null,
    webhookSecret: text(body, "webhook_secret") ?? null,
  });
  standIn.accounts.push(account);
  return ok(accountSummary(account), 201);
});

on("POST", "/webhooks", (standIn, body) => {
  const account = accountOf(standIn, text(body, "account"));
  account.webhookUrl = text(body, "url") ?? null;
  account.webhookSecret = text(body, "secret") ?? account.webhookSecret;
  return ok(accountSummary(account));
});

on("POST", "/webhooks/hold", (standIn) => {
  standIn.webhooks.hold = true;
  return ok({ hold: true });
});

on("POST", "/webhooks/release", (standIn, body) => {
  const raw = body.order;
  const order: "created" | "reverse" | string[] = Array.isArray(raw)
    ? raw.map(String)
    : raw === "reverse"
      ? "reverse"
      : "created";
  return ok({ released: standIn.webhooks.release(standIn.accounts, order) });
});

on("GET", "/webhooks/idle", async (standIn) => {
  await standIn.webhooks.idle();
  return ok({ idle: true });
});

on("GET", "/events", (standIn, _body, _args, url) => {
  const account = accountOf(standIn, url.searchParams.get("account") ?? undefined);
  const type = url.searchParams.get("type");
  const objectId = url.searchParams.get("object");
  const data = account.events
    .filter((record) => type === null || record.event.type === type)
    .filter((record) => objectId === null || (record.event.data.object as { id?: string }).id === objectId)
    .map(eventSummary);
  return ok({ data });
});

on("POST", "/events/:id/deliver", async (standIn, body, [id]) => {
  const account = standIn.accounts.find((a) => a.eventsById.has(id!));
  if (!account) throw missing("event", id!);
  const signature = oneOf<SignatureMode>(body, "signature", ["valid", "stale", "invalid", "none"], "valid");
  const attempt = await standIn.webhooks.deliverNow(account, account.eventsById.get(id!)!, signature);
  return ok(attempt);
});

on("GET", "/three_d_secure/:id", (standIn, _body, [id], url) => {
  const account = owner(standIn, id!, id!.startsWith("seti_") ? "setup_intent" : "payment_intent");
  const intent = account.objects.get(id!) as Stripe.PaymentIntent | Stripe.SetupIntent;
  const secret = url.searchParams.get("client_secret");
  if (secret !== intent.client_secret) {
    return { status: 403, html: "<!doctype html><title>Not allowed</title><p>Unknown challenge.</p>" };
  }
  return { status: 200, html: challengePage(intent, url.searchParams.get("return_url")) };
});

for (const outcome of ["complete", "fail"] as const) {
  on("POST", `/three_d_secure/:id/${outcome}`, (standIn, body, [id]) => {
    const account = owner(standIn, id!, id!.startsWith("seti_") ? "setup_intent" : "payment_intent");
    const intent = account.objects.get(id!) as Stripe.PaymentIntent | Stripe.SetupIntent;
    const secret = text(body, "client_secret");
    if (secret !== undefined && secret !== intent.client_secret) {
      throw invalidRequest("The client_secret does not match the intent.", { param: "client_secret", status: 403 });
    }
    return ok(standIn.engine.completeChallenge(controlContext(account), id!, outcome));
  });
}

on("POST", "/payment_methods/:id/behaviour", (standIn, body, [id]) => {
  const account = owner(standIn, id!, "payment_method");
  const behaviour = required(body, "behaviour");
  if (!isBehaviour(behaviour)) {
    throw invalidRequest(`behaviour must be one of ${BEHAVIOURS.join(", ")}.`, { param: "behaviour" });
  }
  const facts = account.methodFacts(id!);
  facts.behaviour = behaviour;
  return ok({ id, behaviour: facts.behaviour, set_up: facts.setUp });
});

on("POST", "/payment_intents/:id/settle", (standIn, body, [id]) => {
  const account = owner(standIn, id!, "payment_intent");
  const outcome = oneOf(body, "outcome", ["succeeded", "failed"] as const);
  return ok(standIn.engine.settleProcessing(controlContext(account), account.paymentIntent(id!), outcome));
});

on("POST", "/refunds/mode", (standIn, body) => {
  const mode = oneOf(body, "mode", ["auto", "manual"] as const);
  const settleMs = text(body, "settle_ms");
  standIn.engine.refunds = {
    mode,
    settleMs: settleMs === undefined ? standIn.engine.refunds.settleMs : Number(settleMs),
  };
  return ok(standIn.engine.refunds);
});

on("POST", "/refunds/fail_next", (standIn, body) => {
  const account = accountOf(standIn, text(body, "account"));
  const count = Number(text(body, "count") ?? "1");
  if (!Number.isInteger(count) || count < 0) throw invalidRequest("count must be a whole number.", { param: "count" });
  standIn.engine.failNextRefunds.set(account.id, count);
  return ok({ account: account.id, fail_next: count });
});

on("POST", "/refunds/:id/succeed", (standIn, _body, [id]) => {
  const account = owner(standIn, id!, "refund");
  return ok(standIn.engine.settleRefund(controlContext(account), account.refund(id!)));
});

on("POST", "/refunds/:id/fail", (standIn, body, [id]) => {
  const account = owner(standIn, id!, "refund");
  const reason = text(body, "reason") ?? "declined";
  return ok(standIn.engine.failRefund(controlContext(account), account.refund(id!), reason));
});

on("POST", "/charges/:id/dispute", (standIn, _body, [id]) => {
  const account = owner(standIn, id!, "charge");
  const charge = account.charge(id!);
  if (charge.status !== "succeeded" || charge.disputed) {
    throw invalidRequest("Only a succeeded, undisputed charge can be disputed.", { param: "id" });
  }
  return ok(standIn.engine.openDispute(controlContext(account), charge));
});

on("POST", "/disputes/:id/close", (standIn, body, [id]) => {
  const account = owner(standIn, id!, "dispute");
  const outcome = oneOf(body, "outcome", ["won", "lost"] as const);
  return ok(standIn.engine.closeDispute(controlContext(account), account.dispute(id!), outcome));
});

/**
 * Charges made, to prove "exactly once": for a PaymentIntent (`payment_intent`), for the requests
 * sent with one Idempotency-Key (`idempotency_key`), or with `metadata[key]=value` (e.g. the
 * product's transaction ID) on their PaymentIntent.
 */
on("GET", "/charges/count", (standIn, _body, _args, url) => {
  const account = accountOf(standIn, url.searchParams.get("account") ?? undefined);
  const intent = url.searchParams.get("payment_intent");
  const key = url.searchParams.get("idempotency_key");
  const metadata = [...url.searchParams].flatMap(([k, v]) => {
    const match = /^metadata\[(.+)\]$/.exec(k);
    return match ? [[match[1], v] as const] : [];
  });
  const charges = account.all<Stripe.Charge>("charge").filter((charge) => {
    if (intent !== null && charge.payment_intent !== intent) return false;
    if (key !== null && account.charges.get(charge.id)?.idempotencyKey !== key) return false;
    return metadata.every(([k, v]) => charge.metadata[k!] === v);
  });
  const by = (status: string) => charges.filter((c) => c.status === status).length;
  return ok({
    count: charges.length,
    succeeded: by("succeeded"),
    failed: by("failed"),
    pending: by("pending"),
    charges: charges.map((c) => c.id),
  });
});

on("GET", "/requests", (standIn, _body, _args, url) => {
  const path = url.searchParams.get("path");
  const method = url.searchParams.get("method");
  const data = standIn.requests.filter(
    (entry) => (path === null || entry.path.startsWith(path)) && (method === null || entry.method === method),
  );
  return ok({ data });
});

on("POST", "/faults", (standIn, body) => {
  const fault: Fault = {
    method: text(body, "method")?.toUpperCase(),
    path: required(body, "path"),
    kind: oneOf(body, "kind", ["fail", "drop", "drop_after", "delay"] as const),
    delayMs: text(body, "delay_ms") === undefined ? undefined : Number(text(body, "delay_ms")),
    remaining: Number(text(body, "count") ?? "1"),
  };
  if (!Number.isInteger(fault.remaining) || fault.remaining < 1) {
    throw invalidRequest("count must be a positive whole number.", { param: "count" });
  }
  standIn.faults.push(fault);
  return ok({ faults: standIn.faults }, 201);
});

on("DELETE", "/faults", (standIn) => {
  standIn.faults = [];
  return ok({ faults: [] });
});

on("POST", "/latency", (standIn, body) => {
  const ms = Number(required(body, "ms"));
  if (!Number.isFinite(ms) || ms < 0) throw invalidRequest("ms must be a number of milliseconds.", { param: "ms" });
  standIn.latencyMs = ms;
  return ok({ latency_ms: ms });
});

export async function handleControl(
  standIn: StripeStandIn,
  method: string,
  url: URL,
  body: Body,
): Promise<ControlAnswer> {
  for (const candidate of ROUTES) {
    if (candidate.method !== method) continue;
    const match = candidate.pattern.exec(url.pathname);
    if (match) return candidate.handle(standIn, body, match.slice(1), url);
  }
  throw invalidRequest(`No test-control route ${method} ${url.pathname}.`, { status: 404 });
}
