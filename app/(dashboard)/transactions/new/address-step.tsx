"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { LoadingBlock } from "@/components/states";
import {
  type Address,
  type Business,
  type Customer,
  useAddresses,
  useBusinesses,
  useCreateAddress,
  useCreateBusiness,
} from "@/lib/dashboard/customers";
import { countryName } from "@/lib/dashboard/display";
import { Allowed } from "@/lib/dashboard/permissions";
import { AddressForm } from "../../customers/[customer_id]/address-form";
import { BusinessForm } from "../../customers/[customer_id]/business-form";
import { ChoiceList } from "./step-frame";

export function addressText(a: Address): string {
  return [a.first_line, a.second_line, a.city, a.region, a.postal_code, countryName(a.country_code)]
    .filter((part) => part)
    .join(", ");
}

/** The billing address (required: it sets the tax) and, optionally, the customer's business. */
export function AddressStep({
  customer,
  address,
  business,
  onAddress,
  onBusiness,
}: {
  customer: Customer;
  address: Address | null;
  business: Business | null;
  onAddress: (address: Address) => void;
  onBusiness: (business: Business | null) => void;
}) {
  const addresses = useAddresses(customer.id, { status: "active", per_page: 50 });
  const businesses = useBusinesses(customer.id, { status: "active", per_page: 50 });
  const createAddress = useCreateAddress(customer.id);
  const createBusiness = useCreateBusiness(customer.id);
  const [addingAddress, setAddingAddress] = useState(false);
  const [addingBusiness, setAddingBusiness] = useState(false);
  const addressList = addresses.data?.data ?? [];
  const businessList = businesses.data?.data ?? [];

  return (
    <div className="space-y-6">
      <div className="space-y-3">
        {addresses.isLoading ? (
          <LoadingBlock label="Loading addresses…" lines={2} />
        ) : addressList.length > 0 ? (
          <ChoiceList
            legend="Billing address"
            name="address"
            items={addressList}
            selectedId={address?.id ?? null}
            idOf={(a) => a.id}
            render={(a) => (
              <>
                {a.description && <span className="block font-medium text-slate-900">{a.description}</span>}
                <span className="block text-slate-700">{addressText(a)}</span>
              </>
            )}
            onSelect={onAddress}
          />
        ) : (
          <p className="text-sm text-slate-600">
            {customer.name ?? customer.email} has no address yet. Add one: its country sets the tax.
          </p>
        )}
        {addingAddress ? (
          <div className="rounded-md border border-slate-200 bg-slate-50 p-4">
            <h3 className="mb-3 text-sm font-semibold text-slate-900">New address</h3>
            <AddressForm
              onSubmit={(body) => createAddress.mutateAsync(body)}
              onSaved={(saved) => {
                setAddingAddress(false);
                if (saved) onAddress(saved);
              }}
              onCancel={() => setAddingAddress(false)}
            />
          </div>
        ) : (
          <Allowed permission="address.write" action="add addresses">
            <Button variant="secondary" onClick={() => setAddingAddress(true)}>
              Add an address
            </Button>
          </Allowed>
        )}
      </div>

      <div className="space-y-3">
        {businesses.isLoading ? (
          <LoadingBlock label="Loading businesses…" lines={2} />
        ) : (
          <ChoiceList
            legend="Business (optional)"
            name="business"
            items={businessList}
            selectedId={business?.id ?? null}
            idOf={(b) => b.id}
            render={(b) => (
              <>
                <span className="block font-medium text-slate-900">{b.name}</span>
                {b.tax_identifier && <span className="block text-slate-600">Tax ID {b.tax_identifier}</span>}
              </>
            )}
            onSelect={onBusiness}
            extra={
              <label
                className={`flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2 text-sm ${
                  business === null ? "border-brand-500 bg-brand-50" : "border-slate-200 hover:bg-slate-50"
                }`}
              >
                <input
                  type="radio"
                  name="business"
                  checked={business === null}
                  onChange={() => onBusiness(null)}
                  className="mt-0.5 accent-brand-600"
                />
                <span>No business: invoice the customer</span>
              </label>
            }
          />
        )}
        {addingBusiness ? (
          <div className="rounded-md border border-slate-200 bg-slate-50 p-4">
            <h3 className="mb-3 text-sm font-semibold text-slate-900">New business</h3>
            <BusinessForm
              onSubmit={(body) => createBusiness.mutateAsync(body)}
              onSaved={(saved) => {
                setAddingBusiness(false);
                if (saved) onBusiness(saved);
              }}
              onCancel={() => setAddingBusiness(false)}
            />
          </div>
        ) : (
          <Allowed permission="business.write" action="add businesses">
            <Button variant="secondary" onClick={() => setAddingBusiness(true)}>
              Add a business
            </Button>
          </Allowed>
        )}
      </div>
    </div>
  );
}
