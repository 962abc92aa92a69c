"use client";

import { JsonBlock } from "@/components/description-list";
import { Section } from "@/components/page-header";
import { PaginationControls, useCursorPagination } from "@/components/pagination";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/states";
import { formatDateTime } from "@/lib/dashboard/display";
import { eventName } from "@/lib/dashboard/event-names";
import { useList } from "@/lib/dashboard/hooks";
import type { TransactionWithIncludes } from "@/lib/dashboard/transactions";
import type { Event } from "@/lib/schemas/event";

const PER_PAGE = 20;

/**
 * The events of a transaction (and of its adjustments), newest first, from GET /events?entity_id=.
 * Each shows its type and time; its payload (the entity as it was right after the change) opens
 * in a disclosure. The list is fetched again whenever the transaction changes (`updated_at`).
 */
export function EventHistory({ transaction: t }: { transaction: TransactionWithIncludes }) {
  const pagination = useCursorPagination();
  const adjustmentIds = (t.adjustments ?? []).map((a) => a.id).filter((id): id is string => typeof id === "string");
  const entityIds = [t.id, ...adjustmentIds].join(",");
  const list = useList<Event>(["events", "entity", t.id, t.updated_at, entityIds], "/events", {
    entity_id: entityIds,
    per_page: PER_PAGE,
    after: pagination.after,
  });
  const events = list.data?.data;

  return (
    <Section
      title="Event history"
      description="Every change to this transaction as notification destinations receive it, newest first."
    >
      {list.isLoading && !events ? (
        <LoadingBlock label="Loading events…" lines={3} />
      ) : list.error && !events ? (
        <ErrorState error={list.error} title="Could not load the events" onRetry={() => list.refetch()} />
      ) : !events || events.length === 0 ? (
        <EmptyState title="No events yet" />
      ) : (
        <>
          <ol aria-label="Events" className="divide-y divide-slate-100">
            {events.map((event) => (
              <li key={event.event_id} className="py-2">
                <details className="group">
                  <summary className="flex cursor-pointer flex-wrap items-center justify-between gap-2 rounded-md px-1 py-1 hover:bg-slate-50">
                    <span className="flex items-center gap-2">
                      <span aria-hidden="true" className="text-slate-500 transition-transform group-open:rotate-90">
                        ▸
                      </span>
                      <span className="text-sm font-medium text-slate-900" title={event.event_type}>
                        {eventName(event.event_type)}
                      </span>
                      <span className="sr-only">, payload</span>
                    </span>
                    <span className="flex items-center gap-3 text-sm text-slate-600">
                      <time dateTime={event.occurred_at}>{formatDateTime(event.occurred_at)}</time>
                      <code className="hidden font-mono text-xs text-slate-500 sm:inline">{event.event_id}</code>
                    </span>
                  </summary>
                  <div className="mt-2 pl-6">
                    <JsonBlock value={event.data} tall />
                  </div>
                </details>
              </li>
            ))}
          </ol>
          <PaginationControls
            label="Event history pages"
            pagination={pagination}
            meta={list.data?.meta.pagination}
            shown={events.length}
            disabled={list.isFetching}
          />
        </>
      )}
    </Section>
  );
}
