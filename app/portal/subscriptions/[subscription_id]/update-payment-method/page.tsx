import { formatMoney } from "@/lib/dashboard/money";
import { ApiError } from "@/lib/errors";
import { portalCustomer, portalSubscription } from "@/lib/services/portal/data";
import { subscriptionPagePath } from "@/lib/services/portal/links";
import { portalGate, type SearchParams } from "../../../access";
import { StatusPill, subscriptionName } from "../../../subscription-card";
import { Card, cardText, NotFound, PortalNav } from "../../../ui";
import { UpdateCardButton } from "./update-card-button";

export const metadata = { title: "Update payment method" };

export default async function UpdatePaymentMethodPage({
  params,
  searchParams,
}: {
  params: Promise<{ subscription_id: string }>;
  searchParams: SearchParams;
}) {
  const { subscription_id: id } = await params;
  const gate = await portalGate(subscriptionPagePath(id, "update-payment-method"), searchParams);
  const customer = await portalCustomer(gate.customerId);
  const row = await portalSubscription(gate.customerId, id).catch((error) => {
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw error;
  });
  if (!row) {
    return (
      <>
        <PortalNav email={customer.email} />
        <NotFound />
      </>
    );
  }
  const s = row.subscription;
  const pastDue = s.status === "past_due";
  return (
    <>
      <PortalNav email={customer.email} />
      <h1 className="mb-4 text-2xl font-semibold text-slate-900">Update payment method</h1>
      <Card aria-labelledby="pm-heading">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id="pm-heading" className="text-base font-semibold text-slate-900">
            {subscriptionName(s)}
          </h2>
          <StatusPill status={s.status} />
        </div>
        {s.status === "canceled" ? (
          <p className="mt-4 text-sm text-slate-700">
            This subscription is canceled: it has no payment method to update.
          </p>
        ) : s.collection_mode === "manual" ? (
          <p className="mt-4 text-sm text-slate-700">
            This subscription is paid by invoice, not by a saved card: each invoice says how to pay it.
          </p>
        ) : (
          <div className="mt-4 space-y-4 text-sm text-slate-700">
            <p>
              Current card: <strong className="text-slate-900">{cardText(row.card)}</strong>
            </p>
            {pastDue ? (
              <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900">
                Your last payment{row.past_due_amount ? ` of ${formatMoney(row.past_due_amount, s.currency_code)}` : ""}{" "}
                failed. Enter a new card on the secure checkout: the amount due is paid with it, your subscription
                becomes active again, and the card is saved for your next payments.
              </p>
            ) : (
              <p>
                Enter a new card on the secure checkout. Nothing is charged today: the card is saved and used for your
                next payments.
              </p>
            )}
            <UpdateCardButton subscriptionId={s.id} pastDue={pastDue} />
          </div>
        )}
      </Card>
    </>
  );
}
