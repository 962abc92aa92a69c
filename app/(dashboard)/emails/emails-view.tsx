"use client";

import Link from "next/link";
import type { Column } from "@/components/data-table";
import { ListFilters, PagedTable, PER_PAGE, useListFilters } from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { formatDateTime, humanize } from "@/lib/dashboard/display";
import { type EmailSummary, TEMPLATE_LABELS, useEmails } from "@/lib/dashboard/emails";
import { EMAIL_STATUSES } from "@/lib/schemas/email";

const STATUS_OPTIONS = [
  { value: "", label: "All" },
  ...EMAIL_STATUSES.map((status) => ({ value: status, label: humanize(status) })),
];

/** `logged` is the sandbox's "kept, not sent": shown in blue, as information. */
export function EmailStatus({ status }: { status: EmailSummary["status"] }) {
  const tones = { sent: "green", failed: "red", pending: "amber", logged: "blue" } as const;
  return <StatusBadge status={status === "logged" ? "logged (not sent)" : status} tone={tones[status]} />;
}

const COLUMNS: Column<EmailSummary>[] = [
  {
    key: "subject",
    header: "Subject",
    // A floor on the width at a phone's width: the table scrolls inside its card instead.
    className: "min-w-48",
    cell: (e) => (
      <div>
        <Link href={`/emails/${e.id}`} className="font-medium text-brand-700 hover:underline">
          {e.subject}
        </Link>
        <p className="text-xs text-slate-600">{TEMPLATE_LABELS[e.template]}</p>
      </div>
    ),
  },
  { key: "to", header: "To", className: "min-w-48", cell: (e) => <span className="break-words">{e.to}</span> },
  {
    key: "event",
    header: "Event",
    className: "whitespace-nowrap",
    cell: (e) =>
      e.event_type ? (
        <span className="font-mono text-xs">{e.event_type}</span>
      ) : (
        <span className="text-slate-500">On request</span>
      ),
  },
  { key: "status", header: "Status", className: "whitespace-nowrap", cell: (e) => <EmailStatus status={e.status} /> },
  {
    key: "time",
    header: "Time",
    // Emails' IDs are time-ordered: the order by ID is the order by time.
    sortField: "id",
    className: "whitespace-nowrap",
    cell: (e) => <time dateTime={e.created_at}>{formatDateTime(e.created_at)}</time>,
  },
];

export function EmailsView() {
  const { status, setStatus, pagination, orderBy, order } = useListFilters("");
  const list = useEmails({
    status: status || undefined,
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: orderBy,
  });
  return (
    <div>
      <PageHeader
        title="Emails"
        description="Every email sent to your customers (invoices, receipts, failed payments, trial and cancellation notices, portal links) and to your email notification destinations, newest first. Without an SMTP server (SMTP_URL) they are kept here and not sent."
      />
      <ListFilters status={status} options={STATUS_OPTIONS} onStatus={setStatus} />
      <PagedTable
        caption="Emails"
        columns={COLUMNS}
        rowKey={(e) => e.id}
        list={list}
        pagination={pagination}
        order={order}
        empty={
          status ? (
            <EmptyState title="No emails match" description="No email has this status." />
          ) : (
            <EmptyState
              title="No emails yet"
              description="Issue an invoice to a customer, or take a payment, and its email appears here."
            />
          )
        }
      />
    </div>
  );
}
