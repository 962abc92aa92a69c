"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import type { Column } from "@/components/data-table";
import { BodyBlock, DescriptionList, JsonBlock } from "@/components/description-list";
import { DetailLoader, EntityIdCopy } from "@/components/entity-detail";
import { PagedTable } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { useCursorPagination } from "@/components/pagination";
import { EmptyState } from "@/components/states";
import { InlineMessage, useToast } from "@/components/toast";
import { humanize } from "@/lib/dashboard/display";
import {
  canReplay,
  isFinal,
  type Notification,
  type NotificationLog,
  useNotification,
  useNotificationLogs,
  useNotificationSetting,
  useReplayNotification,
  useRetryNotificationNow,
} from "@/lib/dashboard/notifications";
import { Allowed } from "@/lib/dashboard/permissions";
import { destinationPath, notificationPath } from "../../destination-text";
import { DateTimeCell, NotificationStatus, ReplayBadge, ResponseCode } from "../../notification-columns";

const BACK = { href: "/notifications/log", label: "Notification log" };
const ATTEMPTS_PER_PAGE = 10;

export function NotificationDetail({ notificationId }: { notificationId: string }) {
  const notification = useNotification(notificationId);
  return (
    <DetailLoader query={notification} noun="notification" back={BACK}>
      {(data) => <NotificationPage key={data.id} notification={data} />}
    </DetailLoader>
  );
}

/** The attempts' columns; an email destination's attempt is an SMTP send (no code: kept in the Emails log). */
const attemptColumns = (byEmail: boolean): Column<NotificationLog>[] => [
  {
    key: "attempted",
    header: "Attempted",
    className: "whitespace-nowrap",
    cell: (log) => <DateTimeCell value={log.attempted_at} />,
  },
  {
    key: "code",
    header: byEmail ? "SMTP reply" : "Status code",
    cell: (log) =>
      byEmail && log.response_code === null && !log.error ? (
        <span className="text-slate-600">Kept in the Emails log</span>
      ) : (
        <ResponseCode code={log.response_code} />
      ),
  },
  {
    key: "duration",
    header: "Duration",
    className: "whitespace-nowrap text-right",
    cell: (log) => `${log.duration_ms.toLocaleString()} ms`,
  },
  {
    key: "error",
    header: "Error",
    cell: (log) =>
      log.error ? <span className="text-red-700">{log.error}</span> : <span className="text-slate-500">—</span>,
  },
  {
    key: "body",
    header: "Response body",
    className: "w-2/5",
    cell: (log) =>
      log.response_body === null ? (
        <span className="text-slate-500">—</span>
      ) : (
        <details>
          <summary className="cursor-pointer text-sm text-brand-700">
            Show body
            {log.response_content_type && (
              <span className="ml-1 font-mono text-xs text-slate-500">({log.response_content_type})</span>
            )}
          </summary>
          <div className="mt-2">
            <BodyBlock body={log.response_body} />
          </div>
        </details>
      ),
  },
];

function NotificationPage({ notification }: { notification: Notification }) {
  const [confirming, setConfirming] = useState(false);
  const [replayedAs, setReplayedAs] = useState<string | null>(null);
  const replay = useReplayNotification(notification.id);
  const retryNow = useRetryNotificationNow(notification.id);
  const destination = useNotificationSetting(notification.notification_setting_id);
  const toast = useToast();
  const final = isFinal(notification);

  async function confirmReplay() {
    try {
      const result = await replay.mutateAsync();
      setConfirming(false);
      setReplayedAs(result.notification_id);
      toast.show("Replay queued as a new notification.");
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  async function retry() {
    try {
      await retryNow.mutateAsync();
      toast.show("The next attempt is on its way.");
    } catch (error) {
      toast.show((error as Error).message, "error");
    }
  }

  const destinationName = destination.data?.description ?? notification.notification_setting_id;
  // An email destination's notification is delivered as an email (lib/services/emails/notification-emails.ts).
  const byEmail = destination.data?.type === "email";

  return (
    <div>
      <PageHeader
        back={BACK}
        title={<span className="font-mono text-xl">{notification.type}</span>}
        badges={
          <>
            <NotificationStatus notification={notification} />
            <ReplayBadge notification={notification} />
          </>
        }
        description={<EntityIdCopy id={notification.id} noun="notification" />}
        actions={
          notification.status === "needs_retry" ? (
            <Allowed permission="notification.write" action="retry notifications">
              <Button variant="secondary" onClick={retry} disabled={retryNow.isPending}>
                {retryNow.isPending ? "Retrying…" : "Retry now"}
              </Button>
            </Allowed>
          ) : (
            canReplay(notification) && (
              <Allowed permission="notification.write" action="replay notifications">
                <Button
                  variant="secondary"
                  onClick={() => {
                    replay.reset();
                    setConfirming(true);
                  }}
                >
                  Replay
                </Button>
              </Allowed>
            )
          )
        }
      />

      {replayedAs && (
        <InlineMessage tone="success" className="mb-6" title="Replayed">
          The event is being sent again as notification{" "}
          <Link href={notificationPath(replayedAs)} className="font-mono font-medium underline">
            {replayedAs}
          </Link>
          .
        </InlineMessage>
      )}

      {!final && (
        <p role="status" className="mb-4 text-sm text-slate-600">
          {notification.status === "needs_retry"
            ? "The last attempt failed; another is scheduled. This page updates by itself."
            : "Delivery is under way. This page updates by itself."}
        </p>
      )}

      <div className="space-y-6">
        <Section title="Delivery">
          <DescriptionList
            items={[
              {
                term: "Destination",
                value: (
                  <Link
                    href={destinationPath(notification.notification_setting_id)}
                    className="text-brand-700 hover:underline"
                  >
                    {destinationName}
                  </Link>
                ),
              },
              { term: "Origin", value: humanize(notification.origin) },
              { term: "Occurred", value: <DateTimeCell value={notification.occurred_at} /> },
              { term: "Attempts", value: notification.times_attempted },
              { term: "Last attempt", value: <DateTimeCell value={notification.last_attempt_at} /> },
              { term: "Delivered", value: <DateTimeCell value={notification.delivered_at} /> },
              ...(notification.retry_at
                ? [{ term: "Next attempt", value: <DateTimeCell value={notification.retry_at} /> }]
                : []),
              ...(notification.replayed_at
                ? [{ term: "Replayed", value: <DateTimeCell value={notification.replayed_at} /> }]
                : []),
              {
                term: "Event ID",
                value: <code className="font-mono text-xs">{String(notification.payload.event_id)}</code>,
              },
            ]}
          />
        </Section>

        <Section
          title="Payload"
          description={
            byEmail ? (
              <>
                The event the email describes, sent to <strong>{destination.data?.destination}</strong>. The email
                itself is on the{" "}
                <Link href="/emails" className="text-brand-700 underline">
                  Emails
                </Link>{" "}
                page.
              </>
            ) : (
              <>
                The JSON body of each request, signed in its <code className="font-mono">Service-Signature</code>{" "}
                header.
              </>
            )
          }
        >
          <JsonBlock value={notification.payload} tall />
        </Section>

        <Attempts notification={notification} byEmail={byEmail} />
      </div>

      <ConfirmDialog
        open={confirming}
        title="Replay this notification?"
        description={
          byEmail ? (
            <>
              The event is emailed to <strong>{destinationName}</strong> again, as a new notification with its own email
              and log.
            </>
          ) : (
            <>
              The event is sent to <strong>{destinationName}</strong> again, as a new notification with its own log.
              Your endpoint receives the same <code className="font-mono text-xs">event_id</code> a second time.
            </>
          )
        }
        confirmLabel="Replay notification"
        tone="primary"
        pending={replay.isPending}
        error={replay.error?.message}
        onConfirm={confirmReplay}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

/** Each delivery attempt, newest first, fetched again while the delivery is under way. */
function Attempts({ notification, byEmail }: { notification: Notification; byEmail: boolean }) {
  const pagination = useCursorPagination();
  const list = useNotificationLogs(notification, { after: pagination.after, per_page: ATTEMPTS_PER_PAGE });
  return (
    <Section
      title="Attempts"
      description={
        byEmail
          ? "What the SMTP server answered to each send (its reply code: 250 is accepted), newest first. Without an SMTP server the email is kept in the Emails log."
          : "What the endpoint answered to each request, newest first."
      }
    >
      <PagedTable
        caption="Attempts"
        columns={attemptColumns(byEmail)}
        rowKey={(log) => log.id}
        list={list}
        pagination={pagination}
        skeletonRows={2}
        empty={
          <EmptyState
            title="No attempts yet"
            description={
              notification.status === "not_attempted"
                ? "The first attempt is on its way."
                : "No attempt was recorded for this notification."
            }
          />
        }
      />
    </Section>
  );
}
