"use client";

import Link from "next/link";
import type { Column } from "@/components/data-table";
import { StatusBadge } from "@/components/status-badge";
import { formatDateTime } from "@/lib/dashboard/display";
import type { Notification, NotificationSetting } from "@/lib/dashboard/notifications";
import { destinationPath, notificationPath } from "./destination-text";

/** A time in full (a log is read by the minute), or a dash. */
export function DateTimeCell({ value }: { value: string | null }) {
  return value ? <time dateTime={value}>{formatDateTime(value)}</time> : <span className="text-slate-500">—</span>;
}

/** A notification's status, with when it is tried again while it waits for a retry. */
export function NotificationStatus({ notification }: { notification: Notification }) {
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <StatusBadge status={notification.status} />
      {notification.status === "needs_retry" && notification.retry_at && (
        <span className="text-xs text-slate-500">Next try {formatDateTime(notification.retry_at)}</span>
      )}
    </span>
  );
}

/** The HTTP status a request got: green for 2xx, red otherwise; none when the request failed. */
export function ResponseCode({ code }: { code: number | null | undefined }) {
  if (code === null || code === undefined) return <span className="text-slate-500">No response</span>;
  return <StatusBadge status={String(code)} tone={code >= 200 && code < 300 ? "green" : "red"} />;
}

/** A replayed notification's mark beside its event type. */
export function ReplayBadge({ notification }: { notification: Notification }) {
  return notification.origin === "replay" ? <StatusBadge status="replay" tone="blue" /> : null;
}

/**
 * The columns of a table of notifications: the event (a link to the notification), its status,
 * its destination (when `destinations` is given: the log shows several), attempts and when.
 */
export function notificationColumns(destinations?: Map<string, NotificationSetting>): Column<Notification>[] {
  const columns: Column<Notification>[] = [
    {
      key: "event",
      header: "Event",
      cell: (n) => (
        <div>
          <span className="inline-flex items-center gap-2">
            <Link
              href={notificationPath(n.id)}
              className="font-mono text-xs font-medium text-brand-700 hover:underline"
            >
              {n.type}
            </Link>
            <ReplayBadge notification={n} />
          </span>
          <p className="font-mono text-xs text-slate-500">{n.id}</p>
        </div>
      ),
    },
    { key: "status", header: "Status", cell: (n) => <NotificationStatus notification={n} /> },
  ];
  if (destinations) {
    columns.push({
      key: "destination",
      header: "Destination",
      cell: (n) => (
        <Link href={destinationPath(n.notification_setting_id)} className="text-brand-700 hover:underline">
          {destinations.get(n.notification_setting_id)?.description ?? (
            <code className="font-mono text-xs">{n.notification_setting_id}</code>
          )}
        </Link>
      ),
    });
  }
  columns.push(
    { key: "attempts", header: "Attempts", className: "text-right", cell: (n) => n.times_attempted },
    {
      key: "occurred",
      header: "Occurred",
      className: "whitespace-nowrap",
      cell: (n) => <DateTimeCell value={n.occurred_at} />,
    },
  );
  return columns;
}
