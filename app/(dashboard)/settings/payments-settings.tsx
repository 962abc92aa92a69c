"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { CopyButton } from "@/components/copy-button";
import { DescriptionList } from "@/components/description-list";
import { FormShell, useForm } from "@/components/entity-form";
import { TextField } from "@/components/form";
import { ErrorState, LoadingBlock } from "@/components/states";
import { useToast } from "@/components/toast";
import { ApiClientError } from "@/lib/dashboard/api";
import { formatDateTime } from "@/lib/dashboard/display";
import {
  describeStripeAccount,
  type PaymentSettings,
  useDisconnectStripe,
  usePaymentSettings,
  useProcessorWebhooks,
  useSavePaymentSettings,
  useTestStripeConnection,
} from "@/lib/dashboard/payment-settings";
import { Allowed } from "@/lib/dashboard/permissions";
import { type UpdatePaymentSettingsInput, updatePaymentSettingsBody } from "@/lib/schemas/payment-settings";

const FIELDS = ["secret_key", "publishable_key", "webhook_secret"] as const;

/** Settings → Payments: which processor is active, the Stripe keys (connect, test, disconnect). */
export function PaymentsSettings() {
  const settings = usePaymentSettings();
  if (settings.data) return <Payments settings={settings.data} />;
  if (settings.isLoading) return <LoadingBlock label="Loading the payment settings…" />;
  return (
    <ErrorState error={settings.error} title="Could not load the payment settings" onRetry={() => settings.refetch()} />
  );
}

function processorText(settings: PaymentSettings): string {
  if (settings.processor === "sandbox") return "Sandbox test cards (no processor connected)";
  return `Stripe, ${settings.mode === "live" ? "live" : "test"} mode`;
}

function sourceText(settings: PaymentSettings): string {
  if (settings.source === "environment") {
    return "The server's environment (STRIPE_SECRET_KEY…): change the keys there.";
  }
  if (settings.source === "settings") return `Saved here, ${formatDateTime(settings.updated_at)}.`;
  return "None yet.";
}

function Payments({ settings }: { settings: PaymentSettings }) {
  const connected = settings.processor === "stripe";
  return (
    <div className="space-y-5">
      <DescriptionList
        items={[
          { term: "Active processor", value: <span data-testid="active-processor">{processorText(settings)}</span> },
          { term: "Keys from", value: sourceText(settings) },
          ...(connected
            ? [
                {
                  term: "Publishable key",
                  value: <code className="break-all">{settings.publishable_key ?? "—"}</code>,
                },
                { term: "Secret key", value: <code>{settings.secret_key_hint}</code> },
                { term: "Webhook signing secret", value: settings.webhook_secret_set ? "Set" : "Not set" },
              ]
            : []),
        ]}
      />
      {settings.problem && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          These settings cannot be used: {settings.problem}
        </p>
      )}
      {connected && <ConnectionActions settings={settings} />}
      {connected && <WebhookStatus />}
      <WebhookInstructions settings={settings} />
      {settings.source !== "environment" && <ConnectForm settings={settings} />}
      <p className="text-xs text-slate-600">
        With Stripe connected, the hosted checkout, renewals, one-time charges and refunds go through Stripe. Test keys
        (sk_test_…, pk_test_…) work in the sandbox, to rehearse before going live with Stripe's test cards; a live
        deployment takes live keys only. Without Stripe, the sandbox takes its own test cards and live takes no card
        payments.
      </p>
    </div>
  );
}

function ConnectionActions({ settings }: { settings: PaymentSettings }) {
  const test = useTestStripeConnection();
  const disconnect = useDisconnectStripe();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [disconnectError, setDisconnectError] = useState<string | null>(null);

  async function onDisconnect() {
    setDisconnectError(null);
    try {
      await disconnect.mutateAsync();
      setConfirming(false);
      test.reset();
      toast.show("Stripe disconnected.");
    } catch (error) {
      setDisconnectError(error instanceof Error ? error.message : "Stripe could not be disconnected.");
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Allowed permission="settings.write" action="test the Stripe connection">
          <Button
            variant="secondary"
            pending={test.isPending}
            pendingLabel="Testing…"
            onClick={() => test.mutate()}
            disabled={settings.problem !== null}
          >
            Test connection
          </Button>
        </Allowed>
        {settings.source === "settings" && (
          <Allowed permission="settings.write" action="disconnect Stripe">
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Disconnect Stripe
            </Button>
          </Allowed>
        )}
      </div>
      <div role="status" aria-live="polite" className="text-sm">
        {test.data && <p className="text-green-800">{describeStripeAccount(test.data)}</p>}
      </div>
      {test.error && (
        <p role="alert" className="text-sm text-red-700">
          {testErrorText(test.error)}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title="Disconnect Stripe?"
        description="The saved keys are deleted. Payments go back to the sandbox processor; to connect again, enter the keys again."
        confirmLabel="Disconnect Stripe"
        pending={disconnect.isPending}
        error={disconnectError}
        onConfirm={onDisconnect}
        onCancel={() => {
          setConfirming(false);
          setDisconnectError(null);
        }}
      />
    </div>
  );
}

function testErrorText(error: Error): string {
  if (error instanceof ApiClientError && error.errors[0]) {
    const field = error.errors[0];
    return `The ${field.field === "secret_key" ? "secret key" : field.field} ${field.message}.`;
  }
  return error.message;
}

/**
 * What Stripe's webhooks did lately: the last event received, how many wait to be applied, and the
 * events whose processing failed (the queue retries each with backoff). A deployment whose
 * webhook is not registered, or whose signing secret is wrong, shows nothing received.
 */
function WebhookStatus() {
  const webhooks = useProcessorWebhooks(true);
  if (webhooks.isLoading) return <LoadingBlock label="Loading Stripe's webhooks…" lines={2} />;
  if (!webhooks.data) {
    return (
      <ErrorState error={webhooks.error} title="Could not load Stripe's webhooks" onRetry={() => webhooks.refetch()} />
    );
  }
  const { last_received: last, unprocessed, failures } = webhooks.data;
  return (
    <section aria-labelledby="stripe-webhooks-heading" className="space-y-2">
      <h3 id="stripe-webhooks-heading" className="text-sm font-semibold text-slate-900">
        Webhooks from Stripe
      </h3>
      <DescriptionList
        items={[
          {
            term: "Last received",
            value: (
              <span data-testid="last-webhook">
                {last ? `${last.type}, ${formatDateTime(last.received_at)}` : "None yet: register the endpoint below"}
              </span>
            ),
          },
          { term: "Waiting to be applied", value: unprocessed.toLocaleString() },
        ]}
      />
      {failures.length > 0 && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-medium">
            {failures.length === 1 ? "1 event" : `${failures.length} events`} could not be applied yet (retried
            automatically):
          </p>
          <ul className="mt-1 space-y-1">
            {failures.map((failure) => (
              <li key={failure.event_id} className="break-words">
                <code>{failure.type}</code> <code className="text-xs">{failure.event_id}</code>, {failure.attempts}{" "}
                {failure.attempts === 1 ? "try" : "tries"}: {failure.error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function WebhookInstructions({ settings }: { settings: PaymentSettings }) {
  return (
    <details className="rounded-md border border-slate-200 px-4 py-3 text-sm">
      <summary className="cursor-pointer font-medium text-slate-900">Webhook endpoint to register in Stripe</summary>
      <div className="mt-3 space-y-3 text-slate-700">
        <p>
          In the Stripe dashboard (Developers → Webhooks), add an endpoint with this URL, enable the events below, and
          enter its signing secret (whsec_…) here.
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <code className="rounded bg-slate-50 px-2 py-1 break-all" data-testid="stripe-webhook-url">
            {settings.webhook_url}
          </code>
          <CopyButton value={settings.webhook_url} label="Copy webhook URL" />
        </div>
        <ul className="grid list-disc grid-cols-1 gap-x-6 pl-5 font-mono text-xs sm:grid-cols-2">
          {settings.webhook_events.map((event) => (
            <li key={event}>{event}</li>
          ))}
        </ul>
      </div>
    </details>
  );
}

interface Values {
  secret_key: string;
  publishable_key: string;
  webhook_secret: string;
}

const EMPTY: Values = { secret_key: "", publishable_key: "", webhook_secret: "" };

function ConnectForm({ settings }: { settings: PaymentSettings }) {
  const state = useForm<Values>(() => EMPTY, { autoFocus: false });
  const save = useSavePaymentSettings();
  const toast = useToast();
  const replacing = settings.source === "settings";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body: UpdatePaymentSettingsInput = {
      secret_key: state.values.secret_key,
      publishable_key: state.values.publishable_key,
      // Left empty: keep the saved signing secret (the API's rule for a missing field).
      ...(state.values.webhook_secret.trim() ? { webhook_secret: state.values.webhook_secret } : {}),
    };
    return state.run({
      fields: FIELDS,
      schema: updatePaymentSettingsBody,
      body,
      send: async (sent) => {
        await save.mutateAsync(sent);
        // The secrets leave the page's memory once saved: the form starts empty again.
        state.reset(EMPTY);
        toast.show(replacing ? "Stripe keys replaced." : "Stripe connected.");
      },
    });
  }

  return (
    <FormShell
      label={replacing ? "Replace the Stripe keys" : "Connect Stripe"}
      submitLabel={replacing ? "Replace keys" : "Connect Stripe"}
      state={state}
      onSubmit={onSubmit}
      allowed={{ permission: "settings.write", action: "connect Stripe" }}
    >
      <h3 className="text-sm font-semibold text-slate-900">{replacing ? "Replace the keys" : "Connect Stripe"}</h3>
      {!settings.encryption_key_set && (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Keys are stored encrypted: set BILLING_ENCRYPTION_KEY on the server (32 random bytes, e.g. the output of{" "}
          <code>openssl rand -hex 32</code>) and restart it before saving keys here.
        </p>
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Secret key"
          name="secret_key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          {...state.bind("secret_key")}
          hint="sk_test_… or sk_live_…, from Developers → API keys. Never shown again once saved."
        />
        <TextField
          label="Publishable key"
          name="publishable_key"
          autoComplete="off"
          spellCheck={false}
          required
          {...state.bind("publishable_key")}
          hint="pk_test_… or pk_live_…, of the same mode."
        />
        <TextField
          label="Webhook signing secret"
          name="webhook_secret"
          type="password"
          autoComplete="off"
          spellCheck={false}
          {...state.bind("webhook_secret")}
          hint={
            settings.webhook_secret_set
              ? "whsec_…; leave empty to keep the saved one."
              : "whsec_…, from the webhook endpoint's page in Stripe."
          }
        />
      </div>
    </FormShell>
  );
}
