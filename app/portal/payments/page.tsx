import { portalCustomer, portalTransactions } from "@/lib/services/portal/data";
import { portalGate, type SearchParams } from "../access";
import { PaymentsTable } from "../payments-table";
import { Card, PortalNav } from "../ui";

export const metadata = { title: "Payments" };

export default async function PaymentsPage({ searchParams }: { searchParams: SearchParams }) {
  const gate = await portalGate("/portal/payments", searchParams);
  const [customer, payments] = await Promise.all([
    portalCustomer(gate.customerId),
    portalTransactions(gate.customerId),
  ]);
  return (
    <>
      <PortalNav current="payments" email={customer.email} />
      <h1 className="mb-4 text-2xl font-semibold text-slate-900">Payments</h1>
      <Card>
        <PaymentsTable rows={payments} />
        {payments.length === 100 && <p className="mt-3 text-xs text-slate-500">Showing your latest 100 payments.</p>}
      </Card>
    </>
  );
}
