/**
 * GET, PUT and DELETE /payment-settings and POST /payment-settings/test (ours, issue 21 §2): which
 * processor takes payments, and the Stripe keys an owner connects. The rules of where settings come
 * from, how keys are checked and how secrets are kept live in lib/payments/stripe-config.ts.
 *
 * Decisions where the issue is silent:
 * - Keys set in the environment win and cannot be changed or removed here: 409 `conflict`, saying
 *   to unset STRIPE_SECRET_KEY (one source of truth per deployment).
 * - Saving does not call Stripe (keys can be entered before the server can reach Stripe); "Test
 *   connection" does, with a short timeout and no retries.
 * - Test connection answers 400 `invalid_field` naming `secret_key` with Stripe's own message when
 *   Stripe refuses the key, 400 `bad_request` when Stripe cannot be reached (the API family has no
 *   code for an unreachable upstream, and a 5xx would say the fault is ours), and 409 `conflict`
 *   when nothing usable is configured.
 */
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { config } from "../config.ts";
import { query, sqlTransaction } from "../db/sql.ts";
import { ApiError, invalidField, invalidFields } from "../errors.ts";
import { ENCRYPTION_KEY_HELP, encryptionKey, seal } from "../payments/secret-box.ts";
import {
  keyPairProblems,
  loadStripeConfiguration,
  STRIPE_SETTING_KEY_LIST,
  STRIPE_SETTING_KEYS,
  STRIPE_WEBHOOK_EVENTS,
  type StripeSettings,
  secretKeyHint,
  stripeClient,
  stripeConfiguredByEnvironment,
  stripeUrls,
} from "../payments/stripe-config.ts";
import type { PaymentSettings, PaymentSettingsTest, UpdatePaymentSettingsInput } from "../schemas/payment-settings.ts";
import { putSetting } from "./settings.ts";

/** The address to register in Stripe's dashboard as the webhook endpoint. */
export function stripeWebhookUrl(): string {
  return `${config.publicUrl}/webhooks/stripe`;
}

export async function getPaymentSettings(): Promise<PaymentSettings> {
  const stripe = await loadStripeConfiguration();
  return {
    processor: stripe ? "stripe" : "sandbox",
    source: stripe?.source ?? null,
    mode: stripe?.mode ?? null,
    publishable_key: stripe?.publishableKey ?? null,
    secret_key_hint: stripe?.secretKeyHint ?? null,
    webhook_secret_set: stripe?.webhookSecretSet ?? false,
    webhook_url: stripeWebhookUrl(),
    webhook_events: [...STRIPE_WEBHOOK_EVENTS],
    api_url: stripe?.apiUrl ?? stripeUrls().apiUrl,
    encryption_key_set: "key" in encryptionKey(),
    problem: stripe?.problem ?? null,
    updated_at: stripe?.updatedAt ?? null,
  };
}

function refuseIfEnvironment(action: string): void {
  if (stripeConfiguredByEnvironment()) {
    throw new ApiError(
      "conflict",
      `Stripe is configured by the server's environment (STRIPE_SECRET_KEY), which wins over Settings: ${action} there, or unset STRIPE_SECRET_KEY to manage the keys here.`,
    );
  }
}

export async function updatePaymentSettings(input: UpdatePaymentSettingsInput): Promise<PaymentSettings> {
  refuseIfEnvironment("change the keys");
  const problems = keyPairProblems(input.secret_key, input.publishable_key, config.environment);
  if (problems.length > 0) throw invalidFields(problems);
  const key = encryptionKey();
  if ("problem" in key) {
    throw invalidField(
      "secret_key",
      `cannot be stored: ${key.problem}. Secrets are kept encrypted, so set BILLING_ENCRYPTION_KEY on the server first (${ENCRYPTION_KEY_HELP}), restart it, and enter the keys again.`,
    );
  }
  const sealedSecret = seal(input.secret_key, STRIPE_SETTING_KEYS.secretKey);
  const sealedWebhook =
    input.webhook_secret === undefined || input.webhook_secret === null
      ? null
      : seal(input.webhook_secret, STRIPE_SETTING_KEYS.webhookSecret);
  await sqlTransaction(async (client) => {
    await putSetting(STRIPE_SETTING_KEYS.secretKey, sealedSecret, client);
    await putSetting(STRIPE_SETTING_KEYS.secretKeyHint, secretKeyHint(input.secret_key), client);
    await putSetting(STRIPE_SETTING_KEYS.publishableKey, input.publishable_key, client);
    if (sealedWebhook) await putSetting(STRIPE_SETTING_KEYS.webhookSecret, sealedWebhook, client);
    else if (input.webhook_secret === null) {
      await query("DELETE FROM settings WHERE key = $1", [STRIPE_SETTING_KEYS.webhookSecret], client);
    }
    await putSetting(STRIPE_SETTING_KEYS.version, randomBytes(8).toString("hex"), client);
  });
  return getPaymentSettings();
}

/** Disconnects Stripe: the saved keys are deleted and payments go back to the sandbox processor. */
export async function deletePaymentSettings(): Promise<PaymentSettings> {
  refuseIfEnvironment("remove the keys");
  await query("DELETE FROM settings WHERE key = ANY($1)", [STRIPE_SETTING_KEY_LIST]);
  return getPaymentSettings();
}

/** The usable settings, or the 409 that says what to do first. */
async function usableSettings(): Promise<StripeSettings> {
  const stripe = await loadStripeConfiguration();
  if (!stripe) {
    throw new ApiError(
      "conflict",
      "Stripe is not connected: enter the keys in Settings → Payments (PUT /payment-settings) or set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY.",
    );
  }
  if (!stripe.usable) throw new ApiError("conflict", stripe.problem ?? "The Stripe settings cannot be used.");
  return stripe.usable;
}

/** "Test connection": asks Stripe for the account the secret key belongs to. */
export async function testPaymentSettings(): Promise<PaymentSettingsTest> {
  const settings = await usableSettings();
  let account: Stripe.Account;
  try {
    account = await stripeClient(settings).accounts.retrieveCurrent(undefined, {
      timeout: 10_000,
      maxNetworkRetries: 0,
    });
  } catch (error) {
    if (
      error instanceof Stripe.errors.StripeAuthenticationError ||
      error instanceof Stripe.errors.StripePermissionError
    ) {
      throw invalidField("secret_key", `was refused by Stripe: ${error.message}`);
    }
    if (error instanceof Stripe.errors.StripeConnectionError) {
      throw new ApiError(
        "bad_request",
        `Stripe could not be reached at ${settings.apiUrl}: ${error.message} Check that this server can reach it (or STRIPE_API_URL).`,
      );
    }
    if (error instanceof Stripe.errors.StripeError) {
      throw new ApiError("bad_request", `Stripe answered an error: ${error.message}`);
    }
    throw error;
  }
  return {
    processor: "stripe",
    mode: settings.mode,
    account: {
      id: account.id,
      name: account.business_profile?.name ?? account.settings?.dashboard.display_name ?? null,
      country: account.country ?? null,
      default_currency: account.default_currency ? account.default_currency.toUpperCase() : null,
    },
  };
}
