import type { Notification, NotificationLog } from "../../schemas/notification.ts";
import { type EntityTable, ts } from "../sql.ts";

/** The notification's API shape (spec: Notification), in the API family's field order. */
export const NOTIFICATION: EntityTable<Notification> = {
  table: "notifications",
  fields: [
    ["id", "t.id"],
    ["type", "t.type"],
    ["status", "t.status"],
    // Stored as the envelope that is sent (json keeps its key order): returned as is.
    ["payload", "t.payload"],
    ["occurred_at", ts("t.occurred_at")],
    ["delivered_at", ts("t.delivered_at")],
    ["replayed_at", ts("t.replayed_at")],
    ["origin", "t.origin"],
    ["last_attempt_at", ts("t.last_attempt_at")],
    ["retry_at", ts("t.retry_at")],
    ["times_attempted", "t.times_attempted"],
    ["notification_setting_id", "t.notification_setting_id"],
  ],
};

/** One delivery attempt; `duration_ms` and `error` (why no answer came, e.g. a timeout) are our extensions. */
export const NOTIFICATION_LOG: EntityTable<NotificationLog> = {
  table: "notification_logs",
  fields: [
    ["id", "t.id"],
    ["response_code", "t.response_code"],
    ["response_content_type", "t.response_content_type"],
    ["response_body", "t.response_body"],
    ["attempted_at", ts("t.attempted_at")],
    ["duration_ms", "t.duration_ms"],
    ["error", "t.error"],
  ],
};
