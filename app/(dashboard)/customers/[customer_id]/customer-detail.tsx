"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { DescriptionList, JsonBlock } from "@/components/description-list";
import { DetailLoader, EntityHeader } from "@/components/entity-detail";
import { PanelSection } from "@/components/list-page";
import { Section } from "@/components/page-header";
import { useToast } from "@/components/toast";
import { type Customer, useCustomer, useUpdateCustomer } from "@/lib/dashboard/customers";
import { formatDateTime } from "@/lib/dashboard/display";
import { Allowed } from "@/lib/dashboard/permissions";
import { CustomerForm } from "../customer-form";
import { AddressesSection } from "./addresses-section";
import {
  CreditBalancesSection,
  CustomerSubscriptionsSection,
  CustomerTransactionsSection,
  PaymentMethodsSection,
} from "./billing-sections";
import { BusinessesSection } from "./businesses-section";
import { CustomerOverview } from "./customer-overview";
import { NewSubscriptionPanel } from "./new-subscription";
import { EmailPortalLinkButton } from "./portal-link-button";

const BACK = { href: "/customers", label: "Customers" };

/** `permissions`: the signed-in staff member's, to offer only the changes their role may make. */
export function CustomerDetail({ customerId, permissions = [] }: { customerId: string; permissions?: string[] }) {
  const customer = useCustomer(customerId);
  // Keyed by ID: moving to another customer starts its sections afresh (no rows of the previous one).
  return (
    <DetailLoader query={customer} noun="customer" back={BACK} className="mx-auto max-w-6xl">
      {(data) => <CustomerPage key={data.id} customer={data} permissions={permissions} />}
    </DetailLoader>
  );
}

function CustomerPage({ customer, permissions }: { customer: Customer; permissions: string[] }) {
  const canWrite = (entity: string) => permissions.includes(`${entity}.write`);
  const [editing, setEditing] = useState(false);
  const [subscribing, setSubscribing] = useState(false);
  const update = useUpdateCustomer(customer.id);
  const statusChange = useUpdateCustomer(customer.id);
  const toast = useToast();

  return (
    <div className="mx-auto max-w-6xl">
      <EntityHeader
        entity={customer}
        noun="customer"
        back={BACK}
        title={customer.name ?? customer.email}
        subtitle={customer.name && customer.email}
        editing={editing}
        readOnly={!canWrite("customer")}
        onEdit={() => setEditing(true)}
        statusChange={{ ...statusChange, run: (status) => statusChange.mutateAsync({ status }) }}
        archiveText="Archived customers are hidden from the customer list and cannot be used on new transactions. You can unarchive them later."
        unarchiveText="The customer becomes active again and can be used on new transactions and subscriptions."
      />

      <div className="space-y-6">
        <Section
          title="Details"
          actions={!editing && <EmailPortalLinkButton customerId={customer.id} email={customer.email} />}
        >
          {editing ? (
            <CustomerForm
              entity={customer}
              onSubmit={(body) => update.mutateAsync(body)}
              onSaved={(saved) => {
                setEditing(false);
                toast.show(saved ? "Customer saved." : "Nothing changed.", saved ? "success" : "info");
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <DescriptionList
              items={[
                { term: "Email", value: customer.email },
                { term: "Name", value: customer.name ?? <span className="text-slate-500">—</span> },
                { term: "Locale", value: customer.locale },
                { term: "Marketing consent", value: customer.marketing_consent ? "Yes" : "No" },
                { term: "Created", value: formatDateTime(customer.created_at) },
                { term: "Updated", value: formatDateTime(customer.updated_at) },
                { term: "Custom data", value: <JsonBlock value={customer.custom_data} />, wide: true },
              ]}
            />
          )}
        </Section>
        <CustomerOverview customerId={customer.id} createdAt={customer.created_at} />
        <CustomerSubscriptionsSection
          customerId={customer.id}
          actions={
            !subscribing &&
            customer.status === "active" && (
              <Allowed permission="transaction.write" action="start subscriptions">
                <Button onClick={() => setSubscribing(true)}>New subscription</Button>
              </Allowed>
            )
          }
        >
          {subscribing && (
            <PanelSection id="new-subscription" title="New subscription">
              <NewSubscriptionPanel
                customerId={customer.id}
                email={customer.email}
                onClose={() => setSubscribing(false)}
              />
            </PanelSection>
          )}
        </CustomerSubscriptionsSection>
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <PaymentMethodsSection customerId={customer.id} write={canWrite("payment_method")} />
          <CreditBalancesSection customerId={customer.id} />
        </div>
        <CustomerTransactionsSection customerId={customer.id} />
        <AddressesSection customerId={customer.id} readOnly={!canWrite("address")} />
        <BusinessesSection customerId={customer.id} readOnly={!canWrite("business")} />
      </div>
    </div>
  );
}
