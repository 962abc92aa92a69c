"use client";

import { ButtonLink } from "@/components/button";
import { ExportLink } from "@/components/export-link";
import { ListFilters, PagedTable, PER_PAGE, useListFilters } from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusFilter } from "@/components/status-filter";
import { humanize } from "@/lib/dashboard/display";
import { useNotifications } from "@/lib/dashboard/notifications";
import { NOTIFICATION_STATUSES } from "@/lib/schemas/notification";
import { useDestinations } from "../destination-text";
import { notificationColumns } from "../notification-columns";

const STATUS_OPTIONS = [
  { value: "", label: "All" },
  ...NOTIFICATION_STATUSES.map((status) => ({ value: status, label: humanize(status) })),
];

/** A customer, transaction or subscription ID: the log's `filter` (notifications that contain it). */
const ENTITY_FILTER = /^(ctm|txn|sub)_[a-z0-9]{26}$/;

/** `?destination=ntfset_…` shows one destination's notifications (the link on its page). */
export function LogView() {
  const { status, setStatus, search, setSearch, params, setFilters, pagination } = useListFilters("");
  const destination = params.get("destination") ?? "";
  const destinations = useDestinations();
  const entity = ENTITY_FILTER.test(search);
  const listParams = {
    notification_setting_id: destination,
    status,
    search: entity ? undefined : search,
    filter: entity ? search : undefined,
    after: pagination.after,
    per_page: PER_PAGE,
  };
  const list = useNotifications(listParams);
  const filtered = search !== "" || status !== "" || destination !== "";

  const setDestination = (value: string) => setFilters({ destination: value || undefined });

  const destinationOptions = [
    { value: "", label: "All destinations" },
    ...destinations.destinations.map((d) => ({ value: d.id, label: d.description })),
  ];
  // A destination named in the address that is not in the list (deleted, or beyond its first page).
  if (destination && !destinations.byId.has(destination))
    destinationOptions.push({ value: destination, label: destination });

  return (
    <div>
      <PageHeader
        actions={<ExportLink list="notifications" params={listParams} />}
        title="Notification log"
        description="Every notification sent to your destinations in the last 90 days, newest first. Open one to see its payload and each delivery attempt, or to send it again."
      />

      <ListFilters
        search={{
          label: "Search notifications",
          placeholder: "ID, event type, or a ctm_/txn_/sub_ ID",
          initialValue: search,
          onSearch: setSearch,
        }}
        filters={
          <StatusFilter
            label="Destination"
            value={destination}
            options={destinationOptions}
            onChange={setDestination}
            selectClassName="sm:max-w-xs"
          />
        }
        status={status}
        options={STATUS_OPTIONS}
        onStatus={setStatus}
      />

      <PagedTable
        caption="Notifications"
        columns={notificationColumns(destinations.byId)}
        rowKey={(n) => n.id}
        list={list}
        pagination={pagination}
        empty={
          filtered ? (
            <EmptyState
              title="No notifications match"
              description={
                search
                  ? `Nothing matches “${search}” with these filters.`
                  : "No notifications have this status or destination."
              }
            />
          ) : (
            <EmptyState
              title="No notifications yet"
              description="A notification is made for each event a destination subscribes to. Add a destination, then create or change something: a customer, say."
              action={
                destinations.destinations.length === 0 && (
                  <ButtonLink variant="secondary" href="/notifications/destinations">
                    Go to destinations
                  </ButtonLink>
                )
              }
            />
          )
        }
      />
    </div>
  );
}
