/**
 * The payment processor settings (an extension of ours, issue 21 §2: the API family has no such
 * resource): which processor takes payments, and the Stripe keys an owner enters. Client-safe: the
 * dashboard's Settings → Payments form uses these schemas too.
 *
 * Secrets are write-only: the secret key and the webhook signing secret are accepted by PUT and
 * never answered again by any route or page (only `secret_key_hint`, e.g. "sk_live_…abcd", and
 * `webhook_secret_set`).
 */
import { z } from "zod";

/** `sandbox`: today's test cards (no processor configured); `stripe`: payments go through Stripe. */
export const PAYMENT_PROCESSORS = ["sandbox", "stripe"] as const;
export const PAYMENT_SETTINGS_SOURCES = ["environment", "settings"] as const;
export const STRIPE_KEY_MODES = ["test", "live"] as const;

export const paymentSettingsSchema = z.object({
  /** The processor payments go through now. */
  processor: z.enum(PAYMENT_PROCESSORS),
  /** Where the Stripe keys come from: the server's environment (STRIPE_SECRET_KEY…) or Settings; null without keys. */
  source: z.enum(PAYMENT_SETTINGS_SOURCES).nullable(),
  /** The keys' mode: `test` (sk_test_…, the sandbox) or `live`. */
  mode: z.enum(STRIPE_KEY_MODES).nullable(),
  publishable_key: z.string().nullable(),
  /** The secret key's kind, mode and last 4 characters ("sk_live_…abcd"): all that is shown of it. */
  secret_key_hint: z.string().nullable(),
  webhook_secret_set: z.boolean(),
  /** The address to register as the Stripe webhook endpoint: `${PUBLIC_URL}/webhooks/stripe`. */
  webhook_url: z.string(),
  /** The events to enable on that endpoint. */
  webhook_events: z.array(z.string()),
  /** Where Stripe's API is reached (STRIPE_API_URL; Stripe's own by default). */
  api_url: z.string(),
  /** Whether BILLING_ENCRYPTION_KEY is set, which storing keys here needs. */
  encryption_key_set: z.boolean(),
  /** Why the configured keys cannot be used (no payment goes through Stripe until fixed), or null. */
  problem: z.string().nullable(),
  /** When the keys were last saved here (null: never, or configured by the environment). */
  updated_at: z.string().nullable(),
});
export type PaymentSettings = z.infer<typeof paymentSettingsSchema>;

const secretKey = z
  .string({ error: "must be a Stripe secret key (sk_test_… or sk_live_…)" })
  .trim()
  .max(255, "must be at most 255 characters")
  .regex(
    /^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,240}$/,
    "must be a Stripe secret key (sk_test_… or sk_live_…, or a restricted key rk_…), as the Stripe dashboard shows it under Developers → API keys",
  );

const publishableKey = z
  .string({ error: "must be a Stripe publishable key (pk_test_… or pk_live_…)" })
  .trim()
  .max(255, "must be at most 255 characters")
  .regex(/^pk_(test|live)_[A-Za-z0-9_]{8,240}$/, "must be a Stripe publishable key (pk_test_… or pk_live_…)");

const webhookSecret = z
  .string({ error: "must be a Stripe webhook signing secret (whsec_…) or null" })
  .trim()
  .max(255, "must be at most 255 characters")
  .regex(
    /^whsec_[A-Za-z0-9+/=_-]{8,240}$/,
    "must be a Stripe webhook signing secret (whsec_…), as the endpoint's page in the Stripe dashboard shows it",
  );

/**
 * PUT /payment-settings: connect Stripe with a key pair of the deployment's mode. `webhook_secret`
 * left out keeps the one saved before (a key rotation need not re-enter it); null removes it.
 */
export const updatePaymentSettingsBody = z.strictObject({
  secret_key: secretKey,
  publishable_key: publishableKey,
  webhook_secret: webhookSecret.nullable().optional(),
});
export type UpdatePaymentSettingsInput = z.infer<typeof updatePaymentSettingsBody>;

/** POST /payment-settings/test: the Stripe account the active keys belong to. */
export const paymentSettingsTestSchema = z.object({
  processor: z.literal("stripe"),
  mode: z.enum(STRIPE_KEY_MODES),
  account: z.object({
    id: z.string(),
    name: z.string().nullable(),
    country: z.string().nullable(),
    /** Upper case, as every currency code of this API ("USD"). */
    default_currency: z.string().nullable(),
  }),
});
export type PaymentSettingsTest = z.infer<typeof paymentSettingsTestSchema>;
