/**
 * The hosted checkout page: `checkout.url` of a transaction (`/checkout?_ptxn=<transaction ID>`).
 * Public, outside the dashboard's layout (no sign-in): the transaction ID in the link is the
 * capability, as with the API family's hosted checkout. Sandbox only: in live it refuses.
 */
import type { Metadata } from "next";
import { ApiError } from "@/lib/errors";
import type { CheckoutView } from "@/lib/schemas/payment";
import { getAccountSettings } from "@/lib/services/account-settings";
import { getCheckout } from "@/lib/services/payments/checkout";
import { CheckoutPanel, CheckoutShell, Notice } from "./checkout-form";
import { recurringTerms } from "./recurring-terms";

export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

const TRANSACTION_ID = /^txn_[a-z0-9]{26}$/;

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
  const raw = (await searchParams)._ptxn;
  const id = Array.isArray(raw) ? raw[0] : raw;
  const loaded = await load(id);
  if ("view" in loaded) {
    const terms = loaded.view.state === "payable" ? await recurringTerms(loaded.view.transaction_id) : null;
    const { logo_url } = await getAccountSettings();
    return <CheckoutPanel view={loaded.view} terms={terms} logoUrl={logo_url} />;
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
