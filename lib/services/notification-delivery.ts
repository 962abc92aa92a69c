/**
 * One delivery attempt of a notification, whatever its destination: lib/events/delivery.ts does the
 * attempt and its bookkeeping, posting a webhook itself and handing an email destination's
 * notification to the email channel (lib/services/emails/notification-emails.ts), which lives
 * above it. The worker's `deliver_notification` job runs this.
 */
import {
  deliverNotification as attemptDelivery,
  type DeliveryOptions,
  type DeliveryResult,
} from "../events/delivery.ts";
import { sendNotificationEmail } from "./emails/notification-emails.ts";

export function deliverNotification(
  id: string,
  attempt: number,
  options: Omit<DeliveryOptions, "sendEmail"> = {},
): Promise<DeliveryResult> {
  return attemptDelivery(id, attempt, { ...options, sendEmail: sendNotificationEmail });
}
