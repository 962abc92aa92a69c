import Link from "next/link";
import { portalCustomer, portalSubscriptions, portalTransactions } from "@/lib/services/portal/data";
import { portalPlanChoices } from "@/lib/services/portal/plans";
import { portalGate, type SearchParams } from "../access";
import { PaymentsTable } from "../payments-table";
import { SubscriptionCard } from "../subscription-card";
import { Card, PortalNav } from "../ui";

export const metadata = { title: "Your subscriptions" };

export default async function OverviewPage({ searchParams }: { searchParams: SearchParams }) {
  const gate = await portalGate("/portal/overview", searchParams);
  const [customer, subscriptions, payments] = await Promise.all([
    portalCustomer(gate.customerId),
    portalSubscriptions(gate.customerId),
    portalTransactions(gate.customerId),
  ]);
  // Which subscriptions may change plan (Settings → Customer portal lists the plans).
  const changeable = await Promise.all(
    subscriptions.map(async (row) => (await portalPlanChoices(gate.customerId, row.subscription.id)) !== null),
  );
  return (
    <>
      <PortalNav current="overview" email={customer.email} />
      <h1 className="mb-4 text-2xl font-semibold text-slate-900">
        {customer.name ? `Hello, ${customer.name}` : "Your subscriptions"}
      </h1>
      <div className="space-y-4">
        {subscriptions.length === 0 ? (
          <Card>
            <p className="text-sm text-slate-600">You have no subscriptions.</p>
          </Card>
        ) : (
          subscriptions.map((row, index) => (
            <SubscriptionCard key={row.subscription.id} row={row} canChangePlan={changeable[index]} />
          ))
        )}
        <Card aria-labelledby="recent-heading">
          <div className="mb-2 flex items-baseline justify-between gap-3">
            <h2 id="recent-heading" className="text-base font-semibold text-slate-900">
              Recent payments
            </h2>
            {payments.length > 5 && (
              <Link href="/portal/payments" className="text-sm font-medium text-brand-700 hover:underline">
                All payments
              </Link>
            )}
          </div>
          <PaymentsTable rows={payments.slice(0, 5)} />
        </Card>
      </div>
    </>
  );
}
