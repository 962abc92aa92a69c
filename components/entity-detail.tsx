"use client";

import { type ReactNode, useState } from "react";
import { Button } from "./button";
import { ConfirmDialog } from "./confirm-dialog";
import { CopyButton } from "./copy-button";
import { EntityText } from "./entity-text";
import { PageHeader } from "./page-header";
import { ErrorState, LoadingBlock } from "./states";
import { StatusBadge } from "./status-badge";
import { InlineMessage, useToast } from "./toast";

type Status = "active" | "archived";
type Back = { href: string; label: string };

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * An entity's page while it loads or when it cannot be loaded (a header with the way back);
 * once loaded, `children` renders it.
 */
export function DetailLoader<T>({
  query,
  noun,
  back,
  className,
  children,
}: {
  query: { isLoading: boolean; data: T | undefined; error: unknown; refetch: () => unknown };
  /** Lower case: "customer". */
  noun: string;
  back: Back;
  className?: string;
  children: (entity: T) => ReactNode;
}) {
  if (query.isLoading) {
    return (
      <div className={className}>
        <PageHeader title={capitalize(noun)} back={back} />
        <div className="rounded-lg border border-slate-200 bg-white p-5">
          <LoadingBlock label={`Loading ${noun}…`} lines={6} />
        </div>
      </div>
    );
  }
  if (!query.data) {
    return (
      <div className={className}>
        <PageHeader title={capitalize(noun)} back={back} />
        <ErrorState error={query.error} title={`Could not load this ${noun}`} onRetry={() => query.refetch()} />
      </div>
    );
  }
  return <>{children(query.data)}</>;
}

/** An entity's ID with a button that copies it, under the title of its page. */
export function EntityIdCopy({ id, noun }: { id: string /** Lower case: "customer". */; noun: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <code className="font-mono text-xs text-slate-500">{id}</code>
      <CopyButton value={id} label={`Copy ${noun} ID`} variant="ghost" />
    </span>
  );
}

/**
 * The header of an entity's page: its name, status, ID (with a copy button), Edit, and Archive or
 * Unarchive behind a confirmation; an archived entity gets a notice under it when `archivedNotice`
 * is given.
 */
export function EntityHeader({
  entity,
  noun,
  back,
  title,
  subtitle,
  editing,
  canEdit = true,
  onEdit,
  statusChange,
  onStatusChanged,
  archiveText,
  unarchiveText,
  archivedNotice,
  readOnly = false,
}: {
  entity: { id: string; status: string };
  /** Lower case: "customer". */
  noun: string;
  back: Back;
  title: ReactNode;
  /** A line before the ID; undefined leaves the ID alone. */
  subtitle?: ReactNode;
  editing: boolean;
  /** False hides Edit (an archived entity that cannot change). */
  canEdit?: boolean;
  onEdit: () => void;
  statusChange: {
    run: (status: Status) => Promise<unknown>;
    isPending: boolean;
    error: Error | null;
    reset: () => void;
  };
  onStatusChanged?: () => void;
  /** The confirmations' texts. */
  archiveText: string;
  unarchiveText: string;
  archivedNotice?: ReactNode;
  /** No Edit, Archive or Unarchive: staff whose role cannot change the entity. */
  readOnly?: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const toast = useToast();
  const archived = entity.status === "archived";
  const Noun = capitalize(noun);

  async function changeStatus() {
    try {
      await statusChange.run(archived ? "active" : "archived");
      setConfirming(false);
      onStatusChanged?.();
      toast.show(archived ? `${Noun} unarchived.` : `${Noun} archived.`);
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  const id = <EntityIdCopy id={entity.id} noun={noun} />;

  return (
    <>
      <PageHeader
        back={back}
        title={title}
        badges={<StatusBadge status={entity.status} />}
        description={
          subtitle === undefined ? (
            id
          ) : (
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              {subtitle && <span>{subtitle}</span>}
              {id}
            </span>
          )
        }
        actions={
          !readOnly && (
            <>
              {!editing && canEdit && (
                <Button variant="secondary" onClick={onEdit}>
                  Edit
                </Button>
              )}
              <Button
                variant={archived ? "secondary" : "danger"}
                onClick={() => {
                  statusChange.reset();
                  setConfirming(true);
                }}
              >
                {archived ? "Unarchive" : "Archive"}
              </Button>
            </>
          )
        }
      />

      {archived && archivedNotice && (
        <InlineMessage tone="warning" className="mb-6" title={`This ${noun} is archived`}>
          {archivedNotice}
        </InlineMessage>
      )}

      <ConfirmDialog
        open={confirming}
        title={archived ? `Unarchive this ${noun}?` : `Archive this ${noun}?`}
        description={archived ? unarchiveText : archiveText}
        confirmLabel={archived ? `Unarchive ${noun}` : `Archive ${noun}`}
        tone={archived ? "primary" : "danger"}
        pending={statusChange.isPending}
        error={statusChange.error ? <EntityText text={statusChange.error.message} /> : undefined}
        onConfirm={changeStatus}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
