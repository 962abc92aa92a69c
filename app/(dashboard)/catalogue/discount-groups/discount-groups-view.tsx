"use client";

import Link from "next/link";
import type { Column } from "@/components/data-table";
import { EntityId } from "@/components/entity-text";
import { ExportLink } from "@/components/export-link";
import {
  ACTIVE_ARCHIVED_OPTIONS,
  createdColumn,
  ListFilters,
  PagedTable,
  PanelSection,
  PER_PAGE,
  useListFilters,
  usePanel,
} from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { RowActions, useRowArchive } from "@/components/row-actions";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import {
  type DiscountGroup,
  useCreateDiscountGroup,
  useDiscountGroups,
  useUpdateDiscountGroup,
} from "@/lib/dashboard/catalogue";
import { Allowed } from "@/lib/dashboard/permissions";
import { DiscountGroupForm } from "./discount-group-form";

export function DiscountGroupsView() {
  const { status, setStatus, orderBy, order, pagination } = useListFilters();
  const panel = usePanel<DiscountGroup>();
  const { editing, close } = panel;
  const listParams = { status, after: pagination.after, per_page: PER_PAGE, order_by: orderBy };
  const list = useDiscountGroups(listParams);
  const create = useCreateDiscountGroup();
  const update = useUpdateDiscountGroup();
  const rows = useRowArchive<DiscountGroup>({
    statusChange: useUpdateDiscountGroup(),
    archived: (group) => `Discount group “${group.name}” archived.`,
    restored: (group) => `Discount group “${group.name}” unarchived.`,
    restoreFailed: "Could not unarchive the group.",
    title: "Archive this discount group?",
    confirmLabel: "Archive group",
    description: (group) => (
      <>
        <strong>{group.name}</strong> will no longer be offered when discounts are created or edited. Discounts already
        in it stay in it and keep working. You can unarchive it later.
      </>
    ),
  });
  const toast = useToast();

  const columns: Column<DiscountGroup>[] = [
    {
      key: "name",
      header: "Name",
      cell: (g) => (
        <div>
          <p className="font-medium text-slate-900">{g.name}</p>
          <EntityId id={g.id} />
        </div>
      ),
    },
    {
      key: "discounts",
      header: "Discounts",
      cell: (g) => (
        <Link
          href={`/catalogue/discounts?discount_group_id=${g.id}`}
          className="text-brand-700 hover:underline"
          aria-label={`View discounts in ${g.name}`}
        >
          View discounts
        </Link>
      ),
    },
    { key: "status", header: "Status", cell: (g) => <StatusBadge status={g.status} /> },
    createdColumn(),
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right whitespace-nowrap",
      cell: (g) => (
        <Allowed permission="discount_group.write" action="change discount groups" hide>
          <RowActions
            label={g.name}
            archived={g.status !== "active"}
            onEdit={() => panel.setEditing(g)}
            editDisabled={editing !== null}
            editArchived={false}
            onArchive={() => rows.archive(g)}
            onRestore={() => rows.restore(g)}
            restoreVerb="Unarchive"
          />
        </Allowed>
      ),
    },
  ];

  return (
    <div>
      <PageHeader
        title="Discount groups"
        description="Groups keep related discounts together, such as the codes of one campaign."
        actions={
          <>
            <ExportLink list="discount-groups" params={listParams} />
            {
              <Allowed permission="discount_group.write" action="create discount groups">
                {panel.newButton("New discount group", true)}
              </Allowed>
            }
          </>
        }
      />

      {editing && (
        <PanelSection id={panel.id} title={editing === "new" ? "New discount group" : `Edit ${editing.name}`}>
          {editing === "new" ? (
            <DiscountGroupForm
              onSubmit={(body) => create.mutateAsync(body)}
              onSaved={(group) => {
                close();
                pagination.reset();
                if (group) toast.show(`Discount group “${group.name}” created.`);
              }}
              onCancel={close}
            />
          ) : (
            <DiscountGroupForm
              key={editing.id}
              entity={editing}
              onSubmit={(input) => update.mutateAsync({ id: editing.id, input })}
              onSaved={(saved) => {
                close();
                toast.show(saved ? "Discount group saved." : "Nothing changed.", saved ? "success" : "info");
              }}
              onCancel={close}
            />
          )}
        </PanelSection>
      )}

      <ListFilters status={status} options={ACTIVE_ARCHIVED_OPTIONS} onStatus={setStatus} />

      <PagedTable
        caption="Discount groups"
        columns={columns}
        rowKey={(g) => g.id}
        list={list}
        pagination={pagination}
        order={order}
        empty={
          status === "active" ? (
            <EmptyState
              title="No discount groups yet"
              description="Create a group, then choose it when you create or edit discounts."
              action={
                editing === null && (
                  <Allowed permission="discount_group.write" action="create discount groups">
                    {panel.newButton("New discount group", false)}
                  </Allowed>
                )
              }
            />
          ) : (
            <EmptyState title="No discount groups with this status" />
          )
        }
      />

      {rows.dialog}
    </div>
  );
}
