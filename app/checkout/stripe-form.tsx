"use client";

/**
 * The checkout's card form when Stripe takes the payment (issue 21 §3): Stripe's Payment Element,
 * loaded from STRIPE_JS_URL (Stripe's own script by default) and shown at once, without a click.
 * The card is typed into Stripe's element and goes from the browser to Stripe only: this page asks
 * for no card number and sends none to our server. The flow (lib/services/payments/stripe-checkout.ts):
 * POST /api/checkout/{id}/payment-intent gives the intent's client secret; the pay button confirms it
 * with Stripe.js (`redirect: "if_required"`: a 3-D Secure challenge opens in Stripe's own dialog;
 * a method that must redirect comes back to this page with `?payment_intent=…`, settled by the
 * page's server); then POST /api/checkout/{id}/payments/confirm asks our server to read the outcome
 * from Stripe and settle it. The browser's word is never taken for a payment.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "@/components/button";
import { ApiClientError, api } from "@/lib/dashboard/api";
import { formatMoney } from "@/lib/dashboard/money";
import type { CheckoutConfirmation, CheckoutIntent, CheckoutView } from "@/lib/schemas/payment";
import type { RecurringTerms } from "./recurring-terms";

// The few Stripe.js calls the checkout makes (docs.stripe.com/js), typed for this file only.
interface StripeError {
  type?: string;
  code?: string;
  message?: string;
  payment_intent?: { id: string };
  setup_intent?: { id: string };
}
interface StripeElement {
  mount(target: HTMLElement): void;
  on(event: "ready" | "loaderror", handler: (event?: { error?: StripeError }) => void): void;
  destroy(): void;
}
interface StripeElements {
  create(type: "payment", options?: Record<string, unknown>): StripeElement;
  submit(): Promise<{ error?: StripeError }>;
}
interface ConfirmResult {
  error?: StripeError;
  paymentIntent?: { id: string; status: string };
  setupIntent?: { id: string; status: string };
}
interface StripeInstance {
  elements(options: { clientSecret: string; appearance?: Record<string, unknown> }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    redirect: "if_required";
    confirmParams: { return_url: string };
  }): Promise<ConfirmResult>;
  confirmSetup(options: {
    elements: StripeElements;
    redirect: "if_required";
    confirmParams: { return_url: string };
  }): Promise<ConfirmResult>;
}
type StripeFactory = (publishableKey: string) => StripeInstance;

const LOAD_TIMEOUT_MS = 20_000;

/** Loads Stripe.js once per page from `url` (its documented script tag, added when needed). */
function loadStripeJs(url: string): Promise<StripeFactory> {
  const w = window as unknown as { Stripe?: StripeFactory };
  if (w.Stripe) return Promise.resolve(w.Stripe);
  return new Promise((resolve, reject) => {
    const existing = document.querySelector<HTMLScriptElement>(`script[data-stripe-js]`);
    const script = existing ?? document.createElement("script");
    const timer = window.setTimeout(() => reject(new Error("timeout")), LOAD_TIMEOUT_MS);
    script.addEventListener("load", () => {
      window.clearTimeout(timer);
      if (w.Stripe) resolve(w.Stripe);
      else reject(new Error("Stripe.js did not load"));
    });
    script.addEventListener("error", () => {
      window.clearTimeout(timer);
      reject(new Error("Stripe.js could not be fetched"));
    });
    if (!existing) {
      script.src = url;
      script.async = true;
      script.dataset.stripeJs = "";
      document.head.appendChild(script);
    }
  });
}

/** What the pay button says: what pressing it does. */
export function payLabel(kind: CheckoutIntent["kind"], terms: RecurringTerms | null, amount: string): string {
  const purchase = terms?.kind === "purchase";
  if (kind === "setup") return purchase ? "Subscribe" : "Save card";
  return purchase ? `Subscribe and pay ${amount}` : `Pay ${amount}`;
}

type Phase = "loading" | "ready" | "failed_to_load";

export function StripePaymentForm({
  view,
  terms,
  returnedError = null,
  onPaid,
  onAlreadyPaid,
  onNotPayable,
}: {
  view: CheckoutView;
  terms: RecurringTerms | null;
  /** Why a payment that came back from a redirect (3-D Secure) failed, in words. */
  returnedError?: string | null;
  onPaid: (payment: CheckoutConfirmation["payment"]) => void;
  onAlreadyPaid: () => void;
  onNotPayable: () => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ stripe: StripeInstance; elements: StripeElements; intent: CheckoutIntent } | null>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(returnedError);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [kind, setKind] = useState<CheckoutIntent["kind"]>(view.totals.grand_total === "0" ? "setup" : "payment");
  const id = view.transaction_id;
  const amount = formatMoney(view.totals.grand_total, view.currency_code);

  // Handlers from the parent change identity each render; the effect runs once.
  const callbacks = useRef({ onAlreadyPaid, onNotPayable });
  callbacks.current = { onAlreadyPaid, onNotPayable };

  useEffect(() => {
    let canceled = false;
    let element: StripeElement | null = null;
    // A return from a redirect leaves Stripe's parameters in the address: drop them (settled already).
    const url = new URL(window.location.href);
    if (url.searchParams.has("payment_intent") || url.searchParams.has("setup_intent")) {
      window.history.replaceState(null, "", `/checkout?_ptxn=${encodeURIComponent(id)}`);
    }
    (async () => {
      let intent: CheckoutIntent;
      try {
        intent = (
          await api<{ data: CheckoutIntent }>(`/checkout/${encodeURIComponent(id)}/payment-intent`, { method: "POST" })
        ).data;
      } catch (e) {
        if (canceled) return;
        if (e instanceof ApiClientError && e.code === "transaction_already_paid") callbacks.current.onAlreadyPaid();
        else if (e instanceof ApiClientError && e.code === "transaction_not_payable") callbacks.current.onNotPayable();
        else {
          setLoadProblem(e instanceof ApiClientError ? e.message : "The payment could not be started.");
          setPhase("failed_to_load");
        }
        return;
      }
      let factory: StripeFactory;
      try {
        factory = await loadStripeJs(intent.stripe_js_url);
      } catch {
        if (canceled) return;
        setLoadProblem("The secure card form could not be loaded. Check your connection, then reload the page.");
        setPhase("failed_to_load");
        return;
      }
      if (canceled || !container.current) return;
      const instance = factory(intent.publishable_key);
      const elements = instance.elements({
        clientSecret: intent.client_secret,
        appearance: { theme: "stripe", variables: { colorPrimary: "#4f46e5", borderRadius: "6px" } },
      });
      element = elements.create("payment", { layout: "tabs" });
      element.on("ready", () => {
        if (!canceled) setPhase("ready");
      });
      element.on("loaderror", () => {
        if (canceled) return;
        setLoadProblem("The secure card form could not be loaded. Reload the page to try again.");
        setPhase("failed_to_load");
      });
      element.mount(container.current);
      stripe.current = { stripe: instance, elements, intent };
      setKind(intent.kind);
    })();
    return () => {
      canceled = true;
      element?.destroy();
      stripe.current = null;
    };
  }, [id]);

  /** Asks our server to read the intent's outcome from Stripe and settle it. */
  async function settle(reference: string) {
    try {
      const outcome = (
        await api<{ data: CheckoutConfirmation }>(`/checkout/${encodeURIComponent(id)}/payments/confirm`, {
          method: "POST",
          body: { payment_intent: reference },
        })
      ).data;
      if (outcome.status === "succeeded") onPaid(outcome.payment);
      else if (outcome.status === "processing")
        setNotice("Your payment is being processed. This page shows the result once your bank confirms it.");
      else if (outcome.status === "requires_action")
        setError("Your bank asks you to confirm this payment. Press the button again to confirm it.");
      else setError(outcome.error?.message ?? "The payment could not be taken. Try another card.");
    } catch (e) {
      if (e instanceof ApiClientError && e.code === "transaction_already_paid") onAlreadyPaid();
      else setError(e instanceof ApiClientError ? e.message : "Something went wrong. Try again.");
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const current = stripe.current;
    if (!current || pending) return;
    setPending(true);
    setError(null);
    setNotice(null);
    try {
      const checked = await current.elements.submit();
      // Problems with what was typed are shown by the element, beside its fields.
      if (checked.error) return;
      const options = {
        elements: current.elements,
        redirect: "if_required" as const,
        confirmParams: { return_url: `${window.location.origin}/checkout?_ptxn=${encodeURIComponent(id)}` },
      };
      const result =
        current.intent.kind === "setup"
          ? await current.stripe.confirmSetup(options)
          : await current.stripe.confirmPayment(options);
      const reference =
        result.paymentIntent?.id ??
        result.setupIntent?.id ??
        result.error?.payment_intent?.id ??
        result.error?.setup_intent?.id ??
        null;
      if (reference) await settle(reference);
      else if (result.error && result.error.type !== "validation_error")
        setError(result.error.message ?? "The payment could not be taken. Try again.");
    } finally {
      setPending(false);
    }
  }

  const label = payLabel(kind, terms, amount);
  return (
    <form
      aria-label="Card payment"
      noValidate
      onSubmit={submit}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">{kind === "setup" ? "Save a card" : "Pay by card"}</h2>
        <p className="text-xs text-slate-600">Secured by Stripe</p>
      </div>
      {kind === "setup" && (
        <p className="text-sm text-slate-700">Nothing is charged today: the card is saved for your next payments.</p>
      )}
      <div aria-live="assertive">
        {error && (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            <p className="font-medium">{kind === "setup" ? "The card was not saved" : "Payment declined"}</p>
            <p>{error}</p>
          </div>
        )}
      </div>
      {notice && (
        <div role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          {notice}
        </div>
      )}
      {phase === "loading" && (
        <div role="status" aria-live="polite" className="space-y-3" data-testid="stripe-loading">
          <p className="text-sm text-slate-600">Loading the secure card form…</p>
          <div className="h-10 animate-pulse rounded-md bg-slate-100" />
          <div className="grid grid-cols-2 gap-3">
            <div className="h-10 animate-pulse rounded-md bg-slate-100" />
            <div className="h-10 animate-pulse rounded-md bg-slate-100" />
          </div>
        </div>
      )}
      {phase === "failed_to_load" && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-medium">The card form is not available</p>
          <p>{loadProblem}</p>
          <button type="button" className="mt-2 font-medium underline" onClick={() => window.location.reload()}>
            Reload the page
          </button>
        </div>
      )}
      <div ref={container} data-testid="payment-element" hidden={phase === "failed_to_load"} />
      {phase !== "failed_to_load" && (
        <Button
          type="submit"
          className="w-full"
          disabled={phase !== "ready"}
          pending={pending}
          pendingLabel={kind === "setup" ? "Saving card…" : "Processing payment…"}
        >
          {label}
        </Button>
      )}
    </form>
  );
}

/** Stripe's test cards, shown in the sandbox (Stripe test keys) where only they work. */
export function StripeTestCards() {
  const cards: [string, string][] = [
    ["4242 4242 4242 4242", "Succeeds"],
    ["4000 0025 0000 3155", "Asks for 3-D Secure (once; not again off-session after)"],
    ["4000 0027 6000 3184", "Asks for 3-D Secure on every payment"],
    ["4000 0000 0000 0002", "Declined"],
    ["4000 0000 0000 9995", "Declined: insufficient funds"],
  ];
  return (
    <section
      aria-labelledby="test-cards-heading"
      className="rounded-lg border border-dashed border-slate-300 p-4 text-sm"
    >
      <h2 id="test-cards-heading" className="font-medium text-slate-800">
        Stripe test cards
      </h2>
      <p className="mt-1 text-slate-600">
        Stripe is in test mode: use any future expiry date and any 3-digit security code.
      </p>
      <table className="mt-2 w-full text-left">
        <tbody>
          {cards.map(([number, label]) => (
            <tr key={number}>
              <td className="py-1 pr-4 font-mono tabular-nums whitespace-nowrap text-slate-900">{number}</td>
              <td className="py-1 text-slate-600">{label}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
