/**
 * The customer portal (issue #11): public pages hosted by us like the checkout, outside the
 * dashboard's layout, under the merchant's name from Settings. Who they are for: access.tsx.
 */
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { MerchantLogo } from "@/app/checkout/merchant-logo";
import { getAccountSettings } from "@/lib/services/account-settings";

export const metadata: Metadata = {
  title: { default: "Billing", template: "%s · Billing" },
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};
export const dynamic = "force-dynamic";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const { merchant_name: merchant, logo_url } = await getAccountSettings();
  return (
    <div className="flex min-h-screen flex-col bg-slate-100">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex w-full max-w-4xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-4">
          <div className="flex items-center gap-3">
            <MerchantLogo url={logo_url} small />
            <p className="text-lg font-semibold text-slate-900" data-testid="portal-merchant">
              {merchant}
            </p>
          </div>
          <p className="text-sm text-slate-600">Billing and subscriptions</p>
        </div>
      </header>
      <main className="mx-auto w-full max-w-4xl flex-1 px-4 py-8">{children}</main>
      <footer className="mx-auto w-full max-w-4xl px-4 pb-8 text-xs text-slate-600">
        A secure page for the customers of {merchant}. Do not share its address: it opens your billing details.
      </footer>
    </div>
  );
}
