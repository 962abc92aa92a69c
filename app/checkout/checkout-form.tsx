"use client";

import { type ReactNode, useEffect, useId, useState } from "react";
import { Button } from "@/components/button";
import { ApiClientError, api } from "@/lib/dashboard/api";
import { billingCycleText, formatMoney } from "@/lib/dashboard/money";
import type { CheckoutView } from "@/lib/schemas/payment";
import { CardForm, TestCards } from "./card-form";
import { MerchantLogo } from "./merchant-logo";
import type { RecurringTerms } from "./recurring-terms";
import { StripePaymentForm, StripeTestCards } from "./stripe-form";

/** What the paid notice shows of the payment (the sandbox's answer, or Stripe's confirmation). */
export interface PaidPayment {
  amount: string;
  method_details: { card: { last4: string } | null };
}

/** The page's frame: a narrow column on a quiet background. */
export function CheckoutShell({ children }: { children: ReactNode }) {
  return (
    <main className="min-h-screen bg-slate-100 px-4 py-10">
      <div className="mx-auto w-full max-w-4xl">{children}</div>
    </main>
  );
}

export function Notice({
  tone,
  title,
  children,
}: {
  tone: "success" | "error" | "info";
  title: string;
  children?: ReactNode;
}) {
  const tones = {
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
    error: "border-red-200 bg-red-50 text-red-900",
    info: "border-slate-200 bg-white text-slate-800",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-lg border px-5 py-4 ${tones[tone]}`}>
      <h2 className="text-base font-semibold">{title}</h2>
      {children && <div className="mt-1 text-sm">{children}</div>}
    </div>
  );
}

/** The checkout: order summary beside the card form (or the result, once there is one). */
export function CheckoutPanel({
  view,
  terms = null,
  logoUrl = null,
  returned = null,
}: {
  view: CheckoutView;
  terms?: RecurringTerms | null;
  /** The merchant's logo (account settings `logo_url`). */
  logoUrl?: string | null;
  /** A Stripe payment that came back from a redirect (3-D Secure) and was settled by the page's server. */
  returned?: { payment: PaidPayment | null; error: string | null } | null;
}) {
  const [current, setCurrent] = useState(view);
  const [state, setState] = useState(view.state);
  const [paid, setPaid] = useState<PaidPayment | null>(returned?.payment ?? null);
  const money = (amount: string) => formatMoney(amount, view.currency_code);
  // Once paid, the receipt link and the subscription's management come from the server.
  useEffect(() => {
    if (state !== "paid" || current.state === "paid") return;
    let canceled = false;
    api<{ data: CheckoutView }>(`/checkout/${encodeURIComponent(view.transaction_id)}`)
      .then((fresh) => {
        if (!canceled) setCurrent(fresh.data);
      })
      .catch(() => {});
    return () => {
      canceled = true;
    };
  }, [state, current.state, view.transaction_id]);

  return (
    <CheckoutShell>
      <header className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-4">
          <MerchantLogo url={logoUrl} />
          <div>
            <p className="text-sm text-slate-600">Pay</p>
            <h1 className="text-2xl font-semibold text-slate-900">{view.merchant_name}</h1>
          </div>
        </div>
        {view.environment === "sandbox" && (
          <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-medium text-amber-900 ring-1 ring-amber-600/20">
            Sandbox: no real money
          </span>
        )}
      </header>

      <div className="grid items-start gap-6 md:grid-cols-5">
        <section
          aria-labelledby="summary-heading"
          className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm md:col-span-2"
        >
          <h2 id="summary-heading" className="text-base font-semibold text-slate-900">
            Order summary
          </h2>
          {view.invoice_number && <p className="mt-1 text-sm text-slate-600">Invoice {view.invoice_number}</p>}
          <ul aria-label="Items" className="mt-4 divide-y divide-slate-100">
            {current.items.map((item) => (
              <li key={item.id} className="flex justify-between gap-4 py-3 text-sm">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{item.name}</p>
                  <p className="text-slate-600">
                    {item.description ? `${item.description} · ` : ""}Qty {item.quantity}
                  </p>
                </div>
                <span className="whitespace-nowrap tabular-nums text-slate-900">{money(item.total)}</span>
              </li>
            ))}
          </ul>
          <dl className="mt-2 space-y-2 border-t border-slate-200 pt-4 text-sm">
            <Row term="Subtotal" value={money(current.totals.subtotal)} />
            {current.totals.discount !== "0" && (
              <Row
                term={current.discount_code ? `Discount (${current.discount_code})` : "Discount"}
                value={`−${money(current.totals.discount)}`}
              />
            )}
            <Row term="Tax" value={money(current.totals.tax)} />
            {current.totals.credit !== "0" && <Row term="Credit" value={`−${money(current.totals.credit)}`} />}
            <div className="flex justify-between gap-4 border-t border-slate-200 pt-3 text-base font-semibold text-slate-900">
              <dt>Total due</dt>
              <dd className="tabular-nums" data-testid="total-due">
                {money(current.totals.grand_total)}
              </dd>
            </div>
          </dl>
          {state === "payable" && current.accepts_discount_code && (
            <DiscountCode view={current} onChange={setCurrent} />
          )}
          {terms && <RecurringTermsNote terms={terms} currency={view.currency_code} />}
        </section>

        <div className="space-y-4 md:col-span-3">
          {state === "paid" ? (
            paid?.amount === "0" && view.processor === "stripe" ? (
              <Notice tone="success" title="Card saved">
                The card ending {paid.method_details.card?.last4} is saved: your next payments are charged to it. Thank
                you!
              </Notice>
            ) : paid ? (
              <Notice tone="success" title="Payment successful">
                {money(paid.amount)} was paid with the card ending {paid.method_details.card?.last4}. Thank you!
              </Notice>
            ) : (
              <Notice tone="info" title="Already paid">
                This {view.invoice_number ? "invoice" : "order"} has been paid. There is nothing more to pay.
              </Notice>
            )
          ) : null}
          {state === "paid" && <AfterPayment view={current} merchant={view.merchant_name} />}
          {state === "paid" ? null : state === "not_payable" ? (
            <Notice tone="error" title="This transaction can't be paid">
              It is {view.status.replace(/_/g, " ")}: payments are taken only for transactions awaiting payment. Contact{" "}
              {view.merchant_name} if you think this is wrong.
            </Notice>
          ) : view.processor === "stripe" ? (
            <StripePaymentForm
              key={current.totals.grand_total}
              view={current}
              terms={terms}
              returnedError={returned?.error ?? null}
              onPaid={(payment) => {
                setPaid(payment);
                setState("paid");
              }}
              onAlreadyPaid={() => setState("paid")}
              onNotPayable={() => setState("not_payable")}
            />
          ) : (
            <CardForm
              view={current}
              onPaid={(payment) => {
                setPaid(payment);
                setState("paid");
              }}
              onAlreadyPaid={() => setState("paid")}
              onNotPayable={() => setState("not_payable")}
            />
          )}
          {view.environment === "sandbox" &&
            state === "payable" &&
            (view.processor === "stripe" ? <StripeTestCards /> : <TestCards />)}
        </div>
      </div>
    </CheckoutShell>
  );
}

/** "Have a discount code?": a code the merchant enabled for checkout, applied to the order. */
function DiscountCode({ view, onChange }: { view: CheckoutView; onChange: (view: CheckoutView) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const path = `/checkout/${encodeURIComponent(view.transaction_id)}/discount`;

  async function send(method: "POST" | "DELETE") {
    setPending(true);
    setError(null);
    try {
      const result = await api<{ data: CheckoutView }>(
        path,
        method === "POST" ? { method, body: { code } } : { method },
      );
      onChange(result.data);
      setCode("");
      setOpen(false);
    } catch (e) {
      const field = e instanceof ApiClientError ? e.fieldErrors().code : undefined;
      setError(
        field ? `${field.charAt(0).toUpperCase()}${field.slice(1)}.` : "The code could not be checked. Try again.",
      );
    } finally {
      setPending(false);
    }
  }

  if (view.discount_code) {
    return (
      <p className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700" role="status">
        <span>
          Code <strong className="font-mono">{view.discount_code}</strong> applied.
        </span>
        <Button variant="ghost" size="sm" onClick={() => send("DELETE")} pending={pending} pendingLabel="Removing…">
          Remove code
        </Button>
      </p>
    );
  }
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="mt-4 text-sm font-medium text-blue-700 underline hover:text-blue-900"
      >
        Have a discount code?
      </button>
    );
  }
  return (
    <form
      className="mt-4 space-y-2"
      aria-label="Apply a discount code"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (code.trim() === "") setError("Enter the discount code.");
        else send("POST");
      }}
    >
      <label htmlFor={`${id}-code`} className="block text-sm font-medium text-slate-800">
        Discount code
      </label>
      <div className="flex gap-2">
        <input
          id={`${id}-code`}
          // biome-ignore lint/a11y/noAutofocus: opened on request, the field is what the buyer asked for
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={32}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm uppercase text-slate-900"
        />
        <Button type="submit" variant="secondary" pending={pending} pendingLabel="Applying…">
          Apply
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** After paying: the receipt, the subscription's management, and the way back to the merchant's site. */
function AfterPayment({ view, merchant }: { view: CheckoutView; merchant: string }) {
  const [portalProblem, setPortalProblem] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  if (!view.receipt_url && !view.manages_subscription && !view.success_url) return null;

  async function manage() {
    setOpening(true);
    setPortalProblem(null);
    try {
      const result = await api<{ data: { url: string } }>(
        `/checkout/${encodeURIComponent(view.transaction_id)}/portal-session`,
        { method: "POST" },
      );
      window.location.assign(result.data.url);
    } catch (e) {
      setOpening(false);
      setPortalProblem(e instanceof ApiClientError ? e.message : "The subscription page could not be opened.");
    }
  }

  return (
    <section
      aria-label="After your payment"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-sm shadow-sm"
    >
      {view.receipt_url && (
        <p>
          <a
            href={view.receipt_url}
            target="_blank"
            rel="noopener"
            className="font-medium text-blue-700 underline hover:text-blue-900"
          >
            Download your receipt (PDF)
          </a>
          <span className="text-slate-600"> · A copy is sent to your email.</span>
        </p>
      )}
      {view.manages_subscription && (
        <div>
          <Button variant="secondary" onClick={manage} pending={opening} pendingLabel="Opening…">
            Manage subscription
          </Button>
          <p className="mt-1 text-slate-600">See your plan and invoices, change your card or cancel.</p>
          {portalProblem && (
            <p role="alert" className="mt-1 text-red-700">
              {portalProblem}
            </p>
          )}
        </div>
      )}
      {view.success_url && (
        <a
          href={view.success_url}
          data-testid="return-to-merchant"
          className="inline-flex w-full items-center justify-center rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
        >
          Return to {merchant} ({hostOf(view.success_url)})
        </a>
      )}
    </section>
  );
}

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

/** After the total: what the subscription costs after today, and that the card is kept for it. */
function RecurringTermsNote({ terms, currency }: { terms: RecurringTerms; currency: string }) {
  const recurring = `${formatMoney(terms.amount, currency)} ${billingCycleText(terms.cycle).toLowerCase()}`;
  const trial = terms.trial
    ? `${terms.trial.frequency} ${terms.trial.interval}${terms.trial.frequency === 1 ? "" : "s"} free`
    : null;
  return (
    <div
      data-testid="recurring-terms"
      className="mt-4 rounded-md bg-slate-50 px-3 py-3 text-sm text-slate-700 ring-1 ring-inset ring-slate-200"
    >
      {terms.kind === "purchase" ? (
        <p className="font-medium text-slate-900">{trial ? `${trial}, then ${recurring}` : `Then ${recurring}`}</p>
      ) : (
        <p className="font-medium text-slate-900">
          Your subscription: {recurring}
          {terms.next_at ? `, next on ${dateFormat.format(new Date(terms.next_at))}` : ""}
        </p>
      )}
      <p className="mt-1">
        {terms.collection === "automatic"
          ? "Your card will be saved and charged automatically for renewals until you cancel."
          : "Renewals are invoiced each period until you cancel: your card is not saved."}
      </p>
    </div>
  );
}

function Row({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{term}</dt>
      <dd className="whitespace-nowrap tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}
