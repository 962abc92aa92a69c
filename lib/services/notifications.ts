/**
 * Notifications: one event for one destination, created by the fan-out trigger on `events` (see
 * the migration `notifications`) and delivered by lib/events/delivery.ts. Here they are read, their
 * delivery attempts listed, finished ones replayed, and one waiting for its next retry retried now.
 */
import { config } from "../config.ts";
import { NOTIFICATION, NOTIFICATION_LOG } from "../db/entities/notification.ts";
import {
  forgetTotals,
  getJson,
  type JsonPage,
  listJson,
  Params,
  query,
  type RawJson,
  sqlTransaction,
} from "../db/sql.ts";
import { ApiError, notFound } from "../errors.ts";
import { EVENT_TYPES, readableEventTypes } from "../events/catalogue.ts";
import { queueDeliverySql } from "../events/jobs/deliver-notification.ts";
import type {
  ListNotificationLogsQuery,
  ListNotificationsQuery,
  Notification,
  NotificationReplay,
} from "../schemas/notification.ts";
import { assertEventTypesVisible, visibleEventTypesSql } from "./event-visibility.ts";

/**
 * Notifications are kept for config.webhooks.retentionDays (90) days after they were created: older
 * ones are gone for the API even before the purge job deletes them.
 */
function retained(alias: string): string {
  const days = Math.trunc(config.webhooks.retentionDays);
  return `${alias}.created_at > now() - make_interval(days => ${days})`;
}

/**
 * A notification carries its event's entity: it is shown only to callers that may read that entity
 * (lib/services/event-visibility.ts). Lists leave the others out; one asked for by ID is 403.
 */
export async function getNotification(id: string, held: ReadonlySet<string>): Promise<RawJson<Notification>> {
  if (readableEventTypes(held).length < EVENT_TYPES.length) await assertNotificationVisible(id, held);
  const notification = await getJson(NOTIFICATION, `t.id = $1 AND ${retained("t")}`, [id]);
  if (!notification) throw notFound(id);
  return notification;
}

/** `%term%` for LIKE, with LIKE's own wildcards in `term` matched literally. */
function containing(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function listNotifications(query: ListNotificationsQuery, held: ReadonlySet<string>): Promise<JsonPage> {
  const params = new Params();
  const filters = [retained("t")];
  const visible = visibleEventTypesSql("t.type", held, params);
  if (visible) filters.push(visible);
  if (query.notification_setting_id)
    filters.push(params.oneOf("t.notification_setting_id", query.notification_setting_id));
  if (query.status) filters.push(params.oneOf("t.status", query.status));
  const term = query.search?.trim();
  // `search` matches the ID exactly or the event type in part, without regard to case.
  if (term) filters.push(`(t.id = ${params.add(term)} OR t.type ILIKE ${params.add(containing(term))})`);
  // The entity IDs the payload names (GIN index): the event's entity, its customer, transaction, subscription.
  if (query.filter) filters.push(`t.entity_ids @> ARRAY[${params.add(query.filter)}::text]`);
  if (query.from) filters.push(`t.occurred_at >= ${params.add(query.from)}::timestamptz`);
  if (query.to) filters.push(`t.occurred_at < ${params.add(query.to)}::timestamptz`);
  return listJson(NOTIFICATION, {
    filters,
    params,
    orderBy: query.order_by,
    after: query.after,
    perPage: query.per_page,
  });
}

/** 404 for an unknown (or purged) notification, 403 for one whose event `held` may not see. */
async function assertNotificationVisible(id: string, held: ReadonlySet<string>): Promise<void> {
  const [row] = await query<{ type: string }>(
    `SELECT t.type FROM notifications t WHERE t.id = $1 AND ${retained("t")}`,
    [id],
  );
  if (!row) throw notFound(id);
  assertEventTypesVisible([row.type], held);
}

/**
 * The delivery attempts of a notification, newest first: part of the notification, so shown to
 * those who may see it (the receiver's answers can echo the payload).
 */
export async function listNotificationLogs(
  id: string,
  query: ListNotificationLogsQuery,
  held: ReadonlySet<string>,
): Promise<JsonPage> {
  await assertNotificationVisible(id, held);
  const params = new Params();
  return listJson(NOTIFICATION_LOG, {
    filters: [`t.notification_id = ${params.add(id)}`],
    params,
    orderBy: { field: "id", direction: "desc" },
    after: query.after,
    perPage: query.per_page,
  });
}

/**
 * Delivers a notification waiting for its next retry (`needs_retry`) now instead of at `retry_at`
 * (ours: the dashboard's "Retry now"). The attempt is queued at once with the next attempt number;
 * the one queued for later then finds its attempt made and does nothing (delivery.ts), so the
 * schedule carries on from this attempt. Anything else is refused: a notification not attempted yet
 * is about to be, and a finished one is replayed instead.
 */
export async function retryNotificationNow(id: string, held: ReadonlySet<string>): Promise<RawJson<Notification>> {
  if (readableEventTypes(held).length < EVENT_TYPES.length) await assertNotificationVisible(id, held);
  await sqlTransaction(async (client) => {
    const [row] = await query<{ status: string }>(
      `SELECT t.status FROM notifications t WHERE t.id = $1 AND ${retained("t")} FOR UPDATE`,
      [id],
      client,
    );
    if (!row) throw notFound(id);
    if (row.status !== "needs_retry") {
      throw new ApiError(
        "notification_cannot_retry",
        `Notification ${id} is ${row.status}: only a notification waiting for its next retry (needs_retry) can be retried now.`,
      );
    }
    await query(
      `UPDATE notifications n SET retry_at = now() WHERE n.id = $1 RETURNING ${queueDeliverySql("n")}`,
      [id],
      client,
    );
  });
  // Visible to the caller: checked above, before anything was queued.
  const notification = await getJson(NOTIFICATION, "t.id = $1", [id]);
  if (!notification) throw notFound(id);
  return notification;
}

/**
 * Sends a notification's event again to the same destination as a new notification (origin
 * `replay`), with the payload built afresh for the destination's current settings, and marks the
 * original replayed. Only a notification of an event whose delivery has finished can be replayed:
 * replaying one still being retried would race its own retries.
 */
export async function replayNotification(id: string): Promise<NotificationReplay> {
  const replayId = await sqlTransaction(async (client) => {
    const [original] = await query<{ origin: string; status: string }>(
      `SELECT t.origin, t.status FROM notifications t WHERE t.id = $1 AND ${retained("t")} FOR UPDATE`,
      [id],
      client,
    );
    if (!original) throw notFound(id);
    if (original.origin !== "event") {
      throw new ApiError(
        "notification_replay_invalid_origin_type",
        `Notification ${id} has origin ${original.origin}: only notifications with origin event can be replayed.`,
      );
    }
    if (original.status !== "delivered" && original.status !== "failed") {
      throw new ApiError(
        "notification_cannot_replay",
        `Notification ${id} is ${original.status}: only delivered or failed notifications can be replayed.`,
      );
    }
    const [created] = await query<{ id: string | null }>(
      `SELECT create_notification(n.notification_setting_id, n.event_id, 'replay') AS id FROM notifications n WHERE n.id = $1`,
      [id],
      client,
    );
    // create_notification gives null only when the event row is gone (events are never deleted).
    if (!created?.id) throw notFound(id);
    await query("UPDATE notifications SET replayed_at = now() WHERE id = $1", [id], client);
    return created.id;
  });
  forgetTotals("notifications");
  return { notification_id: replayId };
}
