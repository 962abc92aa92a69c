/**
 * Words and groupings shared by the notifications pages: traffic sources, event types by group,
 * and destinations by ID (for the log and simulator filters, which name them).
 */
import { useMemo } from "react";
import {
  type EventType,
  type NotificationSetting,
  type TrafficSource,
  useNotificationSettings,
} from "@/lib/dashboard/notifications";

export const destinationPath = (id: string) => `/notifications/destinations/${id}`;
export const notificationPath = (id: string) => `/notifications/log/${id}`;

export const TRAFFIC_SOURCE_LABELS: Record<TrafficSource, string> = {
  platform: "Real events only",
  simulation: "Simulated events only",
  all: "Real and simulated events",
};

/** Event types by group, in the order the catalogue lists them. */
export function groupEventTypes(types: readonly EventType[]): { group: string; events: EventType[] }[] {
  const groups = new Map<string, EventType[]>();
  for (const type of types) groups.set(type.group, [...(groups.get(type.group) ?? []), type]);
  return [...groups].map(([group, events]) => ({ group, events }));
}

/** The most destinations the log and simulator offer in their pickers (the API's largest page). */
const PICKER_PAGE = 200;

/** Every destination (up to the largest page), and a lookup by ID. */
export function useDestinations() {
  const list = useNotificationSettings({ per_page: PICKER_PAGE });
  const destinations = list.data?.data;
  const byId = useMemo(
    () => new Map<string, NotificationSetting>((destinations ?? []).map((d) => [d.id, d])),
    [destinations],
  );
  return { list, destinations: destinations ?? [], byId };
}
