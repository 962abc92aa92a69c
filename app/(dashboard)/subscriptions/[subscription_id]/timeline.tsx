"use client";

import Link from "next/link";
import { JsonBlock } from "@/components/description-list";
import { Section } from "@/components/page-header";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/states";
import { formatDateTime, humanize } from "@/lib/dashboard/display";
import { eventName } from "@/lib/dashboard/event-names";
import { useList } from "@/lib/dashboard/hooks";
import type { Subscription } from "@/lib/dashboard/subscriptions";
import type { TransactionWithIncludes } from "@/lib/dashboard/transactions";
import type { Event } from "@/lib/schemas/event";
import { Amount, TransactionStatusBadge, transactionPath } from "../../transactions/transaction-parts";
import { SubscriptionStatusBadge } from "../subscription-parts";

/** How many of each the timeline shows (the newest). */
export const TIMELINE_SIZE = 50;

type Entry =
  | { kind: "event"; at: string; id: string; event: Event }
  | { kind: "transaction"; at: string; id: string; transaction: TransactionWithIncludes };

/** What an event's payload says of the subscription at that moment: its status and scheduled change. */
function eventSummary(event: Event): { status?: Subscription["status"]; scheduled?: string | null } {
  const data = event.data as Partial<Subscription> | null;
  if (!data || typeof data !== "object") return {};
  const scheduled = data.scheduled_change
    ? `${humanize(data.scheduled_change.action)} scheduled for ${formatDateTime(data.scheduled_change.effective_at)}`
    : null;
  return { status: data.status, scheduled };
}

/**
 * The subscription's history, newest first: its events (GET /events?entity_id=, each with the
 * status it had right after) and its transactions (GET /transactions?subscription_id=), merged by
 * time. Transactions are the page's shared list query, so the test clock's new renewals appear.
 */
export function Timeline({
  sub,
  transactions,
}: {
  sub: Subscription;
  transactions: { data?: TransactionWithIncludes[]; isLoading: boolean; error: unknown; refetch: () => unknown };
}) {
  const events = useList<Event>(["events", "entity", sub.id, sub.updated_at], "/events", {
    entity_id: sub.id,
    per_page: TIMELINE_SIZE,
  });
  const loading = (events.isLoading && !events.data) || (transactions.isLoading && !transactions.data);
  const error = events.error ?? transactions.error;
  const entries: Entry[] = [
    ...(events.data?.data ?? []).map(
      (event): Entry => ({ kind: "event", at: event.occurred_at, id: event.event_id, event }),
    ),
    ...(transactions.data ?? []).map(
      (transaction): Entry => ({
        kind: "transaction",
        at: transaction.billed_at ?? transaction.created_at,
        id: transaction.id,
        transaction,
      }),
    ),
  ].sort((a, b) => (a.at === b.at ? b.id.localeCompare(a.id) : b.at.localeCompare(a.at)));

  return (
    <Section
      title="Timeline"
      description={`What happened to this subscription, newest first: its events (with the status after each) and its transactions (the latest ${TIMELINE_SIZE} of each).`}
    >
      {loading ? (
        <LoadingBlock label="Loading the timeline…" lines={4} />
      ) : error && entries.length === 0 ? (
        <ErrorState
          error={error}
          title="Could not load the timeline"
          onRetry={() => {
            void events.refetch();
            void transactions.refetch();
          }}
        />
      ) : entries.length === 0 ? (
        <EmptyState title="Nothing yet" />
      ) : (
        <ol aria-label="Timeline" className="relative space-y-1 border-l border-slate-200 pl-4">
          {entries.map((entry) =>
            entry.kind === "event" ? (
              <EventEntry key={entry.id} event={entry.event} />
            ) : (
              <TransactionEntry key={entry.id} transaction={entry.transaction} />
            ),
          )}
        </ol>
      )}
    </Section>
  );
}

function Dot({ tone }: { tone: "slate" | "brand" }) {
  return (
    <span
      aria-hidden="true"
      className={`absolute top-3 -left-[1.3rem] h-2.5 w-2.5 rounded-full ring-2 ring-white ${tone === "brand" ? "bg-brand-600" : "bg-slate-400"}`}
    />
  );
}

function EventEntry({ event }: { event: Event }) {
  const summary = eventSummary(event);
  return (
    <li className="relative py-1">
      <Dot tone="slate" />
      <details className="group">
        <summary className="flex cursor-pointer flex-wrap items-center justify-between gap-2 rounded-md px-1 py-1 hover:bg-slate-50">
          <span className="flex flex-wrap items-center gap-2">
            <span className="text-sm font-medium text-slate-900" title={event.event_type}>
              {eventName(event.event_type)}
            </span>
            {summary.status && <SubscriptionStatusBadge status={summary.status} />}
            {summary.scheduled && <span className="text-xs text-amber-800">{summary.scheduled}</span>}
            <span className="sr-only">, payload</span>
          </span>
          <time dateTime={event.occurred_at} className="text-sm text-slate-600">
            {formatDateTime(event.occurred_at)}
          </time>
        </summary>
        <div className="mt-2">
          <JsonBlock value={event.data} tall />
        </div>
      </details>
    </li>
  );
}

function TransactionEntry({ transaction: t }: { transaction: TransactionWithIncludes }) {
  const at = t.billed_at ?? t.created_at;
  return (
    <li className="relative py-1">
      <Dot tone="brand" />
      <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-brand-50/50 px-1 py-1">
        <span className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium text-slate-900">{humanize(t.origin)} transaction</span>
          <Link href={transactionPath(t.id)} className="text-brand-700 hover:underline">
            {t.invoice_number ?? <span className="font-mono text-xs">{t.id}</span>}
          </Link>
          <TransactionStatusBadge status={t.status} />
          <Amount amount={t.details.totals.grand_total} currency={t.currency_code} />
          {t.billing_period && (
            <span className="text-xs text-slate-500">
              for {formatDateTime(t.billing_period.starts_at)} – {formatDateTime(t.billing_period.ends_at)}
            </span>
          )}
        </span>
        <time dateTime={at} className="text-sm text-slate-600">
          {formatDateTime(at)}
        </time>
      </div>
    </li>
  );
}
