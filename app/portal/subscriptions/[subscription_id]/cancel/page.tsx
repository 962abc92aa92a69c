import { ApiError } from "@/lib/errors";
import { portalCustomer, portalSubscription } from "@/lib/services/portal/data";
import { subscriptionPagePath } from "@/lib/services/portal/links";
import { portalGate, type SearchParams } from "../../../access";
import { StatusPill, subscriptionName } from "../../../subscription-card";
import { Card, dateText, NotFound, PortalNav } from "../../../ui";
import { CancelForm } from "./cancel-form";

export const metadata = { title: "Cancel subscription" };

export default async function CancelPage({
  params,
  searchParams,
}: {
  params: Promise<{ subscription_id: string }>;
  searchParams: SearchParams;
}) {
  const { subscription_id: id } = await params;
  const gate = await portalGate(subscriptionPagePath(id, "cancel"), searchParams);
  const customer = await portalCustomer(gate.customerId);
  const row = await portalSubscription(gate.customerId, id).catch((error) => {
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw error;
  });
  return (
    <>
      <PortalNav email={customer.email} />
      <h1 className="mb-4 text-2xl font-semibold text-slate-900">Cancel subscription</h1>
      {!row ? (
        <NotFound />
      ) : (
        <Card aria-labelledby="cancel-heading">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <h2 id="cancel-heading" className="text-base font-semibold text-slate-900">
              {subscriptionName(row.subscription)}
            </h2>
            <StatusPill status={row.subscription.status} />
          </div>
          <CancelForm
            subscriptionId={row.subscription.id}
            status={row.subscription.status}
            endsAt={row.subscription.next_billed_at}
            endsAtText={dateText(row.subscription.next_billed_at)}
            scheduledAt={
              row.subscription.scheduled_change?.action === "cancel"
                ? dateText(row.subscription.scheduled_change.effective_at)
                : null
            }
          />
        </Card>
      )}
    </>
  );
}
