"use client";

import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import { type ComponentType, type ReactNode, useState } from "react";
import type { ListResponse } from "@/lib/dashboard/api";
import { type ListParams, NEWEST_FIRST } from "@/lib/dashboard/hooks";
import { Button } from "./button";
import type { Column } from "./data-table";
import type { EntityFormProps } from "./entity-form";
import { useFocusReturn } from "./focus";
import { ACTIVE_ARCHIVED_OPTIONS, PagedTable, useListFilters } from "./list-page";
import { Section } from "./page-header";
import { type Archivable, RowActions, useRowArchive } from "./row-actions";
import { EmptyState } from "./states";
import { StatusFilter } from "./status-filter";
import { useToast } from "./toast";

const PER_PAGE = 10;

type Status = "active" | "archived";

/** An entity that belongs to another (a customer's address) and is archived rather than deleted. */
export type ChildEntity = Archivable;

export interface ChildEntitySectionProps<T extends ChildEntity, C, U> {
  /** The owner's ID, passed to the hooks. */
  parentId: string;
  /** Lower case, as in "New address" and "No addresses"; the plural is also the section's id. */
  noun: { one: string; many: string };
  /** Under the section's title. */
  description: string;
  /** The button that opens the form for a new one; "New {one}" unless given. */
  addLabel?: string;
  /** The word for bringing an archived one back: "Restore" unless given. */
  restoreVerb?: "Restore" | "Unarchive";
  /** What the archive confirmation says after the entity's name. */
  archiveText?: string;
  /** Nothing can be added or changed (the parent is archived): no buttons. */
  readOnly?: boolean;
  /** Only active entities can be edited, and not while the form is open. */
  editActiveOnly?: boolean;
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
  addLabel = `New ${one}`,
  restoreVerb = "Restore",
  archiveText = "will no longer be offered for new transactions. You can restore it later.",
  readOnly = false,
  editActiveOnly = false,
  label,
  columns,
  Form,
  useList,
  useCreate,
  useUpdate,
}: ChildEntitySectionProps<T, C, U>) {
  const [One, Many] = [capitalize(one), capitalize(many)];
  const { status, setStatus, pagination, orderBy, order } = useListFilters();
  // Sortable only with a sortable column (prices); other sections keep newest first, whatever the
  // address says (a customer's page holds two such sections).
  const sortable = columns.some((column) => column.sortField);
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const [opener, restoreFocus] = useFocusReturn();
  const list = useList(parentId, {
    status,
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: sortable ? orderBy : NEWEST_FIRST,
  });
  const create = useCreate(parentId);
  const update = useUpdate(parentId);
  const toast = useToast();
  const restored = restoreVerb === "Restore" ? "restored" : "unarchived";
  const rows = useRowArchive<T>({
    statusChange: useUpdate(parentId),
    archived: () => `${One} archived.`,
    restored: () => `${One} ${restored}.`,
    restoreFailed: `Could not ${restoreVerb.toLowerCase()} the ${one}.`,
    title: `Archive this ${one}?`,
    confirmLabel: `Archive ${one}`,
    description: (entity): ReactNode => (
      <>
        <strong>{label(entity)}</strong> {archiveText}
      </>
    ),
  });

  const closeForm = () => {
    setEditing(null);
    restoreFocus();
  };

  const actions: Column<T> = {
    key: "actions",
    header: "",
    srHeader: "Actions",
    className: "text-right whitespace-nowrap",
    cell: (entity) =>
      readOnly ? null : (
        <RowActions
          label={label(entity)}
          archived={entity.status !== "active"}
          onEdit={() => setEditing(entity)}
          editDisabled={editActiveOnly && editing !== null}
          editArchived={!editActiveOnly}
          onArchive={() => rows.archive(entity)}
          onRestore={() => rows.restore(entity)}
          restoreVerb={restoreVerb}
        />
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
            options={ACTIVE_ARCHIVED_OPTIONS}
            onChange={setStatus}
          />
          {!readOnly && (
            <Button ref={opener} onClick={() => setEditing("new")} disabled={editing !== null}>
              {addLabel}
            </Button>
          )}
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
      <PagedTable
        caption={Many}
        columns={[...columns, actions]}
        rowKey={(entity) => entity.id}
        list={list}
        pagination={pagination}
        order={sortable ? order : undefined}
        skeletonRows={2}
        empty={
          status === "active" ? (
            <EmptyState
              title={`No ${many}`}
              description={emptyDescription}
              action={
                !readOnly &&
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
      />
      {rows.dialog}
    </Section>
  );
}
