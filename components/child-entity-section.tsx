"use client";

import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import { type ComponentType, useState } from "react";
import type { ListResponse } from "@/lib/client/api";
import { type ListParams, NEWEST_FIRST } from "@/lib/client/hooks";
import { Button } from "./button";
import { ConfirmDialog } from "./confirm-dialog";
import { type Column, DataTable } from "./data-table";
import type { EntityFormProps } from "./entity-form";
import { useFocusReturn } from "./focus";
import { Section } from "./page-header";
import { PaginationControls, useCursorPagination } from "./pagination";
import { EmptyState } from "./states";
import { StatusFilter } from "./status-filter";
import { useToast } from "./toast";

const PER_PAGE = 10;
const STATUS_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "active,archived", label: "All" },
] as const;

type Status = "active" | "archived";

/** An entity that belongs to another (a customer's address) and is archived rather than deleted. */
export interface ChildEntity {
  id: string;
  status: Status;
}

export interface ChildEntitySectionProps<T extends ChildEntity, C, U> {
  /** The owner's ID, passed to the hooks. */
  parentId: string;
  /** Lower case, as in "New address" and "No addresses"; the plural is also the section's id. */
  noun: { one: string; many: string };
  /** Under the section's title. */
  description: string;
  /** Under "No {many}" when there are none yet. */
  emptyDescription: string;
  /** How an entity is named in buttons, headings and dialogs. */
  label: (entity: T) => string;
  /** The entity's columns; the Edit, Archive and Restore buttons come after them. */
  columns: Column<T>[];
  /** Adds an entity (no `entity` prop) or edits one. */
  Form: ComponentType<EntityFormProps<T, C, U>>;
  useList: (parentId: string, params: ListParams) => UseQueryResult<ListResponse<T>>;
  useCreate: (parentId: string) => UseMutationResult<T, Error, C>;
  /** Also archives and restores: `input` is then only the status. */
  useUpdate: (parentId: string) => UseMutationResult<T, Error, { id: string; input: U | { status: Status } }>;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A section of entities that belong to a parent: a status filter, a table with pages, a panel to
 * add or edit one (focus returns to "New …" when it closes), and archive (confirmed) and restore.
 */
export function ChildEntitySection<T extends ChildEntity, C, U>({
  parentId,
  noun: { one, many },
  description,
  emptyDescription,
  label,
  columns,
  Form,
  useList,
  useCreate,
  useUpdate,
}: ChildEntitySectionProps<T, C, U>) {
  const [One, Many] = [capitalize(one), capitalize(many)];
  const [status, setStatus] = useState("active");
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const [archiving, setArchiving] = useState<T | null>(null);
  const pagination = useCursorPagination();
  const [opener, restoreFocus] = useFocusReturn();
  const list = useList(parentId, {
    status,
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: NEWEST_FIRST,
  });
  const create = useCreate(parentId);
  const update = useUpdate(parentId);
  const statusChange = useUpdate(parentId);
  const toast = useToast();
  const rows = list.data?.data;

  async function setEntityStatus(entity: T, next: Status) {
    try {
      await statusChange.mutateAsync({ id: entity.id, input: { status: next } });
      setArchiving(null);
      toast.show(next === "archived" ? `${One} archived.` : `${One} restored.`);
    } catch (error) {
      if (next === "active")
        toast.show(error instanceof Error ? error.message : `Could not restore the ${one}.`, "error");
    }
  }

  const closeForm = () => {
    setEditing(null);
    restoreFocus();
  };

  const actions: Column<T> = {
    key: "actions",
    header: "",
    srHeader: "Actions",
    className: "text-right whitespace-nowrap",
    cell: (entity) => (
      <div className="flex justify-end gap-1">
        <Button variant="ghost" size="sm" onClick={() => setEditing(entity)} aria-label={`Edit ${label(entity)}`}>
          Edit
        </Button>
        {entity.status === "active" ? (
          <Button
            variant="ghost"
            size="sm"
            className="text-red-700 hover:bg-red-50"
            onClick={() => {
              statusChange.reset();
              setArchiving(entity);
            }}
            aria-label={`Archive ${label(entity)}`}
          >
            Archive
          </Button>
        ) : (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setEntityStatus(entity, "active")}
            aria-label={`Restore ${label(entity)}`}
          >
            Restore
          </Button>
        )}
      </div>
    ),
  };

  return (
    <Section
      id={many}
      title={Many}
      description={description}
      actions={
        <>
          <StatusFilter
            label="Status"
            context={One}
            value={status}
            options={STATUS_OPTIONS}
            onChange={(value) => {
              setStatus(value);
              pagination.reset();
            }}
          />
          <Button ref={opener} onClick={() => setEditing("new")} disabled={editing !== null}>
            {`New ${one}`}
          </Button>
        </>
      }
    >
      {editing && (
        <div className="mb-5 rounded-md border border-slate-200 bg-slate-50 p-4">
          <h3 className="mb-3 text-sm font-semibold text-slate-900">
            {editing === "new" ? `New ${one}` : `Edit ${label(editing)}`}
          </h3>
          {editing === "new" ? (
            <Form
              onSubmit={(body: C) => create.mutateAsync(body)}
              onSaved={() => {
                closeForm();
                pagination.reset();
                toast.show(`${One} added.`);
              }}
              onCancel={closeForm}
            />
          ) : (
            <Form
              key={editing.id}
              entity={editing}
              onSubmit={(input: U) => update.mutateAsync({ id: editing.id, input })}
              onSaved={(saved) => {
                closeForm();
                toast.show(saved ? `${One} saved.` : "Nothing changed.", saved ? "success" : "info");
              }}
              onCancel={closeForm}
            />
          )}
        </div>
      )}
      <DataTable
        caption={Many}
        columns={[...columns, actions]}
        rows={rows}
        rowKey={(entity) => entity.id}
        isLoading={list.isLoading}
        isRefreshing={list.isPlaceholderData}
        error={list.error}
        onRetry={() => list.refetch()}
        skeletonRows={2}
        empty={
          status === "active" ? (
            <EmptyState
              title={`No ${many}`}
              description={emptyDescription}
              action={
                editing === null && (
                  <Button variant="secondary" onClick={() => setEditing("new")}>
                    {`Add the first ${one}`}
                  </Button>
                )
              }
            />
          ) : (
            <EmptyState title={`No ${many} with this status`} />
          )
        }
        footer={
          <PaginationControls
            label={`${Many} pages`}
            pagination={pagination}
            meta={list.data?.meta.pagination}
            shown={rows?.length ?? 0}
            disabled={list.isFetching}
          />
        }
      />
      <ConfirmDialog
        open={archiving !== null}
        title={`Archive this ${one}?`}
        description={
          archiving && (
            <>
              <strong>{label(archiving)}</strong> will no longer be offered for new transactions. You can restore it
              later.
            </>
          )
        }
        confirmLabel={`Archive ${one}`}
        pending={statusChange.isPending}
        error={statusChange.error?.message}
        onConfirm={() => archiving && setEntityStatus(archiving, "archived")}
        onCancel={() => setArchiving(null)}
      />
    </Section>
  );
}
