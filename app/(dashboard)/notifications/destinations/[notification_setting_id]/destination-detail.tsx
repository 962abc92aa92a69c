"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ButtonLink } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { DescriptionList } from "@/components/description-list";
import { DetailLoader, EntityIdCopy } from "@/components/entity-detail";
import { PagedTable } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { useCursorPagination } from "@/components/pagination";
import { SecretValue } from "@/components/secret-value";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { formatDateTime } from "@/lib/dashboard/display";
import {
  type NotificationSetting,
  useDeleteNotificationSetting,
  useNotificationSetting,
  useNotifications,
  useUpdateNotificationSetting,
} from "@/lib/dashboard/notifications";
import { Allowed } from "@/lib/dashboard/permissions";
import { groupEventTypes, TRAFFIC_SOURCE_LABELS } from "../../destination-text";
import { notificationColumns } from "../../notification-columns";
import { DestinationForm } from "../destination-form";
import { useActiveSwitch } from "../use-active-switch";

const BACK = { href: "/notifications/destinations", label: "Destinations" };
const RECENT = 5;

export function DestinationDetail({ destinationId }: { destinationId: string }) {
  const destination = useNotificationSetting(destinationId);
  return (
    <DetailLoader query={destination} noun="destination" back={BACK}>
      {(data) => <DestinationPage key={data.id} destination={data} />}
    </DetailLoader>
  );
}

function DestinationPage({ destination }: { destination: NotificationSetting }) {
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<"delete" | "rotate" | null>(null);
  const update = useUpdateNotificationSetting();
  const rotate = useUpdateNotificationSetting();
  const remove = useDeleteNotificationSetting();
  const activeSwitch = useActiveSwitch();
  const toast = useToast();
  const router = useRouter();

  async function rotateSecret() {
    try {
      await rotate.mutateAsync({ id: destination.id, input: { rotate_endpoint_secret_key: true } });
      setConfirm(null);
      toast.show("Secret rotated. Deliveries from now on are signed with the new secret.");
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  async function deleteDestination() {
    try {
      await remove.mutateAsync(destination.id);
      setConfirm(null);
      toast.show(`Destination “${destination.description}” deleted.`);
      router.push(BACK.href);
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  return (
    <div>
      <PageHeader
        back={BACK}
        title={destination.description}
        badges={<StatusBadge status={destination.active ? "active" : "inactive"} />}
        description={<EntityIdCopy id={destination.id} noun="destination" />}
        actions={
          <>
            {!editing && (
              <Allowed permission="notification_setting.write" action="edit destinations">
                <Button variant="secondary" onClick={() => setEditing(true)}>
                  Edit
                </Button>
              </Allowed>
            )}
            {destination.traffic_source !== "platform" && (
              <Allowed permission="notification_simulation.write" action="send test events">
                <ButtonLink variant="secondary" href={`/notifications/simulator?destination=${destination.id}`}>
                  Send test event
                </ButtonLink>
              </Allowed>
            )}
            <Allowed permission="notification_setting.write" action="activate or deactivate destinations">
              <Button
                variant="secondary"
                onClick={() => activeSwitch.toggle(destination)}
                pending={activeSwitch.pendingId === destination.id}
                pendingLabel="Saving…"
              >
                {destination.active ? "Deactivate" : "Activate"}
              </Button>
            </Allowed>
            <Allowed permission="notification_setting.write" action="delete destinations">
              <Button
                variant="danger"
                onClick={() => {
                  remove.reset();
                  setConfirm("delete");
                }}
              >
                Delete
              </Button>
            </Allowed>
          </>
        }
      />

      <div className="space-y-6">
        <Section title="Details">
          {editing ? (
            <DestinationForm
              entity={destination}
              onSubmit={(input) => update.mutateAsync({ id: destination.id, input })}
              onSaved={(saved) => {
                setEditing(false);
                toast.show(saved ? "Destination saved." : "Nothing changed.", saved ? "success" : "info");
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <DescriptionList
              items={[
                {
                  term: destination.type === "email" ? "Email address" : "Endpoint URL",
                  value: <code className="font-mono text-xs break-all">{destination.destination}</code>,
                  wide: true,
                },
                { term: "Traffic source", value: TRAFFIC_SOURCE_LABELS[destination.traffic_source] },
                { term: "API version", value: `Version ${destination.api_version}` },
                {
                  term: "Sensitive fields",
                  value: destination.include_sensitive_fields ? "Included" : "Left out",
                },
                { term: "Created", value: formatDateTime(destination.created_at) },
                { term: "Updated", value: formatDateTime(destination.updated_at) },
                { term: "Events", value: <SubscribedEvents destination={destination} />, wide: true },
              ]}
            />
          )}
        </Section>

        <Section
          title="Signing secret"
          description={
            <>
              Each request carries a <code className="font-mono">Service-Signature</code> header,{" "}
              <code className="font-mono">ts=&lt;unix time&gt;;h1=&lt;HMAC-SHA256 of “ts:body”&gt;</code>, keyed with
              this secret: check it in your endpoint to know a request came from us.
            </>
          }
        >
          <p className="mb-1 text-xs font-medium tracking-wide text-slate-500 uppercase">Endpoint secret key</p>
          {destination.endpoint_secret_key === null ? (
            // The API shows the secret only to those who may manage destinations.
            <p className="text-sm text-slate-600">
              Hidden: only staff who can manage notification destinations can see or rotate it.
            </p>
          ) : (
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <SecretValue value={destination.endpoint_secret_key} label="endpoint secret key" />
              <Allowed permission="notification_setting.write" action="rotate secret keys">
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => {
                    rotate.reset();
                    setConfirm("rotate");
                  }}
                >
                  Rotate secret
                </Button>
              </Allowed>
            </div>
          )}
        </Section>

        <RecentNotifications destination={destination} />
      </div>

      <ConfirmDialog
        open={confirm === "rotate"}
        title="Rotate the signing secret?"
        description="A new secret replaces this one at once: deliveries from now on are signed with the new secret, and signatures made with the old one no longer match. Update your endpoint with the new secret."
        confirmLabel="Rotate secret"
        pending={rotate.isPending}
        error={rotate.error?.message}
        onConfirm={rotateSecret}
        onCancel={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={confirm === "delete"}
        title="Delete this destination?"
        description={
          <>
            <strong>{destination.description}</strong> stops receiving notifications at once, and its notification log
            and simulations are deleted with it. This cannot be undone; to pause deliveries instead, deactivate it.
          </>
        }
        confirmLabel="Delete destination"
        pending={remove.isPending}
        error={remove.error?.message}
        onConfirm={deleteDestination}
        onCancel={() => setConfirm(null)}
      />
    </div>
  );
}

/** The subscribed events by group. */
function SubscribedEvents({ destination }: { destination: NotificationSetting }) {
  if (destination.subscribed_events.length === 0) return <span className="text-slate-500">None</span>;
  return (
    <ul className="space-y-1.5">
      {groupEventTypes(destination.subscribed_events).map(({ group, events }) => (
        <li key={group} className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <span className="w-32 shrink-0 text-sm font-medium text-slate-700">{group}</span>
          {events.map((event) => (
            <code
              key={event.name}
              title={event.description}
              className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700"
            >
              {event.name}
            </code>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** The destination's latest notifications, and the way to the whole log filtered to it. */
function RecentNotifications({ destination }: { destination: NotificationSetting }) {
  const pagination = useCursorPagination();
  const list = useNotifications({
    notification_setting_id: destination.id,
    after: pagination.after,
    per_page: RECENT,
  });
  return (
    <Section
      title="Recent notifications"
      actions={
        <ButtonLink variant="secondary" href={`/notifications/log?destination=${destination.id}`}>
          Open in the log
        </ButtonLink>
      }
    >
      <PagedTable
        caption="Recent notifications"
        columns={notificationColumns()}
        rowKey={(n) => n.id}
        list={list}
        pagination={pagination}
        skeletonRows={2}
        empty={
          <EmptyState
            title="No notifications yet"
            description={
              destination.active
                ? "One appears here for each subscribed event from now on."
                : "This destination is inactive: activate it to receive notifications."
            }
          />
        }
      />
    </Section>
  );
}
