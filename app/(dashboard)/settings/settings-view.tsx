"use client";

import { PageHeader, Section } from "@/components/page-header";
import { ErrorState, LoadingBlock } from "@/components/states";
import { useAccountSettings } from "@/lib/dashboard/settings";
import { LogoForm } from "./logo-form";
import { MerchantForm } from "./merchant-form";
import { PaymentsSettings } from "./payments-settings";
import { PortalPlansForm } from "./portal-plans-form";
import { TaxRatesTable } from "./tax-rates-table";

export function SettingsView() {
  const settings = useAccountSettings();
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Settings"
        description="Your business details and logo as invoices show them, how prices treat tax, how payments are taken, and the tax rate charged in each country."
      />
      <Section title="Logo" description="Printed above your business name for your customers to recognise you.">
        {settings.data ? (
          <LogoForm settings={settings.data} />
        ) : settings.isLoading ? (
          <LoadingBlock label="Loading the logo…" />
        ) : null}
      </Section>
      <Section
        title="Business details and tax mode"
        description="Printed on every invoice. Changes apply to invoices issued from now on."
      >
        {settings.data ? (
          <MerchantForm settings={settings.data} />
        ) : settings.isLoading ? (
          <LoadingBlock label="Loading settings…" />
        ) : (
          <ErrorState error={settings.error} title="Could not load the settings" onRetry={() => settings.refetch()} />
        )}
      </Section>
      <Section
        id="payments"
        title="Payments"
        description="Which payment processor takes your customers' payments, and the Stripe account it uses."
      >
        <PaymentsSettings />
      </Section>
      <Section
        id="customer-portal"
        title="Customer portal"
        description="The plans customers may switch between themselves (monthly ↔ yearly, another plan), charged the prorated difference at once."
      >
        {settings.data ? (
          <PortalPlansForm settings={settings.data} />
        ) : settings.isLoading ? (
          <LoadingBlock label="Loading settings…" />
        ) : null}
      </Section>
      <Section
        title="Tax rates"
        description="The rate charged to customers in each country. Changing a rate affects new transactions and previews only: existing transactions keep the rate they were priced with."
      >
        <TaxRatesTable />
      </Section>
    </div>
  );
}
