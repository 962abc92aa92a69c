"use client";

import { ChildEntitySection } from "@/components/child-entity-section";
import type { Column } from "@/components/data-table";
import { StatusBadge } from "@/components/status-badge";
import { type Address, useAddresses, useCreateAddress, useUpdateAddress } from "@/lib/dashboard/customers";
import { countryName } from "@/lib/dashboard/display";
import { AddressForm } from "./address-form";

/** How an address is named in buttons and dialogs. */
function addressLabel(address: Address): string {
  return address.description ?? address.first_line ?? `${countryName(address.country_code)} address`;
}

const COLUMNS: Column<Address>[] = [
  {
    key: "address",
    header: "Address",
    cell: (a) => (
      <div>
        {a.description && <p className="font-medium text-slate-900">{a.description}</p>}
        <p>
          {[a.first_line, a.second_line].filter(Boolean).join(", ") || (
            <span className="text-slate-500">No street address</span>
          )}
        </p>
        <p className="text-slate-500">{[a.city, a.region].filter(Boolean).join(", ")}</p>
      </div>
    ),
  },
  {
    key: "postal_code",
    header: "Postal code",
    cell: (a) => a.postal_code ?? <span className="text-slate-500">—</span>,
  },
  { key: "country", header: "Country", cell: (a) => `${countryName(a.country_code)} (${a.country_code})` },
  { key: "status", header: "Status", cell: (a) => <StatusBadge status={a.status} /> },
];

export function AddressesSection({ customerId, readOnly = false }: { customerId: string; readOnly?: boolean }) {
  return (
    <ChildEntitySection
      parentId={customerId}
      readOnly={readOnly}
      noun={{ one: "address", many: "addresses" }}
      description="Where the customer is, for tax calculation and invoices."
      emptyDescription="Add an address to calculate tax on this customer's transactions."
      label={addressLabel}
      columns={COLUMNS}
      Form={AddressForm}
      useList={useAddresses}
      useCreate={useCreateAddress}
      useUpdate={useUpdateAddress}
    />
  );
}
