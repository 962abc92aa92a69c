/**
 * Test helpers for webhook delivery: a destination row, a real change that emits an event, and the
 * notifications and jobs that came of it.
 */
import { query } from "../../db/sql.ts";
import { newEndpointSecretKey } from "../../events/signature.ts";
import { newId } from "../../ids.ts";
import { createCustomer } from "../../services/customers.ts";

export interface TestDestination {
  id: string;
  secret: string;
}

/** A destination (notification setting) row: active, of type url, taking all traffic unless told. */
export async function insertDestination(
  url: string,
  events: string[] = ["customer.created", "customer.updated"],
  options: { active?: boolean; includeSensitive?: boolean; trafficSource?: string; type?: string } = {},
): Promise<TestDestination> {
  const id = newId("ntfset");
  const secret = newEndpointSecretKey();
  await query(
    `INSERT INTO notification_settings
       (id, description, type, destination, active, include_sensitive_fields, subscribed_events, endpoint_secret_key,
        traffic_source)
     VALUES ($1, 'test destination', $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      options.type ?? "url",
      url,
      options.active ?? true,
      options.includeSensitive ?? false,
      events,
      secret,
      options.trafficSource ?? "all",
    ],
  );
  return { id, secret };
}

let customers = 0;

/** Creates a customer through the service: a real change, with its customer.created event. */
export async function makeChange(): Promise<string> {
  const customer = (await createCustomer({ email: `change-${Date.now()}-${customers++}@example.com` })).parse() as {
    id: string;
  };
  return customer.id;
}

export interface NotificationRow {
  id: string;
  status: string;
  times_attempted: number;
  retry_at: Date | null;
  delivered_at: Date | null;
  last_attempt_at: Date | null;
  event_id: string;
  type: string;
}

export async function notificationsOf(settingId: string): Promise<NotificationRow[]> {
  return query<NotificationRow>(
    `SELECT id, status, times_attempted, retry_at, delivered_at, last_attempt_at, event_id, type
     FROM notifications WHERE notification_setting_id = $1 ORDER BY id`,
    [settingId],
  );
}

export interface QueuedJob {
  id: string;
  payload: { id: string; attempt: number };
  run_at: Date;
}

/** The queued delivery jobs of a notification. */
export async function deliveryJobs(notificationId: string): Promise<QueuedJob[]> {
  return query<QueuedJob>(
    `SELECT j.id::text, j.payload, j.run_at FROM graphile_worker._private_jobs j
     JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = 'deliver_notification' AND j.payload->>'id' = $1 ORDER BY j.id`,
    [notificationId],
  );
}
