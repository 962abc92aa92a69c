import Link from "next/link";
import { ApiError } from "@/lib/errors";
import { portalCustomer, portalSubscription } from "@/lib/services/portal/data";
import { subscriptionPagePath } from "@/lib/services/portal/links";
import { portalPlanChoices } from "@/lib/services/portal/plans";
import { portalGate, type SearchParams } from "../../../access";
import { StatusPill, subscriptionName } from "../../../subscription-card";
import { Card, cardText, NotFound, PortalNav } from "../../../ui";
import { ChangePlanForm } from "./change-plan-form";

export const metadata = { title: "Change plan" };

export default async function ChangePlanPage({
  params,
  searchParams,
}: {
  params: Promise<{ subscription_id: string }>;
  searchParams: SearchParams;
}) {
  const { subscription_id: id } = await params;
  const gate = await portalGate(subscriptionPagePath(id, "change-plan"), searchParams);
  const customer = await portalCustomer(gate.customerId);
  const row = await portalSubscription(gate.customerId, id).catch((error) => {
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw error;
  });
  const choices = row ? await portalPlanChoices(gate.customerId, id) : null;
  return (
    <>
      <PortalNav email={customer.email} />
      <h1 className="mb-4 text-2xl font-semibold text-slate-900">Change plan</h1>
      {!row ? (
        <NotFound />
      ) : (
        <Card aria-labelledby="plan-heading">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <h2 id="plan-heading" className="text-base font-semibold text-slate-900">
              {subscriptionName(row.subscription)}
            </h2>
            <StatusPill status={row.subscription.status} />
          </div>
          {choices ? (
            <ChangePlanForm
              subscriptionId={row.subscription.id}
              currentCycle={row.subscription.billing_cycle}
              quantity={choices.current.quantity}
              options={choices.options}
              card={cardText(row.card)}
            />
          ) : (
            <div className="mt-4 space-y-3 text-sm text-slate-700">
              <p>This subscription cannot change plan here. Contact us to change it.</p>
              <Link href="/portal/overview" className="font-medium text-brand-700 hover:underline">
                Back to your subscriptions
              </Link>
            </div>
          )}
        </Card>
      )}
    </>
  );
}
