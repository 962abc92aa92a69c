import { z } from "zod";
import { EVENT_TYPES, isEventType } from "../events/catalogue.ts";
import { SUPPORTED_VERSIONS } from "../versions.ts";
import { entityId, listQuery, requiredText } from "./common.ts";

export const NOTIFICATION_SETTING_TYPES = ["url", "email"] as const;
export const TRAFFIC_SOURCES = ["platform", "simulation", "all"] as const;

/** Most destinations that may be active at once (as in the API family). */
export const MAX_ACTIVE_NOTIFICATION_SETTINGS = 10;

/**
 * The notification setting (destination) as the API returns it (spec: Notification setting), with
 * `created_at` and `updated_at` added at the end.
 */
export const notificationSettingSchema = z.object({
  id: z.string(),
  description: z.string(),
  type: z.enum(NOTIFICATION_SETTING_TYPES),
  destination: z.string(),
  active: z.boolean(),
  api_version: z.number(),
  include_sensitive_fields: z.boolean(),
  subscribed_events: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      group: z.string(),
      available_versions: z.array(z.number()),
    }),
  ),
  /** null for callers without notification_setting.write (lib/services/notification-settings.ts). */
  endpoint_secret_key: z.string().nullable(),
  traffic_source: z.enum(TRAFFIC_SOURCES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type NotificationSetting = z.infer<typeof notificationSettingSchema>;

const description = requiredText(500);

/**
 * 1-2048 characters. Whether it is a usable URL (and, in live, a public address) or an email
 * address depends on the destination's type: the service checks that (lib/services/notification-settings.ts).
 */
const destination = z
  .string({ error: "must be a string" })
  .min(1, { error: "must be 1 to 2048 characters", abort: true })
  .max(2048, { error: "must be 1 to 2048 characters", abort: true });

const type = z.enum(NOTIFICATION_SETTING_TYPES, { error: "must be url or email" });

/** Event type names from the catalogue, at least one, none twice; kept in the order sent. */
const subscribedEvents = z
  .array(z.string({ error: "must be an event type name" }).refine(isEventType, "is not a known event type"), {
    error: "must be an array of event type names",
  })
  .min(1, "must list at least one event type")
  .max(EVENT_TYPES.length, `must list at most ${EVENT_TYPES.length} event types`)
  .superRefine((names, ctx) => {
    const seen = new Set<string>();
    names.forEach((name, index) => {
      if (seen.has(name)) ctx.addIssue({ code: "custom", message: `repeats ${name}`, path: [index] });
      seen.add(name);
    });
  });

/**
 * A version payloads can be built in. Only version 1 exists, which is also the account default, so
 * "not older than the account default" is "at least 1".
 */
const apiVersion = z
  .number({ error: "must be an integer" })
  .int("must be an integer")
  .min(1, { error: "must be at least 1", abort: true })
  .refine(
    (value) => SUPPORTED_VERSIONS.has(value),
    `must be a supported API version (${[...SUPPORTED_VERSIONS].join(", ")})`,
  );

const bool = z.boolean({ error: "must be true or false" });
const trafficSource = z.enum(TRAFFIC_SOURCES, { error: "must be platform, simulation or all" });

export const createNotificationSettingBody = z.strictObject({
  description,
  destination,
  subscribed_events: subscribedEvents,
  type: type.default("url"),
  api_version: apiVersion.default(1),
  include_sensitive_fields: bool.default(false),
  traffic_source: trafficSource.default("platform"),
  /** Our extension: create a destination switched off (default true, as in the API family). */
  active: bool.default(true),
});
export type CreateNotificationSettingInput = z.infer<typeof createNotificationSettingBody>;

export const updateNotificationSettingBody = z.strictObject({
  description: description.optional(),
  destination: destination.optional(),
  active: bool.optional(),
  api_version: apiVersion.optional(),
  include_sensitive_fields: bool.optional(),
  subscribed_events: subscribedEvents.optional(),
  traffic_source: trafficSource.optional(),
  /** Our extension: `true` replaces endpoint_secret_key with a new one (the old one stops signing at once). */
  rotate_endpoint_secret_key: z.literal(true, { error: "can only be true" }).optional(),
});
export type UpdateNotificationSettingInput = z.infer<typeof updateNotificationSettingBody>;

export const notificationSettingParams = z.object({ notification_setting_id: entityId("ntfset") });

export const listNotificationSettingsQuery = z.object({
  ...listQuery(["id"]),
  active: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
  /**
   * The destinations whose `traffic_source` is exactly this value, as the API family's filter
   * ("return entities that match the specified traffic source"): `platform` does not also list the
   * destinations of `all`. An unknown value is a field error.
   */
  traffic_source: trafficSource.optional(),
});
export type ListNotificationSettingsQuery = z.infer<typeof listNotificationSettingsQuery>;
