"use client";

import Link from "next/link";
import { Button } from "@/components/button";
import type { Column } from "@/components/data-table";
import { ExportLink } from "@/components/export-link";
import {
  createdColumn,
  createdToast,
  ListFilters,
  PagedTable,
  PanelSection,
  PER_PAGE,
  useListFilters,
  usePanel,
} from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { pluralize } from "@/lib/dashboard/display";
import {
  type NotificationSetting,
  useCreateNotificationSetting,
  useNotificationSettings,
} from "@/lib/dashboard/notifications";
import { Allowed } from "@/lib/dashboard/permissions";
import { MAX_ACTIVE_NOTIFICATION_SETTINGS } from "@/lib/schemas/notification-setting";
import { destinationPath, TRAFFIC_SOURCE_LABELS } from "../destination-text";
import { DestinationForm } from "./destination-form";
import { useActiveSwitch } from "./use-active-switch";

const ACTIVE_OPTIONS = [
  { value: "", label: "All" },
  { value: "true", label: "Active" },
  { value: "false", label: "Inactive" },
] as const;

const COLUMNS: Column<NotificationSetting>[] = [
  {
    key: "description",
    header: "Destination",
    cell: (d) => (
      <div className="max-w-72">
        <Link href={destinationPath(d.id)} className="font-medium text-brand-700 hover:underline">
          {d.description}
        </Link>
        <p className="text-xs text-slate-500">{TRAFFIC_SOURCE_LABELS[d.traffic_source]}</p>
      </div>
    ),
  },
  {
    key: "url",
    header: "URL",
    cell: (d) => (
      <code className="block max-w-80 truncate font-mono text-xs text-slate-700" title={d.destination}>
        {d.destination}
      </code>
    ),
  },
  {
    key: "status",
    header: "Status",
    cell: (d) => <StatusBadge status={d.active ? "active" : "inactive"} />,
  },
  {
    key: "events",
    header: "Events",
    className: "whitespace-nowrap",
    cell: (d) => (
      <span title={d.subscribed_events.map((e) => e.name).join("\n")}>
        {pluralize(d.subscribed_events.length, "event")}
      </span>
    ),
  },
  createdColumn(),
];

export function DestinationsView() {
  const { status, setStatus, orderBy, order, pagination } = useListFilters("");
  const panel = usePanel();
  const toast = useToast();
  const create = useCreateNotificationSetting();
  const activeSwitch = useActiveSwitch();
  const listParams = { active: status, after: pagination.after, per_page: PER_PAGE, order_by: orderBy };
  const list = useNotificationSettings(listParams);

  const actions: Column<NotificationSetting> = {
    key: "actions",
    header: "",
    srHeader: "Actions",
    className: "text-right whitespace-nowrap",
    cell: (d) => (
      <Allowed permission="notification_setting.write" action="activate or deactivate destinations">
        <Button
          variant="ghost"
          size="sm"
          onClick={() => activeSwitch.toggle(d)}
          disabled={activeSwitch.pendingId === d.id}
          aria-label={`${d.active ? "Deactivate" : "Activate"} ${d.description}`}
        >
          {d.active ? "Deactivate" : "Activate"}
        </Button>
      </Allowed>
    ),
  };

  return (
    <div>
      <PageHeader
        title="Destinations"
        description={`Your endpoints that receive a signed HTTP POST for each event they subscribe to. Up to ${MAX_ACTIVE_NOTIFICATION_SETTINGS} can be active at once.`}
        actions={
          <>
            <ExportLink list="notification-settings" params={listParams} />
            {
              <Allowed permission="notification_setting.write" action="create destinations">
                {panel.newButton("New destination", true)}
              </Allowed>
            }
          </>
        }
      />

      {panel.editing && (
        <PanelSection id={panel.id} title="New destination">
          <DestinationForm
            onSubmit={(body) => create.mutateAsync(body)}
            onSaved={(destination) => {
              panel.close();
              pagination.reset();
              if (destination) {
                toast.show(
                  createdToast(
                    "Destination",
                    destinationPath(destination.id),
                    destination.description,
                    " Its signing secret is on its page.",
                  ),
                );
              }
            }}
            onCancel={panel.close}
          />
        </PanelSection>
      )}

      <ListFilters status={status} options={ACTIVE_OPTIONS} onStatus={setStatus} />

      <PagedTable
        caption="Destinations"
        columns={[...COLUMNS, actions]}
        rowKey={(d) => d.id}
        list={list}
        pagination={pagination}
        order={order}
        empty={
          status ? (
            <EmptyState title={`No ${status === "true" ? "active" : "inactive"} destinations`} />
          ) : (
            <EmptyState
              title="No destinations yet"
              description="Add the URL of an endpoint of yours and choose the events it receives: a customer created, a transaction completed…"
              action={
                !panel.editing && (
                  <Allowed permission="notification_setting.write" action="create destinations">
                    {panel.newButton("New destination", false)}
                  </Allowed>
                )
              }
            />
          )
        }
      />
    </div>
  );
}
