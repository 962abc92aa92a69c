import { z } from "zod";
import { csv, dateTime, entityId, listQuery } from "./common.ts";
import { notificationPayloadSchema } from "./event-payloads.ts";
import { perPageParam } from "./list-query.ts";

export const NOTIFICATION_STATUSES = ["not_attempted", "needs_retry", "delivered", "failed"] as const;
export const NOTIFICATION_ORIGINS = ["event", "replay"] as const;

/** The notification as the API returns it (spec: Notification), in the API family's field order. */
export const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  /** The envelope as sent: event_id, event_type, occurred_at, notification_id, data. */
  payload: notificationPayloadSchema,
  occurred_at: z.string(),
  delivered_at: z.string().nullable(),
  replayed_at: z.string().nullable(),
  origin: z.enum(NOTIFICATION_ORIGINS),
  last_attempt_at: z.string().nullable(),
  retry_at: z.string().nullable(),
  times_attempted: z.number(),
  notification_setting_id: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** One delivery attempt of a notification; `duration_ms` and `error` are our extensions. */
export const notificationLogSchema = z.object({
  id: z.string(),
  response_code: z.number().nullable(),
  response_content_type: z.string().nullable(),
  response_body: z.string().nullable(),
  attempted_at: z.string(),
  duration_ms: z.number(),
  error: z.string().nullable(),
});
export type NotificationLog = z.infer<typeof notificationLogSchema>;

/** What a replay answers: the new notification, whose delivery is queued. */
export const notificationReplaySchema = z.object({ notification_id: z.string() });
export type NotificationReplay = z.infer<typeof notificationReplaySchema>;

export const notificationParams = z.object({ notification_id: entityId("ntf") });

/** `filter`: the notifications whose payload names this transaction, customer or subscription. */
const entityFilter = z
  .string()
  .regex(/^(txn|ctm|sub)_[a-z0-9]{26}$/, "must be a transaction (txn_), customer (ctm_) or subscription (sub_) ID");

export const listNotificationsQuery = z.object({
  // Newest first unless asked otherwise, as in the API family.
  ...listQuery(["id"], "desc"),
  notification_setting_id: csv(entityId("ntfset")).optional(),
  status: csv(
    z.enum(NOTIFICATION_STATUSES, { error: `must be one of ${NOTIFICATION_STATUSES.join(", ")}` }),
  ).optional(),
  search: z.string().max(100, "must be at most 100 characters").optional(),
  filter: entityFilter.optional(),
  /** On occurred_at: from inclusive, to exclusive. */
  from: dateTime.optional(),
  to: dateTime.optional(),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

export const listNotificationLogsQuery = z.object({
  // Only by id, newest attempt first; `order_by` is not offered (the API family has none here).
  after: z.string().max(200).optional(),
  per_page: perPageParam,
});
export type ListNotificationLogsQuery = z.infer<typeof listNotificationLogsQuery>;
