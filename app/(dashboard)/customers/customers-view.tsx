"use client";

import Link from "next/link";
import type { Column } from "@/components/data-table";
import { ExportLink } from "@/components/export-link";
import {
  ACTIVE_ARCHIVED_OPTIONS,
  createdColumn,
  createdToast,
  ListFilters,
  PagedTable,
  PanelSection,
  PER_PAGE,
  useListFilters,
  usePanel,
} from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { type Customer, useCreateCustomer, useCustomers } from "@/lib/dashboard/customers";
import { Allowed } from "@/lib/dashboard/permissions";
import { CustomerForm } from "./customer-form";

const COLUMNS: Column<Customer>[] = [
  {
    key: "email",
    header: "Email",
    cell: (c) => (
      <Link href={`/customers/${c.id}`} className="font-medium text-brand-700 hover:underline">
        {c.email}
      </Link>
    ),
  },
  { key: "name", header: "Name", cell: (c) => c.name ?? <span className="text-slate-500">—</span> },
  { key: "status", header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
  createdColumn(),
];

export function CustomersView() {
  const { search, setSearch, status, setStatus, orderBy, order, pagination } = useListFilters();
  const panel = usePanel();
  const toast = useToast();
  const create = useCreateCustomer();
  const listParams = { search, status, after: pagination.after, per_page: PER_PAGE, order_by: orderBy };
  const list = useCustomers(listParams);
  const filtered = search !== "" || status !== "active";

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Customers"
        description="The people and companies you bill. Customers hold addresses and businesses used on transactions."
        actions={
          <>
            <ExportLink list="customers" params={listParams} />
            {
              <Allowed permission="customer.write" action="create customers">
                {panel.newButton("New customer", true)}
              </Allowed>
            }
          </>
        }
      />

      {panel.editing && (
        <PanelSection id={panel.id} title="New customer">
          <CustomerForm
            onSubmit={(body) => create.mutateAsync(body)}
            onSaved={(customer) => {
              panel.close();
              pagination.reset();
              if (customer) {
                toast.show(createdToast("Customer", `/customers/${customer.id}`, customer.email));
              }
            }}
            onCancel={panel.close}
          />
        </PanelSection>
      )}

      <ListFilters
        search={{
          label: "Search customers",
          placeholder: "Search by email, name or ID",
          initialValue: search,
          onSearch: setSearch,
        }}
        status={status}
        options={ACTIVE_ARCHIVED_OPTIONS}
        onStatus={setStatus}
      />

      <PagedTable
        caption="Customers"
        columns={COLUMNS}
        rowKey={(c) => c.id}
        list={list}
        pagination={pagination}
        order={order}
        empty={
          filtered ? (
            <EmptyState
              title="No customers match"
              description={search ? `Nothing matches “${search}” with this status.` : "No customers have this status."}
            />
          ) : (
            <EmptyState
              title="No customers yet"
              description="Create a customer here, or through the API with POST /customers."
              action={
                !panel.editing && (
                  <Allowed permission="customer.write" action="create customers">
                    {panel.newButton("New customer", false)}
                  </Allowed>
                )
              }
            />
          )
        }
      />
    </div>
  );
}
