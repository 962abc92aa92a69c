"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { CopyButton } from "@/components/copy-button";
import { DescriptionList, JsonBlock } from "@/components/description-list";
import { EntityText } from "@/components/entity-text";
import { PageHeader, Section } from "@/components/page-header";
import { ErrorState, LoadingBlock } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { formatDateTime } from "@/lib/client/format";
import { type Customer, useCustomer, useUpdateCustomer } from "@/lib/client/hooks";
import { CustomerForm } from "../customer-form";
import { AddressesSection } from "./addresses-section";
import { BusinessesSection } from "./businesses-section";

const BACK = { href: "/customers", label: "Customers" };

export function CustomerDetail({ customerId }: { customerId: string }) {
  const customer = useCustomer(customerId);

  if (customer.isLoading) {
    return (
      <div className="mx-auto max-w-6xl">
        <PageHeader title="Customer" back={BACK} />
        <div className="rounded-lg border border-slate-200 bg-white p-5">
          <LoadingBlock label="Loading customer…" lines={6} />
        </div>
      </div>
    );
  }
  if (!customer.data) {
    return (
      <div className="mx-auto max-w-6xl">
        <PageHeader title="Customer" back={BACK} />
        <ErrorState error={customer.error} title="Could not load this customer" onRetry={() => customer.refetch()} />
      </div>
    );
  }
  // Keyed by ID: moving to another customer starts its sections afresh (no rows of the previous one).
  return <CustomerPage key={customer.data.id} customer={customer.data} />;
}

function CustomerPage({ customer }: { customer: Customer }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateCustomer(customer.id);
  const statusChange = useUpdateCustomer(customer.id);
  const toast = useToast();
  const archived = customer.status === "archived";

  async function changeStatus() {
    try {
      await statusChange.mutateAsync({ status: archived ? "active" : "archived" });
      setConfirming(false);
      toast.show(archived ? "Customer unarchived." : "Customer archived.");
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        back={BACK}
        title={customer.name ?? customer.email}
        badges={<StatusBadge status={customer.status} />}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            {customer.name && <span>{customer.email}</span>}
            <span className="inline-flex items-center gap-1.5">
              <code className="font-mono text-xs text-slate-500">{customer.id}</code>
              <CopyButton value={customer.id} label="Copy customer ID" variant="ghost" />
            </span>
          </span>
        }
        actions={
          <>
            {!editing && (
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
            )}
            <Button
              variant={archived ? "secondary" : "danger"}
              onClick={() => {
                statusChange.reset();
                setConfirming(true);
              }}
            >
              {archived ? "Unarchive" : "Archive"}
            </Button>
          </>
        }
      />

      <div className="space-y-6">
        <Section title="Details">
          {editing ? (
            <CustomerForm
              mode="edit"
              customer={customer}
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
        <AddressesSection customerId={customer.id} />
        <BusinessesSection customerId={customer.id} />
      </div>

      <ConfirmDialog
        open={confirming}
        title={archived ? "Unarchive this customer?" : "Archive this customer?"}
        description={
          archived
            ? "The customer becomes active again and can be used on new transactions and subscriptions."
            : "Archived customers are hidden from the customer list and cannot be used on new transactions. You can unarchive them later."
        }
        confirmLabel={archived ? "Unarchive customer" : "Archive customer"}
        tone={archived ? "primary" : "danger"}
        pending={statusChange.isPending}
        error={statusChange.error ? <EntityText text={statusChange.error.message} /> : undefined}
        onConfirm={changeStatus}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
