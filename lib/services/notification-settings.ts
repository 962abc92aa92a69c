/**
 * Notification settings (destinations): where notifications of events are sent. The API family has
 * no events about destinations themselves, so these writes emit none.
 */
import type pg from "pg";
import { z } from "zod";
import { NOTIFICATION_SETTING, notificationSettingFor } from "../db/entities/notification-setting.ts";
import {
  deleteRows,
  forgetTotals,
  getJson,
  insertJson,
  type JsonPage,
  listJson,
  Params,
  query,
  type RawJson,
  sqlTransaction,
  updateJson,
} from "../db/sql.ts";
import { ApiError, invalidField, notFound } from "../errors.ts";
import { destinationAddressProblem } from "../events/destination.ts";
import { requeuePendingNotifications } from "../events/jobs/deliver-notification.ts";
import { newEndpointSecretKey } from "../events/signature.ts";
import { newId } from "../ids.ts";
import {
  type CreateNotificationSettingInput,
  type ListNotificationSettingsQuery,
  MAX_ACTIVE_NOTIFICATION_SETTINGS,
  type NotificationSetting,
  type UpdateNotificationSettingInput,
} from "../schemas/notification-setting.ts";

const emailAddress = z.email();

/**
 * Why `destination` cannot be used for a destination of `type`, or null. A URL must be http(s) and,
 * in live, resolve to public addresses only (lib/events/destination.ts); delivery checks again.
 */
async function destinationProblem(type: string, destination: string): Promise<string | null> {
  if (type === "email") return emailAddress.safeParse(destination).success ? null : "must be a valid email address";
  return destinationAddressProblem(destination);
}

async function checkDestination(type: string, destination: string): Promise<void> {
  const problem = await destinationProblem(type, destination);
  if (problem) throw invalidField("destination", problem);
}

/**
 * Serializes everything that can make a destination active (create, activate) for the rest of the
 * transaction, so that two requests cannot both take the last of the active slots. Taken before any
 * row lock, in every path, so that the lock order is always the same.
 */
async function lockActiveSlots(client: pg.PoolClient): Promise<void> {
  await query("SELECT pg_advisory_xact_lock(hashtext('notification_settings.active_limit'))", [], client);
}

/** Refuses when the active destinations are already at the maximum (call with lockActiveSlots held). */
async function assertActiveSlotFree(client: pg.PoolClient): Promise<void> {
  const [row] = await query<{ n: number }>(
    "SELECT count(*)::int AS n FROM notification_settings WHERE active",
    [],
    client,
  );
  if ((row?.n ?? 0) >= MAX_ACTIVE_NOTIFICATION_SETTINGS) {
    throw new ApiError(
      "notification_maximum_active_settings_reached",
      `At most ${MAX_ACTIVE_NOTIFICATION_SETTINGS} notification destinations can be active. Deactivate or delete one first.`,
    );
  }
}

export async function getNotificationSetting(id: string, showSecret: boolean): Promise<RawJson<NotificationSetting>> {
  const setting = await getJson(notificationSettingFor(showSecret), "t.id = $1", [id]);
  if (!setting) throw notFound(id);
  return setting;
}

export async function createNotificationSetting(
  input: CreateNotificationSettingInput,
): Promise<RawJson<NotificationSetting>> {
  // The address check may look up DNS: done before the transaction, which then holds no lock meanwhile.
  await checkDestination(input.type, input.destination);
  const columns = {
    id: newId("ntfset"),
    description: input.description,
    type: input.type,
    destination: input.destination,
    active: input.active,
    api_version: input.api_version,
    include_sensitive_fields: input.include_sensitive_fields,
    subscribed_events: input.subscribed_events,
    endpoint_secret_key: newEndpointSecretKey(),
    traffic_source: input.traffic_source,
  };
  if (!input.active) return insertJson(NOTIFICATION_SETTING, columns, null);
  return sqlTransaction(async (client) => {
    await lockActiveSlots(client);
    await assertActiveSlotFree(client);
    return insertJson(NOTIFICATION_SETTING, columns, null, client);
  });
}

export async function updateNotificationSetting(
  id: string,
  input: UpdateNotificationSettingInput,
): Promise<RawJson<NotificationSetting>> {
  if (input.destination !== undefined) {
    // The type cannot be changed, so it can be read outside the transaction.
    const [row] = await query<{ type: string }>("SELECT type FROM notification_settings WHERE id = $1", [id]);
    if (!row) throw notFound(id);
    await checkDestination(row.type, input.destination);
  }
  const columns = {
    description: input.description,
    destination: input.destination,
    active: input.active,
    api_version: input.api_version,
    include_sensitive_fields: input.include_sensitive_fields,
    subscribed_events: input.subscribed_events,
    traffic_source: input.traffic_source,
    endpoint_secret_key: input.rotate_endpoint_secret_key ? newEndpointSecretKey() : undefined,
  };
  const updated = await sqlTransaction(async (client) => {
    if (input.active === true) await lockActiveSlots(client);
    const [current] = await query<{ active: boolean }>(
      "SELECT active FROM notification_settings WHERE id = $1 FOR UPDATE",
      [id],
      client,
    );
    if (!current) return null;
    const activating = input.active === true && !current.active;
    if (activating) await assertActiveSlotFree(client);
    const setting = await updateJson(NOTIFICATION_SETTING, { sql: "t.id = $1", values: [id] }, columns, null, client);
    // The worker leaves an inactive destination's notifications pending: switched back on, they go out.
    if (activating) await requeuePendingNotifications(client, id);
    return setting;
  });
  if (!updated) throw notFound(id);
  return updated;
}

/** Deletes a destination with its notifications and their logs (ON DELETE CASCADE). */
export async function deleteNotificationSetting(id: string): Promise<void> {
  const deleted = await deleteRows(NOTIFICATION_SETTING, { sql: "t.id = $1", values: [id] });
  if (deleted.length === 0) throw notFound(id);
  forgetTotals("notifications");
  forgetTotals("notification_logs");
}

export function listNotificationSettings(query: ListNotificationSettingsQuery, showSecret: boolean): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (query.active !== undefined) filters.push(`t.active = ${params.add(query.active === "true")}`);
  if (query.traffic_source !== undefined) filters.push(`t.traffic_source = ${params.add(query.traffic_source)}`);
  return listJson(notificationSettingFor(showSecret), {
    filters,
    params,
    orderBy: query.order_by,
    after: query.after,
    perPage: query.per_page,
  });
}
