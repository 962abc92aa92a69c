/**
 * A payment link's public page (`/pay/{plink_…}`, lib/services/payment-links.ts): what the link
 * sells, then the buyer's email and country, then their checkout. No sign-in: the link's ID is
 * the capability. A single-use link already opened goes straight to its checkout; an archived or
 * used one says so, with a 4xx status for crawlers and link checkers.
 */
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { billingCycleText } from "@/lib/dashboard/money";
import { ApiError } from "@/lib/errors";
import { getAccountSettings } from "@/lib/services/account-settings";
import { type PaymentLinkState, paymentLinkPrices, paymentLinkState } from "@/lib/services/payment-links";
import { CheckoutShell, Notice } from "../../checkout/checkout-form";
import { MerchantLogo } from "../../checkout/merchant-logo";
import { PayForm, type PayLine } from "./pay-form";

export const metadata: Metadata = { title: "Pay", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

const LINK_ID = /^plink_[a-z0-9]{26}$/;

async function load(id: string): Promise<PaymentLinkState | null> {
  if (!LINK_ID.test(id)) return null;
  try {
    return await paymentLinkState(id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw error;
  }
}

/** The link's items as the buyer reads them: customer-facing names only (product, price name). */
async function lines(items: { price_id: string; quantity: number }[]) {
  try {
    const preview = await paymentLinkPrices(items, null);
    const payLines: PayLine[] = preview.details.line_items.map((line) => ({
      name: line.product?.name ?? "",
      detail: line.price.name ?? null,
      quantity: line.quantity,
      total: line.formatted_totals.subtotal,
      cycle: line.price.billing_cycle ? billingCycleText(line.price.billing_cycle).toLowerCase() : null,
    }));
    return payLines;
  } catch (error) {
    // A price archived since the link was made: the link cannot sell it any more.
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export default async function PayPage({ params }: { params: Promise<{ payment_link_id: string }> }) {
  const { payment_link_id: id } = await params;
  const state = await load(id);
  if (!state) notFound();
  if (state.state === "opened") redirect(state.checkoutUrl);
  const settings = await getAccountSettings();
  const header = (
    <header className="mb-6 flex flex-wrap items-center gap-4">
      <MerchantLogo url={settings.logo_url} />
      <div>
        <p className="text-sm text-slate-600">Pay</p>
        <h1 className="text-2xl font-semibold text-slate-900">{settings.merchant_name}</h1>
      </div>
    </header>
  );
  if (state.state !== "open") {
    return (
      <CheckoutShell>
        {header}
        {state.state === "archived" ? (
          <Notice tone="error" title="This payment link is no longer active">
            {settings.merchant_name} has turned this link off. Ask them for a new one.
          </Notice>
        ) : (
          <Notice tone="error" title="This payment link has been used">
            It was for one payment, which has been made. If you need to pay again, ask {settings.merchant_name} for a
            new link.
          </Notice>
        )}
      </CheckoutShell>
    );
  }
  const payLines = await lines(state.items);
  return (
    <CheckoutShell>
      {header}
      {payLines ? (
        <PayForm linkId={id} lines={payLines} />
      ) : (
        <Notice tone="error" title="This payment link can't be used">
          What it sells is no longer available. Ask {settings.merchant_name} for a new link.
        </Notice>
      )}
    </CheckoutShell>
  );
}
