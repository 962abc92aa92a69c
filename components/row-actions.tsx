"use client";

import { type ReactNode, useState } from "react";
import { Button } from "./button";
import { ConfirmDialog } from "./confirm-dialog";
import { useToast } from "./toast";

type Status = "active" | "archived";

/** An entity that is archived rather than deleted. */
export interface Archivable {
  id: string;
  status: Status;
}

/** What `useRowArchive` needs of an update mutation. */
export interface StatusMutation {
  mutateAsync: (variables: { id: string; input: { status: Status } }) => Promise<unknown>;
  isPending: boolean;
  error: Error | null;
  reset: () => void;
}

/**
 * Archiving rows of a table (behind a confirmation) and bringing them back (at once): `dialog`
 * is the confirmation, to render once.
 */
export function useRowArchive<T extends Archivable>({
  statusChange,
  archived,
  restored,
  restoreFailed,
  title,
  confirmLabel,
  description,
}: {
  statusChange: StatusMutation;
  /** Toasts after archiving and restoring. */
  archived: (entity: T) => string;
  restored: (entity: T) => string;
  /** The toast when restoring fails without a message. */
  restoreFailed: string;
  /** The confirmation's title, button and text. */
  title: string;
  confirmLabel: string;
  description: (entity: T) => ReactNode;
}) {
  const [archiving, setArchiving] = useState<T | null>(null);
  const toast = useToast();

  async function setStatus(entity: T, next: Status) {
    try {
      await statusChange.mutateAsync({ id: entity.id, input: { status: next } });
      setArchiving(null);
      toast.show(next === "archived" ? archived(entity) : restored(entity));
    } catch (error) {
      if (next === "active") toast.show(error instanceof Error ? error.message : restoreFailed, "error");
    }
  }

  const dialog = (
    <ConfirmDialog
      open={archiving !== null}
      title={title}
      description={archiving && description(archiving)}
      confirmLabel={confirmLabel}
      pending={statusChange.isPending}
      error={statusChange.error?.message}
      onConfirm={() => archiving && setStatus(archiving, "archived")}
      onCancel={() => setArchiving(null)}
    />
  );

  return {
    /** Asks to confirm archiving. */
    archive: (entity: T) => {
      statusChange.reset();
      setArchiving(entity);
    },
    restore: (entity: T) => setStatus(entity, "active"),
    dialog,
  };
}

/** A row's Edit, Archive and Restore (or Unarchive) buttons, named after the row. */
export function RowActions({
  label,
  archived,
  onEdit,
  editDisabled = false,
  editArchived = true,
  onArchive,
  onRestore,
  restoreVerb = "Restore",
}: {
  label: string;
  archived: boolean;
  onEdit?: () => void;
  editDisabled?: boolean;
  /** False: archived rows have no Edit. */
  editArchived?: boolean;
  onArchive: () => void;
  onRestore: () => void;
  restoreVerb?: "Restore" | "Unarchive";
}) {
  return (
    <div className="flex justify-end gap-1">
      {onEdit && (editArchived || !archived) && (
        <Button variant="ghost" size="sm" onClick={onEdit} disabled={editDisabled} aria-label={`Edit ${label}`}>
          Edit
        </Button>
      )}
      {archived ? (
        <Button variant="ghost" size="sm" onClick={onRestore} aria-label={`${restoreVerb} ${label}`}>
          {restoreVerb}
        </Button>
      ) : (
        <Button variant="danger" size="sm" onClick={onArchive} aria-label={`Archive ${label}`}>
          Archive
        </Button>
      )}
    </div>
  );
}
