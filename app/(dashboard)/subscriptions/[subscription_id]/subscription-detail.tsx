"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/button";
import { type Column, DataTable } from "@/components/data-table";
import { type DescriptionItem, DescriptionList, JsonBlock } from "@/components/description-list";
import { DetailLoader, EntityIdCopy } from "@/components/entity-detail";
import { DateCell } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { InlineMessage } from "@/components/toast";
import { api } from "@/lib/dashboard/api";
import { type Address, type Business, useCustomer } from "@/lib/dashboard/customers";
import { countryName, formatDate, formatDateTime, humanize } from "@/lib/dashboard/display";
import { enc, useEntity } from "@/lib/dashboard/hooks";
import { billingCycleText, currencyName } from "@/lib/dashboard/money";
import { partyName, subscriptionTitle } from "@/lib/dashboard/names";
import { paymentMethodText } from "@/lib/dashboard/payments";
import {
  allowed,
  can,
  itemName,
  itemPriceText,
  itemUnitPrice,
  type Subscription,
  type SubscriptionItem,
  useSubscription,
} from "@/lib/dashboard/subscriptions";
import { useTransactions } from "@/lib/dashboard/transactions";
import { Amount } from "../../transactions/transaction-parts";
import { SubscriptionStatusBadge } from "../subscription-parts";
import { ActionDialog, type DialogKind } from "./dialogs/action-dialog";
import { BillingDetailsSection, DiscountSection, NextPayment } from "./subscription-sections";
import { TestClock } from "./test-clock";
import { TIMELINE_SIZE, Timeline } from "./timeline";

const BACK = { href: "/subscriptions", label: "Subscriptions" };
const dash = <span className="text-slate-500">—</span>;

export function SubscriptionDetail({
  subscriptionId,
  permissions,
  sandbox,
}: {
  subscriptionId: string;
  permissions: string[];
  sandbox: boolean;
}) {
  const subscription = useSubscription(subscriptionId);
  return (
    <DetailLoader query={subscription} noun="subscription" back={BACK} className="mx-auto max-w-6xl">
      {(data) => <SubscriptionPage key={data.id} sub={data} permissions={permissions} sandbox={sandbox} />}
    </DetailLoader>
  );
}

function SubscriptionPage({
  sub,
  permissions,
  sandbox,
}: {
  sub: Subscription;
  permissions: string[];
  sandbox: boolean;
}) {
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const customer = useCustomer(sub.customer_id);
  // Staff whose role cannot write subscriptions see no action (the API would refuse them anyway).
  const write = can(permissions, "subscription.write");
  const actions = write ? allowed(sub) : new Set<string>();
  const transactions = useTransactions({ subscription_id: sub.id, per_page: TIMELINE_SIZE, order_by: "id[DESC]" });
  const change = sub.scheduled_change;
  const business = useQuery({
    queryKey: ["customers", "detail", sub.customer_id, "businesses", sub.business_id],
    queryFn: async () =>
      (await api<{ data: Business }>(`/customers/${enc(sub.customer_id)}/businesses/${enc(sub.business_id ?? "")}`))
        .data,
    enabled: sub.business_id !== null,
  });
  const party = { customer: customer.data ?? null, business: business.data ?? null };
  const title = subscriptionTitle(sub, party);
  const secondary = partyName(party, "").secondary;

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        back={BACK}
        title={title}
        badges={<SubscriptionStatusBadge status={sub.status} />}
        description={
          <>
            {secondary && <p className="font-medium text-slate-800">{secondary}</p>}
            <EntityIdCopy id={sub.id} noun="subscription" />
          </>
        }
        actions={
          write && (
            <>
              {actions.has("activate") && <Button onClick={() => setDialog("activate")}>Activate now</Button>}
              {actions.has("pause") && (
                <Button variant="secondary" onClick={() => setDialog("pause")}>
                  Pause
                </Button>
              )}
              {actions.has("resume") && (
                <Button variant="secondary" onClick={() => setDialog("resume")}>
                  {sub.status === "paused" ? "Resume" : "Set resume date"}
                </Button>
              )}
              {actions.has("cancel") && (
                <Button variant="danger" onClick={() => setDialog("cancel")}>
                  Cancel subscription
                </Button>
              )}
            </>
          )
        }
      />

      {change && (
        <InlineMessage
          tone="warning"
          className="mb-6"
          title={
            change.action === "cancel"
              ? `Scheduled to cancel on ${formatDateTime(change.effective_at)}`
              : change.action === "pause"
                ? `Scheduled to pause on ${formatDateTime(change.effective_at)}`
                : `Scheduled to resume on ${formatDateTime(change.effective_at)}`
          }
        >
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p>
              {change.action === "pause"
                ? change.resume_at
                  ? `It resumes on ${formatDateTime(change.resume_at)}.`
                  : "It stays paused until it is resumed."
                : change.action === "cancel"
                  ? "It will not renew; the customer keeps access until then."
                  : "A new billing period starts then and is charged."}
            </p>
            {write && (
              <Button variant="secondary" size="sm" onClick={() => setDialog("remove_scheduled_change")}>
                Remove
                <span className="sr-only"> scheduled {change.action}</span>
              </Button>
            )}
          </div>
        </InlineMessage>
      )}

      <div className="space-y-6">
        <Section title="Details">
          <DescriptionList items={detailItems(sub, customer.data ?? null, transactions.data?.data)} />
        </Section>

        <Section
          title="Items"
          description={`Billed ${billingCycleText(sub.billing_cycle).toLowerCase()}.`}
          actions={
            write && (
              <>
                {actions.has("update") && (
                  <Button variant="secondary" size="sm" onClick={() => setDialog("items")}>
                    Change items
                  </Button>
                )}
                {actions.has("charge") && (
                  <Button variant="secondary" size="sm" onClick={() => setDialog("charge")}>
                    Add one-time charge
                  </Button>
                )}
              </>
            )
          }
        >
          <DataTable
            caption="Items"
            columns={itemColumns(sub)}
            rows={sub.items}
            rowKey={(item) => String(item.price.id)}
            isLoading={false}
            empty={<EmptyState title="No items" />}
          />
        </Section>

        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <NextPayment sub={sub} />
          <DiscountSection sub={sub} write={write && actions.has("update")} onAction={setDialog} />
        </div>

        {sub.collection_mode === "manual" && (
          <BillingDetailsSection
            sub={sub}
            write={write && sub.status !== "canceled"}
            onEdit={() => setDialog("billing_details")}
          />
        )}

        {sandbox && write && sub.status !== "canceled" && <TestClock sub={sub} />}

        <Timeline
          sub={sub}
          transactions={{
            data: transactions.data?.data,
            isLoading: transactions.isLoading,
            error: transactions.error,
            refetch: transactions.refetch,
          }}
        />
      </div>

      <ActionDialog
        kind={dialog}
        sub={sub}
        onClose={() => setDialog(null)}
        card={paymentMethod(transactions.data?.data)}
      />
    </div>
  );
}

function addressText(a: Address): string {
  return [a.first_line, a.second_line, a.city, a.region, a.postal_code, countryName(a.country_code)]
    .filter((part) => part)
    .join(", ");
}

function AddressText({ sub }: { sub: Subscription }) {
  const address = useEntity<Address>(
    ["customers", "detail", sub.customer_id, "addresses", sub.address_id],
    `/customers/${enc(sub.customer_id)}/addresses/${enc(sub.address_id)}`,
  );
  return <>{address.data ? addressText(address.data) : sub.address_id}</>;
}

/** The card of the subscription's latest payment: the one its renewals are charged to. */
function paymentMethod(transactions: { payments: Record<string, unknown>[] }[] | undefined): string | null {
  for (const t of transactions ?? []) {
    const captured = [...t.payments].reverse().find((p) => p.status === "captured");
    if (captured) return paymentMethodText(captured);
  }
  return null;
}

function trialDates(sub: Subscription): { starts_at: string; ends_at: string } | null {
  return sub.items.find((item) => item.trial_dates)?.trial_dates ?? null;
}

function detailItems(
  sub: Subscription,
  customer: { email: string; name: string | null } | null,
  transactions: { payments: Record<string, unknown>[] }[] | undefined,
): DescriptionItem[] {
  const period = sub.current_billing_period;
  const trial = trialDates(sub);
  const items: DescriptionItem[] = [
    { term: "Status", value: <SubscriptionStatusBadge status={sub.status} /> },
    {
      term: "Customer",
      value: (
        <Link href={`/customers/${sub.customer_id}`} className="text-brand-700 hover:underline">
          {customer ? `${customer.name ? `${customer.name} · ` : ""}${customer.email}` : sub.customer_id}
        </Link>
      ),
    },
    { term: "Address", value: <AddressText sub={sub} /> },
    { term: "Business", value: sub.business_id ?? dash },
    {
      term: "Current period",
      value: period ? `${formatDateTime(period.starts_at)} – ${formatDateTime(period.ends_at)}` : dash,
    },
    // A scheduled cancel or pause ends the billing: say so rather than a renewal that will not happen.
    sub.scheduled_change && sub.scheduled_change.action !== "resume"
      ? {
          term: sub.scheduled_change.action === "cancel" ? "Cancels" : "Pauses",
          value: `${formatDateTime(sub.scheduled_change.effective_at)} (not billed again)`,
        }
      : { term: "Next billed", value: sub.next_billed_at ? formatDateTime(sub.next_billed_at) : dash },
    { term: "Billing cycle", value: billingCycleText(sub.billing_cycle) },
    { term: "Collection mode", value: humanize(sub.collection_mode) },
    {
      term: "Payment method",
      value:
        sub.collection_mode === "manual"
          ? "Invoices (manual collection)"
          : (paymentMethod(transactions) ?? <span className="text-slate-500">No payment yet</span>),
    },
    { term: "Currency", value: `${currencyName(sub.currency_code)} (${sub.currency_code})` },
    { term: "Started", value: sub.started_at ? formatDateTime(sub.started_at) : dash },
    { term: "First billed", value: sub.first_billed_at ? formatDateTime(sub.first_billed_at) : dash },
  ];
  if (trial)
    items.push({ term: "Trial", value: `${formatDateTime(trial.starts_at)} – ${formatDateTime(trial.ends_at)}` });
  if (sub.paused_at) items.push({ term: "Paused", value: formatDateTime(sub.paused_at) });
  if (sub.canceled_at) items.push({ term: "Canceled", value: formatDateTime(sub.canceled_at) });
  items.push({ term: "Created", value: formatDateTime(sub.created_at) });
  if (sub.custom_data) items.push({ term: "Custom data", value: <JsonBlock value={sub.custom_data} />, wide: true });
  return items;
}

function itemColumns(sub: Subscription): Column<SubscriptionItem>[] {
  const columns: Column<SubscriptionItem>[] = [
    {
      key: "product",
      header: "Product",
      cell: (item) => (
        <div className="flex flex-col">
          <span className="font-medium text-slate-900">{itemName(item)}</span>
          <span className="text-xs text-slate-500">{itemPriceText(item)}</span>
        </div>
      ),
    },
    { key: "quantity", header: "Qty", className: "text-right tabular-nums", cell: (item) => item.quantity },
    {
      key: "unit",
      header: "Unit price",
      className: "text-right",
      cell: (item) => {
        const unit = itemUnitPrice(item);
        return unit ? <Amount amount={unit.amount} currency={unit.currency_code} /> : dash;
      },
    },
    { key: "status", header: "Status", cell: (item) => humanize(item.status) },
    {
      key: "next",
      header: "Next billed",
      className: "whitespace-nowrap",
      cell: (item) => (item.next_billed_at ? <DateCell value={item.next_billed_at} /> : dash),
    },
    {
      key: "trial",
      header: "Trial",
      className: "whitespace-nowrap",
      cell: (item) =>
        item.trial_dates ? `${formatDate(item.trial_dates.starts_at)} – ${formatDate(item.trial_dates.ends_at)}` : dash,
    },
    {
      key: "previous",
      header: "Last billed",
      className: "whitespace-nowrap",
      cell: (item) => (item.previously_billed_at ? <DateCell value={item.previously_billed_at} /> : dash),
    },
  ];
  return columns.filter((column) => column.key !== "trial" || sub.items.some((item) => item.trial_dates));
}
