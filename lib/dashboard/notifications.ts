/**
 * TanStack Query hooks for notifications: destinations (notification settings), the notification
 * log with each notification's delivery attempts and replays, and simulations with their runs.
 * Deliveries and simulation runs happen in the background worker, so the queries of things still
 * under way poll until they are final.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { EventType } from "../events/catalogue.ts";
import type { Notification, NotificationLog, NotificationReplay } from "../schemas/notification.ts";
import type {
  createNotificationSettingBody,
  NotificationSetting,
  updateNotificationSettingBody,
} from "../schemas/notification-setting.ts";
import type { CreateSimulationInput, Simulation, SimulationEvent, SimulationRun } from "../schemas/simulation.ts";
import type { SimulationType } from "../simulator/simulation-types.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useEntity, useList, useSave } from "./hooks.ts";

export type {
  EventType,
  Notification,
  NotificationLog,
  NotificationSetting,
  Simulation,
  SimulationEvent,
  SimulationRun,
  SimulationType,
};
export type CreateNotificationSettingInput = z.input<typeof createNotificationSettingBody>;
export type UpdateNotificationSettingInput = z.input<typeof updateNotificationSettingBody>;
export type TrafficSource = NotificationSetting["traffic_source"];

/** Delivered and failed notifications change no more (until replayed, as a new notification). */
export function isFinal(notification: Pick<Notification, "status">): boolean {
  return notification.status === "delivered" || notification.status === "failed";
}

/** Whether the API accepts a replay of this notification: a final one that is not a replay itself. */
export function canReplay(notification: Notification): boolean {
  return isFinal(notification) && notification.origin === "event";
}

/** How often something under way is fetched again. */
const POLL_MS = 1500;
/** How often the first page of the log looks for new notifications. */
const LOG_POLL_MS = 10_000;

export const notificationKeys = {
  eventTypes: ["event-types"] as const,
  settings: ["notification-settings"] as const,
  settingLists: ["notification-settings", "list"] as const,
  setting: (id: string) => ["notification-settings", "detail", id] as const,
  notifications: ["notifications"] as const,
  notificationLists: ["notifications", "list"] as const,
  notification: (id: string) => ["notifications", "detail", id] as const,
  logs: (id: string) => ["notifications", "detail", id, "logs"] as const,
  simulationTypes: ["simulation-types"] as const,
  simulations: ["simulations"] as const,
  simulationLists: ["simulations", "list"] as const,
  run: (simulationId: string, runId: string) => ["simulations", "detail", simulationId, "runs", runId] as const,
};

/** A catalogue that changes only with a new version of the service. */
function useCatalogueList<T>(key: readonly string[], path: string) {
  return useQuery({
    queryKey: key,
    queryFn: async () => (await api<{ data: T[] }>(path)).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useEventTypes() {
  return useCatalogueList<EventType>(notificationKeys.eventTypes, "/event-types");
}

export function useSimulationTypes() {
  return useCatalogueList<SimulationType>(notificationKeys.simulationTypes, "/simulation-types");
}

// Destinations

export function useNotificationSettings(params: ListParams, enabled = true) {
  return useList<NotificationSetting>(notificationKeys.settingLists, "/notification-settings", params, enabled);
}

export function useNotificationSetting(id: string) {
  return useEntity<NotificationSetting>(notificationKeys.setting(id), `/notification-settings/${enc(id)}`);
}

export function useCreateNotificationSetting() {
  return useSave(
    async (input: CreateNotificationSettingInput) =>
      (await api<EntityResponse<NotificationSetting>>("/notification-settings", { method: "POST", body: input })).data,
    () => [notificationKeys.settingLists],
    (setting) => notificationKeys.setting(setting.id),
  );
}

/** Edits, switches on or off, or rotates the secret of a destination. */
export function useUpdateNotificationSetting() {
  return useSave(
    async ({ id, input }: { id: string; input: UpdateNotificationSettingInput }) =>
      (
        await api<EntityResponse<NotificationSetting>>(`/notification-settings/${enc(id)}`, {
          method: "PATCH",
          body: input,
        })
      ).data,
    () => [notificationKeys.settingLists],
    (setting) => notificationKeys.setting(setting.id),
  );
}

/** Deletes a destination (its notifications go with it). */
export function useDeleteNotificationSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<null>(`/notification-settings/${enc(id)}`, { method: "DELETE" }),
    onSuccess: async (_, id) => {
      client.removeQueries({ queryKey: notificationKeys.setting(id) });
      await Promise.all([
        client.invalidateQueries({ queryKey: notificationKeys.settingLists }),
        client.invalidateQueries({ queryKey: notificationKeys.notifications }),
        client.invalidateQueries({ queryKey: notificationKeys.simulations }),
      ]);
    },
  });
}

// The log

/**
 * A page of the log, newest first. While a notification on it is still being delivered the page
 * is fetched again every moment; the first page also looks for new notifications now and then.
 */
export function useNotifications(params: ListParams) {
  return useList<Notification>(notificationKeys.notificationLists, "/notifications", params, true, (data) => {
    if (data?.data.some((notification) => !isFinal(notification))) return POLL_MS;
    return params.after ? false : LOG_POLL_MS;
  });
}

/** A notification, fetched again until its delivery is final. */
export function useNotification(id: string) {
  return useEntity<Notification>(notificationKeys.notification(id), `/notifications/${enc(id)}`, (data) =>
    data && isFinal(data) ? false : POLL_MS,
  );
}

/**
 * A notification's delivery attempts, newest first: fetched again while its delivery is under
 * way, and whenever the notification shows another attempt.
 */
export function useNotificationLogs(
  notification: Pick<Notification, "id" | "status" | "times_attempted">,
  params: ListParams,
) {
  const { id } = notification;
  return useList<NotificationLog>(
    [...notificationKeys.logs(id), notification.times_attempted],
    `/notifications/${enc(id)}/logs`,
    params,
    true,
    () => (isFinal(notification) ? false : POLL_MS),
  );
}

/** Sends a delivered or failed notification again, as a new notification. */
export function useReplayNotification(id: string) {
  return useSave(
    async () =>
      (await api<EntityResponse<NotificationReplay>>(`/notifications/${enc(id)}/replay`, { method: "POST" })).data,
    () => [notificationKeys.notificationLists, notificationKeys.notification(id)],
  );
}

/** "Retry now" (ours): the next attempt of a notification waiting for its retry, queued at once. */
export function useRetryNotificationNow(id: string) {
  return useSave(
    async () => (await api<EntityResponse<Notification>>(`/notifications/${enc(id)}/retry`, { method: "POST" })).data,
    () => [notificationKeys.notificationLists, notificationKeys.notification(id)],
  );
}

// Simulations

export function useSimulations(params: ListParams) {
  return useList<Simulation>(notificationKeys.simulationLists, "/simulations", params);
}

export function useCreateSimulation() {
  return useSave(
    async (input: CreateSimulationInput) =>
      (await api<EntityResponse<Simulation>>("/simulations", { method: "POST", body: input })).data,
    () => [notificationKeys.simulationLists],
  );
}

/** Starts a run of a simulation; the worker sends its events shortly after. */
export function useStartSimulationRun() {
  return useSave(
    async (simulationId: string) =>
      (await api<EntityResponse<SimulationRun>>(`/simulations/${enc(simulationId)}/runs`, { method: "POST" })).data,
    () => [notificationKeys.simulationLists],
  );
}

/** A run with its events, fetched again until it is no longer pending. */
export function useSimulationRun(simulationId: string, runId: string) {
  return useEntity<SimulationRun>(
    notificationKeys.run(simulationId, runId),
    `/simulations/${enc(simulationId)}/runs/${enc(runId)}?include=events`,
    (data) => (data && data.status !== "pending" ? false : POLL_MS),
  );
}
