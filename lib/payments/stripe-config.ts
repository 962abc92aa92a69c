/**
 * The active Stripe settings (issue 21 §2), read the same way by every process of a deployment:
 *
 * 1. The environment, when STRIPE_SECRET_KEY is set: STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and
 *    STRIPE_WEBHOOK_SECRET. The settings table is then not looked at, and the API refuses to change
 *    keys (the environment wins; unset it to manage keys in the dashboard).
 * 2. Otherwise what an owner entered in Settings → Payments (PUT /api/payment-settings), kept in the
 *    `settings` table: the publishable key in clear, the secret key and the webhook signing secret
 *    sealed with AES-256-GCM (secret-box.ts), a "sk_live_…abcd" hint for display, and a version that
 *    changes with every save (the client factory keys its instance by it).
 * 3. Neither: no processor is configured and payments stay with the sandbox processor.
 *
 * STRIPE_API_URL and STRIPE_JS_URL (defaults: Stripe's own) apply to both sources: tests and the
 * bench point them at the local stand-in (lib/dev/stripe).
 *
 * Keys carry their mode: `sk_test_`/`rk_test_`/`pk_test_` keys work in the sandbox deployment (a
 * rehearsal before going live), `sk_live_`/`rk_live_`/`pk_live_` keys only in the live one, and a
 * secret and a publishable key of different modes are never paired. Settings that break a rule
 * (environment variables set wrong, keys saved before the deployment changed environment, secrets
 * sealed under another BILLING_ENCRYPTION_KEY) are reported as `problem` and never used: the
 * deployment then takes no payment through Stripe rather than the wrong one.
 */
import { createHash } from "node:crypto";
import Stripe from "stripe";
import { config, type Environment } from "../config.ts";
import { query } from "../db/sql.ts";
import type { FieldError } from "../errors.ts";
import { SecretBoxError, unseal } from "./secret-box.ts";

export const STRIPE_DEFAULT_API_URL = "https://api.stripe.com";
/** Stripe.js v3, the address Stripe documents for its script tag. */
export const STRIPE_DEFAULT_JS_URL = "https://js.stripe.com/v3/";

/** Where each part is kept in the `settings` table. */
export const STRIPE_SETTING_KEYS = {
  secretKey: "stripe_secret_key",
  secretKeyHint: "stripe_secret_key_hint",
  publishableKey: "stripe_publishable_key",
  webhookSecret: "stripe_webhook_secret",
  version: "stripe_settings_version",
} as const;
export const STRIPE_SETTING_KEY_LIST: readonly string[] = Object.values(STRIPE_SETTING_KEYS);

/**
 * The events to enable on the Stripe webhook endpoint (`${PUBLIC_URL}/webhooks/stripe`): what the
 * processor layer acts on (issue 21 §6).
 */
export const STRIPE_WEBHOOK_EVENTS = [
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.processing",
  "payment_intent.requires_action",
  "setup_intent.succeeded",
  "charge.refunded",
  "refund.updated",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.closed",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated",
  "payment_method.updated",
  "payment_method.automatically_updated",
  "payment_method.detached",
] as const;

export type KeyMode = "test" | "live";

/** Stripe secret keys (`sk_`) and restricted keys (`rk_`); Stripe's own are letters and digits. */
export const SECRET_KEY_PATTERN = /^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,240}$/;
export const PUBLISHABLE_KEY_PATTERN = /^pk_(test|live)_[A-Za-z0-9_]{8,240}$/;
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=_-]{8,240}$/;

export function keyMode(key: string): KeyMode | null {
  const match = /^(?:sk|rk|pk)_(test|live)_/.exec(key);
  return match ? (match[1] as KeyMode) : null;
}

/** What may be shown of a secret key once saved: its kind, mode and last 4 ("sk_live_…abcd"). */
export function secretKeyHint(key: string): string {
  const prefix = /^(sk|rk)_(test|live)_/.exec(key)?.[0] ?? "";
  return `${prefix}…${key.slice(-4)}`;
}

/** The mode a deployment's keys must have: test keys in the sandbox, live keys in live. */
export function modeFor(environment: Environment): KeyMode {
  return environment === "live" ? "live" : "test";
}

/**
 * What is wrong with a key pair for a deployment in `environment` (empty: nothing), each problem
 * naming its field: `secret_key` or `publishable_key`. Both keys must have the deployment's mode,
 * so a pair of mixed modes is always refused, naming the key of the wrong mode.
 */
export function keyPairProblems(secretKey: string, publishableKey: string, environment: Environment): FieldError[] {
  const problems: FieldError[] = [];
  const wanted = modeFor(environment);
  const secretMode = keyMode(secretKey);
  const publishableMode = keyMode(publishableKey);
  const rule =
    wanted === "live"
      ? "this deployment is live (BILLING_ENVIRONMENT=live) and takes live keys only"
      : "this deployment is the sandbox and takes test keys only (sk_test_…, pk_test_…), for a rehearsal before going live";
  if (secretMode && secretMode !== wanted) {
    problems.push({ field: "secret_key", message: `is a ${secretMode} key, but ${rule}` });
  }
  if (publishableMode && publishableMode !== wanted) {
    problems.push({ field: "publishable_key", message: `is a ${publishableMode} key, but ${rule}` });
  }
  return problems;
}

/** STRIPE_API_URL / STRIPE_JS_URL (Stripe's own by default), or why they cannot be used. */
export function stripeUrls(): { apiUrl: string; jsUrl: string; problem: string | null } {
  const apiUrl = (process.env.STRIPE_API_URL ?? "").trim().replace(/\/+$/, "") || STRIPE_DEFAULT_API_URL;
  const jsUrl = (process.env.STRIPE_JS_URL ?? "").trim() || STRIPE_DEFAULT_JS_URL;
  let problem: string | null = null;
  try {
    const api = new URL(apiUrl);
    if (!["http:", "https:"].includes(api.protocol) || (api.pathname !== "/" && api.pathname !== "") || api.search) {
      problem = `STRIPE_API_URL must be an http(s) origin such as https://api.stripe.com, not "${apiUrl}"`;
    }
  } catch {
    problem = `STRIPE_API_URL is not a URL: "${apiUrl}"`;
  }
  try {
    const js = new URL(jsUrl);
    if (!["http:", "https:"].includes(js.protocol)) problem ??= `STRIPE_JS_URL must be an http(s) URL, not "${jsUrl}"`;
  } catch {
    problem ??= `STRIPE_JS_URL is not a URL: "${jsUrl}"`;
  }
  return { apiUrl, jsUrl, problem };
}

/** The Stripe settings a deployment has, usable or not. */
export interface StripeConfiguration {
  source: "environment" | "settings";
  publishableKey: string | null;
  secretKeyHint: string;
  mode: KeyMode | null;
  webhookSecretSet: boolean;
  apiUrl: string;
  jsUrl: string;
  /** When the owner last saved them (settings source), RFC 3339 with microseconds. */
  updatedAt: string | null;
  /** Why they cannot be used, in an operator's words (null: usable). */
  problem: string | null;
  /** Present exactly when `problem` is null. Never serialised or logged. */
  usable: StripeSettings | null;
}

/** Usable Stripe settings, secrets in clear: for the client factory and the processor layer only. */
export interface StripeSettings {
  source: "environment" | "settings";
  secretKey: string;
  publishableKey: string;
  webhookSecret: string | null;
  mode: KeyMode;
  apiUrl: string;
  jsUrl: string;
  /** Changes whenever any of the above changes: one Stripe client per version. */
  version: string;
}

function fromEnvironment(environment: Environment): StripeConfiguration | null {
  const secretKey = (process.env.STRIPE_SECRET_KEY ?? "").trim();
  if (secretKey === "") return null;
  const publishableKey = (process.env.STRIPE_PUBLISHABLE_KEY ?? "").trim();
  const webhookSecret = (process.env.STRIPE_WEBHOOK_SECRET ?? "").trim() || null;
  const { apiUrl, jsUrl, problem: urlProblem } = stripeUrls();
  let problem: string | null = urlProblem;
  if (!SECRET_KEY_PATTERN.test(secretKey)) {
    problem ??= "STRIPE_SECRET_KEY is not a Stripe secret key (sk_test_…, sk_live_…, or a restricted rk_… key)";
  } else if (publishableKey === "") {
    problem ??= "STRIPE_PUBLISHABLE_KEY is not set: the checkout needs it with STRIPE_SECRET_KEY";
  } else if (!PUBLISHABLE_KEY_PATTERN.test(publishableKey)) {
    problem ??= "STRIPE_PUBLISHABLE_KEY is not a Stripe publishable key (pk_test_… or pk_live_…)";
  } else if (webhookSecret !== null && !WEBHOOK_SECRET_PATTERN.test(webhookSecret)) {
    problem ??= "STRIPE_WEBHOOK_SECRET is not a Stripe webhook signing secret (whsec_…)";
  } else {
    const [first] = keyPairProblems(secretKey, publishableKey, environment);
    if (first) problem ??= `STRIPE_${first.field.toUpperCase()} ${first.message}`;
  }
  const mode = keyMode(secretKey);
  const version = `env:${createHash("sha256")
    .update([secretKey, publishableKey, webhookSecret ?? "", apiUrl, jsUrl].join("\n"))
    .digest("hex")
    .slice(0, 16)}`;
  return {
    source: "environment",
    publishableKey: publishableKey || null,
    secretKeyHint: secretKeyHint(secretKey),
    mode,
    webhookSecretSet: webhookSecret !== null,
    apiUrl,
    jsUrl,
    updatedAt: null,
    problem,
    usable:
      problem === null && mode
        ? { source: "environment", secretKey, publishableKey, webhookSecret, mode, apiUrl, jsUrl, version }
        : null,
  };
}

async function fromSettings(environment: Environment): Promise<StripeConfiguration | null> {
  const rows = await query<{ key: string; value: string; updated_at: string }>(
    `SELECT key, value, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at
       FROM settings WHERE key = ANY($1)`,
    [STRIPE_SETTING_KEY_LIST],
  );
  const row = (key: string) => rows.find((r) => r.key === key);
  const sealedSecret = row(STRIPE_SETTING_KEYS.secretKey);
  if (!sealedSecret) return null;
  const publishableKey = row(STRIPE_SETTING_KEYS.publishableKey)?.value ?? null;
  const sealedWebhook = row(STRIPE_SETTING_KEYS.webhookSecret)?.value ?? null;
  const hint = row(STRIPE_SETTING_KEYS.secretKeyHint)?.value ?? "sk_…";
  const { apiUrl, jsUrl, problem: urlProblem } = stripeUrls();
  let problem = urlProblem;
  let secretKey: string | null = null;
  let webhookSecret: string | null = null;
  try {
    secretKey = unseal(sealedSecret.value, STRIPE_SETTING_KEYS.secretKey);
    if (sealedWebhook) webhookSecret = unseal(sealedWebhook, STRIPE_SETTING_KEYS.webhookSecret);
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    problem ??= `The saved Stripe secrets cannot be read: ${error.message}. Enter the keys again in Settings → Payments.`;
  }
  if (secretKey && publishableKey) {
    const [first] = keyPairProblems(secretKey, publishableKey, environment);
    if (first) {
      problem ??= `The saved ${first.field === "secret_key" ? "secret" : "publishable"} key ${first.message}. Enter keys of the right mode in Settings → Payments.`;
    }
  } else if (!publishableKey) {
    problem ??= "The saved Stripe settings have no publishable key. Enter the keys again in Settings → Payments.";
  }
  const mode = keyMode(secretKey ?? hint);
  const updatedAt = rows.reduce<string | null>((max, r) => (max && max > r.updated_at ? max : r.updated_at), null);
  const stored = row(STRIPE_SETTING_KEYS.version)?.value ?? updatedAt ?? "";
  return {
    source: "settings",
    publishableKey,
    secretKeyHint: hint,
    mode,
    webhookSecretSet: sealedWebhook !== null,
    apiUrl,
    jsUrl,
    updatedAt,
    problem,
    usable:
      problem === null && secretKey && publishableKey && mode
        ? {
            source: "settings",
            secretKey,
            publishableKey,
            webhookSecret,
            mode,
            apiUrl,
            jsUrl,
            version: `settings:${stored}:${apiUrl}:${jsUrl}`,
          }
        : null,
  };
}

/**
 * The deployment's Stripe configuration, from the environment or else the settings table; null
 * when there is none (payments use the sandbox processor). Read fresh on every call (one indexed
 * query when the environment has no keys), so that every process sees a change at once.
 */
export async function loadStripeConfiguration(): Promise<StripeConfiguration | null> {
  const environment = config.environment;
  return fromEnvironment(environment) ?? (await fromSettings(environment));
}

/** Whether the environment configures Stripe (then the dashboard cannot change it). */
export function stripeConfiguredByEnvironment(): boolean {
  return (process.env.STRIPE_SECRET_KEY ?? "").trim() !== "";
}

let cached: { version: string; client: Stripe } | null = null;

/**
 * The `stripe` client for these settings: one instance per settings version (a new one after each
 * save), pointed at STRIPE_API_URL. Retries up to twice on network errors and 409/5xx, which is safe
 * because every POST carries an idempotency key (the package adds one when the caller gives none).
 */
export function stripeClient(settings: StripeSettings): Stripe {
  if (cached?.version === settings.version) return cached.client;
  const url = new URL(settings.apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  const client = new Stripe(settings.secretKey, {
    host: url.hostname,
    port: url.port || (protocol === "http" ? 80 : 443),
    protocol,
    maxNetworkRetries: 2,
    timeout: 30_000,
    appInfo: { name: "billing-service" },
    // The package's request telemetry (latencies reported to Stripe in a header): off, as a
    // self-hosted service sends nothing it does not need to, and it cost CPU on every request.
    telemetry: false,
  });
  cached = { version: settings.version, client };
  return client;
}
