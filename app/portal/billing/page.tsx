import { portalBillingDetails, portalCustomer } from "@/lib/services/portal/data";
import { portalGate, type SearchParams } from "../access";
import { Card, PortalNav } from "../ui";
import { AddressForm, BusinessForm } from "./billing-forms";

export const metadata = { title: "Billing details" };

export default async function BillingPage({ searchParams }: { searchParams: SearchParams }) {
  const gate = await portalGate("/portal/billing", searchParams);
  const [customer, details] = await Promise.all([
    portalCustomer(gate.customerId),
    portalBillingDetails(gate.customerId),
  ]);
  return (
    <>
      <PortalNav current="billing" email={customer.email} />
      <h1 className="mb-1 text-2xl font-semibold text-slate-900">Billing details</h1>
      <p className="mb-4 text-sm text-slate-600">
        What your invoices show. Changes apply to your next invoices; invoices already issued stay as they are.
      </p>
      <div className="space-y-4">
        <Card aria-labelledby="addresses-heading">
          <h2 id="addresses-heading" className="mb-3 text-base font-semibold text-slate-900">
            Billing address
          </h2>
          {details.addresses.length === 0 ? (
            <p className="text-sm text-slate-600">No billing address on file.</p>
          ) : (
            <div className="divide-y divide-slate-100">
              {details.addresses.map((address) => (
                <AddressForm key={address.id} address={address} />
              ))}
            </div>
          )}
        </Card>
        <Card aria-labelledby="businesses-heading">
          <h2 id="businesses-heading" className="mb-3 text-base font-semibold text-slate-900">
            Business details
          </h2>
          {details.businesses.length === 0 ? (
            <p className="text-sm text-slate-600">
              No business on file: your invoices are made out to you. To buy as a business, contact the seller.
            </p>
          ) : (
            <div className="divide-y divide-slate-100">
              {details.businesses.map((business) => (
                <BusinessForm key={business.id} business={business} />
              ))}
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
