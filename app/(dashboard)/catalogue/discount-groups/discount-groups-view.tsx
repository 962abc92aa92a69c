"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { type Column, DataTable } from "@/components/data-table";
import { EntityId } from "@/components/entity-text";
import { useFocusReturn } from "@/components/focus";
import { PageHeader } from "@/components/page-header";
import { PaginationControls, useCursorPagination } from "@/components/pagination";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { StatusFilter } from "@/components/status-filter";
import { useToast } from "@/components/toast";
import {
  type DiscountGroup,
  useCreateDiscountGroup,
  useDiscountGroups,
  useUpdateDiscountGroup,
} from "@/lib/client/catalogue";
import { formatDate, formatDateTime } from "@/lib/client/format";
import { NEWEST_FIRST } from "@/lib/client/hooks";
import { DiscountGroupForm } from "./discount-group-form";

const PER_PAGE = 25;
const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "active,archived", label: "All" },
] as const;

export function DiscountGroupsView() {
  const [status, setStatus] = useState("active");
  const [editing, setEditing] = useState<DiscountGroup | "new" | null>(null);
  const [archiving, setArchiving] = useState<DiscountGroup | null>(null);
  const pagination = useCursorPagination();
  const list = useDiscountGroups({ status, after: pagination.after, per_page: PER_PAGE, order_by: NEWEST_FIRST });
  const create = useCreateDiscountGroup();
  const update = useUpdateDiscountGroup();
  const statusChange = useUpdateDiscountGroup();
  const toast = useToast();
  const formId = useId();
  const [opener, restoreFocus] = useFocusReturn();
  const rows = list.data?.data;

  async function setGroupStatus(group: DiscountGroup, next: "active" | "archived") {
    try {
      await statusChange.mutateAsync({ id: group.id, input: { status: next } });
      setArchiving(null);
      toast.show(
        next === "archived" ? `Discount group “${group.name}” archived.` : `Discount group “${group.name}” unarchived.`,
      );
    } catch (error) {
      if (next === "active") {
        toast.show(error instanceof Error ? error.message : "Could not unarchive the group.", "error");
      }
    }
  }

  const close = () => {
    setEditing(null);
    restoreFocus();
  };

  const newGroupButton = (withRef: boolean) => (
    <Button
      ref={withRef ? opener : undefined}
      onClick={() => setEditing("new")}
      disabled={editing !== null}
      aria-expanded={editing === "new"}
      aria-controls={formId}
    >
      New discount group
    </Button>
  );

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
          aria-label={`Discounts in ${g.name}`}
        >
          View discounts
        </Link>
      ),
    },
    { key: "status", header: "Status", cell: (g) => <StatusBadge status={g.status} /> },
    {
      key: "created",
      header: "Created",
      className: "whitespace-nowrap",
      cell: (g) => (
        <time dateTime={g.created_at} title={formatDateTime(g.created_at)}>
          {formatDate(g.created_at)}
        </time>
      ),
    },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right whitespace-nowrap",
      cell: (g) => (
        <div className="flex justify-end gap-1">
          {g.status === "active" ? (
            <>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setEditing(g)}
                disabled={editing !== null}
                aria-label={`Edit ${g.name}`}
              >
                Edit
              </Button>
              <Button
                variant="ghost"
                size="sm"
                className="text-red-700 hover:bg-red-50"
                onClick={() => {
                  statusChange.reset();
                  setArchiving(g);
                }}
                aria-label={`Archive ${g.name}`}
              >
                Archive
              </Button>
            </>
          ) : (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setGroupStatus(g, "active")}
              aria-label={`Unarchive ${g.name}`}
            >
              Unarchive
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <div>
      <PageHeader
        title="Discount groups"
        description="Groups keep related discounts together, such as the codes of one campaign."
        actions={newGroupButton(true)}
      />

      {editing && (
        <section
          id={formId}
          aria-labelledby={`${formId}-title`}
          className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id={`${formId}-title`} className="mb-4 text-base font-semibold">
            {editing === "new" ? "New discount group" : `Edit ${editing.name}`}
          </h2>
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
              group={editing}
              onSubmit={(input) => update.mutateAsync({ id: editing.id, input })}
              onSaved={(saved) => {
                close();
                toast.show(saved ? "Discount group saved." : "Nothing changed.", saved ? "success" : "info");
              }}
              onCancel={close}
            />
          )}
        </section>
      )}

      <div className="mb-4 flex flex-wrap items-center justify-end gap-3">
        <StatusFilter
          value={status}
          options={STATUS_OPTIONS}
          onChange={(value) => {
            setStatus(value);
            pagination.reset();
          }}
        />
      </div>

      <DataTable
        caption="Discount groups"
        columns={columns}
        rows={rows}
        rowKey={(g) => g.id}
        isLoading={list.isLoading}
        isRefreshing={list.isPlaceholderData}
        error={list.error}
        onRetry={() => list.refetch()}
        empty={
          status === "active" ? (
            <EmptyState
              title="No discount groups yet"
              description="Create a group, then choose it when you create or edit discounts."
              action={editing === null && newGroupButton(false)}
            />
          ) : (
            <EmptyState title="No discount groups with this status" />
          )
        }
        footer={
          <PaginationControls
            label="Discount groups pages"
            pagination={pagination}
            meta={list.data?.meta.pagination}
            shown={rows?.length ?? 0}
            disabled={list.isFetching}
          />
        }
      />

      <ConfirmDialog
        open={archiving !== null}
        title="Archive this discount group?"
        description={
          archiving && (
            <>
              <strong>{archiving.name}</strong> will no longer be offered when discounts are created or edited.
              Discounts already in it stay in it and keep working. You can unarchive it later.
            </>
          )
        }
        confirmLabel="Archive group"
        pending={statusChange.isPending}
        error={statusChange.error?.message}
        onConfirm={() => archiving && setGroupStatus(archiving, "archived")}
        onCancel={() => setArchiving(null)}
      />
    </div>
  );
}
