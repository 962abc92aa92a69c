"use client";

import Link from "next/link";
import { useMemo } from "react";
import type { Column } from "@/components/data-table";
import { ExportLink } from "@/components/export-link";
import {
  createdToast,
  DateCell,
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
import { type Discount, useCatalogue, useCreateDiscount, useDiscounts } from "@/lib/dashboard/catalogue";
import { Allowed } from "@/lib/dashboard/permissions";
import { DiscountForm } from "./discount-form";
import {
  type CatalogueNames,
  catalogueNames,
  discountAmountText,
  recurText,
  restrictionName,
  restrictionSummary,
  usageText,
} from "./discount-text";

const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "expired", label: "Expired" },
  { value: "used", label: "Used up" },
  { value: "archived", label: "Archived" },
  { value: "active,expired,used,archived", label: "All" },
] as const;

const dash = <span className="text-slate-500">—</span>;

function columns(names: CatalogueNames | null): Column<Discount>[] {
  return [
    {
      key: "discount",
      header: "Discount",
      cell: (d) => (
        <div className="max-w-72">
          <Link href={`/catalogue/discounts/${d.id}`} className="font-medium text-brand-700 hover:underline">
            {d.code ? <span className="font-mono">{d.code}</span> : d.description}
          </Link>
          {d.code && (
            <p className="truncate text-xs text-slate-500" title={d.description}>
              {d.description}
            </p>
          )}
          {!d.enabled_for_checkout && <p className="text-xs text-slate-500">Not offered at checkout</p>}
        </div>
      ),
    },
    {
      key: "amount",
      header: "Amount",
      className: "whitespace-nowrap",
      cell: (d) => (
        <div>
          <p className="font-medium text-slate-900 tabular-nums">{discountAmountText(d)}</p>
          <p className="text-xs text-slate-500">{recurText(d)}</p>
        </div>
      ),
    },
    {
      key: "used",
      header: "Used",
      className: "whitespace-nowrap tabular-nums",
      cell: (d) => (
        <span
          title={d.usage_limit === null ? "No usage limit" : `${d.times_used} of ${d.usage_limit} redemptions used`}
        >
          {usageText(d)}
        </span>
      ),
    },
    {
      key: "expires",
      header: "Expires",
      className: "whitespace-nowrap",
      cell: (d) => (d.expires_at ? <DateCell value={d.expires_at} /> : <span className="text-slate-500">Never</span>),
    },
    {
      key: "applies_to",
      header: "Applies to",
      cell: (d) => (
        <span
          className="block max-w-48 truncate"
          title={d.restrict_to?.map((ref) => restrictionName(ref, names)).join("\n") || "All products and prices"}
        >
          {restrictionSummary(d.restrict_to, names)}
        </span>
      ),
    },
    { key: "status", header: "Status", cell: (d) => <StatusBadge status={d.status} /> },
    { key: "group", header: "Group", cell: (d) => d.discount_group?.name ?? dash },
  ];
}

export function DiscountsView({ groupId }: { groupId?: string }) {
  const { search: code, setSearch: setCode, status, setStatus, orderBy, order, pagination } = useListFilters();
  const panel = usePanel();
  const toast = useToast();
  const create = useCreateDiscount();
  const listParams = {
    status,
    code: code || undefined,
    discount_group_id: groupId,
    include: "discount_group",
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: orderBy,
  };
  const list = useDiscounts(listParams);
  // Names for the "Applies to" column: the catalogue's first page (names fall back to counts).
  const catalogue = useCatalogue("active,archived");
  const firstPage = catalogue.data?.pages[0]?.data;
  const names = useMemo(() => (firstPage ? catalogueNames(firstPage) : null), [firstPage]);
  const rows = list.data?.data;
  const filtered = status !== "active" || Boolean(groupId) || code !== "";

  return (
    <div>
      <PageHeader
        title="Discounts"
        description="Percentage or flat reductions, redeemed with a code at checkout or applied to transactions and subscriptions."
        actions={
          <>
            <ExportLink list="discounts" params={listParams} />
            {
              <Allowed permission="discount.write" action="create discounts">
                {panel.newButton("New discount", true)}
              </Allowed>
            }
          </>
        }
      />

      {panel.editing && (
        <PanelSection id={panel.id} title="New discount">
          <DiscountForm
            onSubmit={(body) => create.mutateAsync(body)}
            onSaved={(discount) => {
              panel.close();
              pagination.reset();
              if (discount) {
                toast.show(
                  createdToast(
                    "Discount",
                    `/catalogue/discounts/${discount.id}`,
                    discount.code ?? discount.description,
                  ),
                );
              }
            }}
            onCancel={panel.close}
          />
        </PanelSection>
      )}

      {groupId && (
        <p className="mb-3 text-sm text-slate-700">
          Discounts in the group <strong>{rows?.[0]?.discount_group?.name ?? groupId}</strong> ·{" "}
          <Link href="/catalogue/discounts" className="font-medium text-brand-700 hover:underline">
            Show all discounts
          </Link>
        </p>
      )}
      <ListFilters
        search={{
          label: "Find a discount by code",
          placeholder: "Find by code, such as SUMMER15",
          maxLength: 32,
          initialValue: code,
          onSearch: setCode,
        }}
        status={status}
        options={STATUS_OPTIONS}
        onStatus={setStatus}
      />

      <PagedTable
        caption="Discounts"
        columns={columns(names)}
        rowKey={(d) => d.id}
        list={list}
        pagination={pagination}
        order={order}
        empty={
          filtered ? (
            <EmptyState
              title="No discounts match"
              description={
                code
                  ? `No discount with this status has the code “${code}”.`
                  : groupId
                    ? "No discounts in this group have this status."
                    : "No discounts have this status."
              }
            />
          ) : (
            <EmptyState
              title="No discounts yet"
              description="Create a discount here, or through the API with POST /discounts."
              action={
                !panel.editing && (
                  <Allowed permission="discount.write" action="create discounts">
                    {panel.newButton("New discount", false)}
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
