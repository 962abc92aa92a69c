/**
 * The hosted checkout page: `checkout.url` of a transaction (`/checkout?_ptxn=<transaction ID>`).
 * Public, outside the dashboard's layout (no sign-in): the transaction ID in the link is the
 * capability, as with the API family's hosted checkout. With Stripe configured it shows Stripe's
 * Payment Element (stripe-form.tsx); without, the sandbox's test-card form, which live refuses.
 *
 * A Stripe payment method that redirects (3-D Secure in a full page) comes back here with Stripe's
 * `payment_intent` (or `setup_intent`) and its client secret in the address: the page's server then
 * reads that intent from Stripe and settles it (confirmStripeCheckout, as the page's confirm call
 * does) before rendering, so the customer sees the outcome at once. Its Content-Security-Policy,
 * which lets Stripe's script, API and frames in, is set per request by lib/http/proxy.ts.
 */
import type { Metadata } from "next";
import { headers } from "next/headers";
import { ApiError } from "@/lib/errors";
import { clientAddress } from "@/lib/http/client-address";
import type { CheckoutConfirmation, CheckoutView } from "@/lib/schemas/payment";
import { getAccountSettings } from "@/lib/services/account-settings";
import { getCheckout } from "@/lib/services/payments/checkout";
import { confirmStripeCheckout } from "@/lib/services/payments/stripe-checkout";
import { CheckoutPanel, CheckoutShell, Notice } from "./checkout-form";
import { recurringTerms } from "./recurring-terms";

export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

const TRANSACTION_ID = /^txn_[a-z0-9]{26}$/;
const INTENT_ID = /^(pi|seti)_[A-Za-z0-9]{1,200}$/;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Settles a payment back from Stripe's redirect; its outcome for the page (null: nothing to say). */
async function settleReturned(
  id: string,
  reference: string | undefined,
): Promise<{ payment: CheckoutConfirmation["payment"]; error: string | null } | null> {
  if (!reference || !INTENT_ID.test(reference)) return null;
  try {
    const outcome = await confirmStripeCheckout(id, reference, clientAddress(await headers()));
    if (outcome.status === "succeeded") return { payment: outcome.payment, error: null };
    if (outcome.status === "failed") return { payment: null, error: outcome.error?.message ?? null };
    return null;
  } catch (error) {
    // Not this checkout's intent, Stripe unreachable, too many attempts: the page shows its state.
    if (error instanceof ApiError) return { payment: null, error: error.detail };
    throw error;
  }
}

async function load(id: string | undefined): Promise<{ view: CheckoutView } | { problem: ApiError | null }> {
  if (!id || !TRANSACTION_ID.test(id)) return { problem: null };
  try {
    return { view: await getCheckout(id) };
  } catch (error) {
    if (error instanceof ApiError) return { problem: error };
    throw error;
  }
}

export default async function CheckoutPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const id = first(params._ptxn);
  const returned =
    id && TRANSACTION_ID.test(id)
      ? await settleReturned(id, first(params.payment_intent) ?? first(params.setup_intent))
      : null;
  const loaded = await load(id);
  if ("view" in loaded) {
    const terms = loaded.view.state === "payable" ? await recurringTerms(loaded.view.transaction_id) : null;
    const { logo_url } = await getAccountSettings();
    return (
      <CheckoutPanel
        view={loaded.view}
        terms={terms}
        logoUrl={logo_url}
        returned={returned?.payment && loaded.view.state === "paid" ? returned : returned?.error ? returned : null}
      />
    );
  }
  const problem = loaded.problem;
  return (
    <CheckoutShell>
      {problem?.code === "sandbox_only" ? (
        <Notice tone="error" title="Checkout is not available">
          This server is the live environment. Its hosted checkout takes only simulated payments, which exist in the
          sandbox: no card can be charged here.
        </Notice>
      ) : problem?.code === "not_found" ? (
        <Notice tone="error" title="Checkout not found">
          No transaction has the ID <code className="font-mono">{id}</code>. Check the link you were given.
        </Notice>
      ) : (
        <Notice tone="error" title="This checkout link is incomplete">
          The link should end with <code className="font-mono">?_ptxn=</code> and a transaction ID. Ask the seller for a
          new link.
        </Notice>
      )}
    </CheckoutShell>
  );
}
