// The catalogue of event types is data (lib/events/catalogue.ts imports nothing of lib/events' machinery):
// the entity renders `subscribed_events` from it.
import { EVENT_TYPES } from "../../events/catalogue.ts";
import type { NotificationSetting } from "../../schemas/notification-setting.ts";
import { type EntityTable, storableJson, ts } from "../sql.ts";

/**
 * The catalogue as a SQL json literal keyed by name: `subscribed_events` is stored as names and
 * returned as the catalogue's event type objects. json (not jsonb) keeps each object's key order.
 */
const CATALOGUE_SQL = `'${storableJson(Object.fromEntries(EVENT_TYPES.map((type) => [type.name, type]))).replaceAll("'", "''")}'::json`;

/**
 * `subscribed_events` of the row `alias`: the event type objects in the stored order. A name the
 * catalogue no longer has is left out rather than returned half-described.
 */
function subscribedEventsSql(alias: string): string {
  return `(SELECT coalesce(json_agg(c.value ORDER BY u.ord), '[]'::json)
           FROM unnest(${alias}.subscribed_events) WITH ORDINALITY u(name, ord)
           JOIN json_each(${CATALOGUE_SQL}) c ON c.key = u.name)`;
}

/** The destination's API shape (spec: Notification setting), then created_at and updated_at. */
export const NOTIFICATION_SETTING: EntityTable<NotificationSetting> = {
  table: "notification_settings",
  fields: [
    ["id", "t.id"],
    ["description", "t.description"],
    ["type", "t.type"],
    ["destination", "t.destination"],
    ["active", "t.active"],
    ["api_version", "t.api_version"],
    ["include_sensitive_fields", "t.include_sensitive_fields"],
    ["subscribed_events", subscribedEventsSql("t")],
    // In full to callers that may manage destinations (see NOTIFICATION_SETTING_REDACTED).
    ["endpoint_secret_key", "t.endpoint_secret_key"],
    ["traffic_source", "t.traffic_source"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};

/**
 * The destination as shown to a caller without notification_setting.write: `endpoint_secret_key`
 * is null. Whoever holds the secret can sign requests that the merchant's endpoint accepts as
 * ours, so it is shown only to callers who could set a destination up (or rotate its secret)
 * themselves; read access (a viewer, a key with notification_setting.read) sees the rest.
 *
 * null rather than a masked string or leaving the field out: the field stays where the API
 * family has it, so clients that read it (the Node SDK copies `endpoint_secret_key` as is) keep
 * parsing the entity, and no masked value can be mistaken for a usable secret.
 */
export const NOTIFICATION_SETTING_REDACTED: EntityTable<NotificationSetting> = {
  table: NOTIFICATION_SETTING.table,
  fields: NOTIFICATION_SETTING.fields.map(([name, expr]) =>
    name === "endpoint_secret_key" ? ([name, "NULL::text"] as const) : ([name, expr] as const),
  ),
};

/** The entity a caller sees: with the secret only when it may write destinations. */
export function notificationSettingFor(showSecret: boolean): EntityTable<NotificationSetting> {
  return showSecret ? NOTIFICATION_SETTING : NOTIFICATION_SETTING_REDACTED;
}
