"use client";

import { ChildEntitySection } from "@/components/child-entity-section";
import type { Column } from "@/components/data-table";
import { StatusBadge } from "@/components/status-badge";
import { type Business, useBusinesses, useCreateBusiness, useUpdateBusiness } from "@/lib/dashboard/customers";
import { pluralize } from "@/lib/dashboard/display";
import { BusinessForm } from "./business-form";

const dash = <span className="text-slate-500">—</span>;

const COLUMNS: Column<Business>[] = [
  { key: "name", header: "Name", cell: (b) => <span className="font-medium text-slate-900">{b.name}</span> },
  { key: "company_number", header: "Company number", cell: (b) => b.company_number ?? dash },
  { key: "tax_identifier", header: "Tax identifier", cell: (b) => b.tax_identifier ?? dash },
  {
    key: "contacts",
    header: "Contacts",
    cell: (b) =>
      b.contacts.length === 0 ? (
        dash
      ) : (
        <div>
          <p>{pluralize(b.contacts.length, "contact")}</p>
          <p className="max-w-56 truncate text-slate-500" title={b.contacts.map((c) => c.email).join(", ")}>
            {b.contacts.map((c) => c.email).join(", ")}
          </p>
        </div>
      ),
  },
  { key: "status", header: "Status", cell: (b) => <StatusBadge status={b.status} /> },
];

export function BusinessesSection({ customerId, readOnly = false }: { customerId: string; readOnly?: boolean }) {
  return (
    <ChildEntitySection
      parentId={customerId}
      readOnly={readOnly}
      noun={{ one: "business", many: "businesses" }}
      description="Companies the customer buys for: their names and tax numbers appear on invoices."
      emptyDescription="Add a business when this customer buys on behalf of a company."
      label={(business) => business.name}
      columns={COLUMNS}
      Form={BusinessForm}
      useList={useBusinesses}
      useCreate={useCreateBusiness}
      useUpdate={useUpdateBusiness}
    />
  );
}
