/**
 * Email notification destinations get notifications like webhook destinations: the event makes a
 * notification row (fan-out trigger), its delivery sends the email through a real SMTP server on
 * loopback and records the attempt (SMTP reply code and answer), retries and fails as a webhook's
 * does, and GET /notifications lists it (validated strictly against the response schema by call()).
 */
import { afterEach, describe, expect, it } from "vitest";
import * as emailRoute from "@/app/api/emails/[email_id]/route";
import * as logsRoute from "@/app/api/notifications/[notification_id]/logs/route";
import * as notificationsRoute from "@/app/api/notifications/route";
import { query } from "@/lib/db/sql";
import { call, testKey } from "@/lib/dev/test/api";
import { insertDestination, makeChange, notificationsOf } from "@/lib/dev/test/notifications";
import { mailPart, mailSubject, startSmtpSink } from "@/lib/dev/test/smtp";
import { deliverNotification } from "@/lib/services/notification-delivery";
import { replayNotification } from "@/lib/services/notifications";
import { startWorker } from "@/lib/worker/worker";

type Entity = Record<string, any>;

afterEach(async () => {
  delete process.env.SMTP_URL;
  // Other tests' events must not reach this file's destinations.
  await query("UPDATE notification_settings SET active = false WHERE type = 'email'");
});

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function listed(settingId: string): Promise<Entity[]> {
  const res = await call(notificationsRoute.GET, "GET", `/notifications?notification_setting_id=${settingId}`, {
    key: await testKey(["notification.read", "customer.read"]),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function logsOf(id: string): Promise<Entity[]> {
  const res = await call(logsRoute.GET, "GET", `/notifications/${id}/logs`, {
    key: await testKey(["notification.read", "customer.read"]),
    params: { notification_id: id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function emailOf(notificationId: string): Promise<Entity> {
  const [row] = await query("SELECT * FROM emails WHERE notification_id = $1", [notificationId]);
  return row!;
}

describe("email notification destinations", () => {
  it("an event makes a notification, delivered through SMTP by the worker and listed by GET /notifications", async () => {
    const sink = await startSmtpSink();
    process.env.SMTP_URL = sink.url;
    const destination = await insertDestination("ops@acme.example", ["customer.created"], { type: "email" });
    const worker = await startWorker({ concurrency: 2 });
    try {
      const customerId = await makeChange();
      const [mail] = await sink.waitFor(1);
      expect(mail!.to).toEqual(["ops@acme.example"]);
      expect(mailSubject(mail!.raw)).toBe(`[Billing] customer.created ${customerId}`);
      expect(mailPart(mail!.raw, "text/plain")).toContain(
        `Open in the dashboard: http://localhost:3000/customers/${customerId}`,
      );

      await until(async () => (await notificationsOf(destination.id))[0]?.status === "delivered");
      const [notification] = await listed(destination.id);
      expect(notification).toMatchObject({
        type: "customer.created",
        status: "delivered",
        origin: "event",
        times_attempted: 1,
        notification_setting_id: destination.id,
        retry_at: null,
      });
      expect(notification!.payload).toMatchObject({ event_type: "customer.created", data: { id: customerId } });
      expect(notification!.delivered_at).not.toBeNull();
      const [attempt] = await logsOf(notification!.id);
      const email = await emailOf(notification!.id);
      expect(attempt).toMatchObject({ response_code: 250, error: null, response_content_type: null });
      expect(attempt!.response_body).toContain(`Sent as ${email.id} to ops@acme.example.`);
      expect(email).toMatchObject({
        template: "notification",
        status: "sent",
        attempts: 1,
        to_address: "ops@acme.example",
        entity_id: customerId,
        notification_setting_id: destination.id,
        event_type: "customer.created",
      });
      // Filtered by the entity, as webhook notifications are.
      const res = await call(notificationsRoute.GET, "GET", `/notifications?filter=${customerId}`, {
        key: await testKey(["notification.read", "customer.read"]),
      });
      expect(res.body.data.map((n: Entity) => n.id)).toContain(notification!.id);
    } finally {
      await worker.stop();
      await sink.close();
    }
  });

  it("records a refused send (SMTP 550) as a failed attempt, retries, then fails; a replay sends a new email", async () => {
    const sink = await startSmtpSink();
    process.env.SMTP_URL = sink.url;
    const destination = await insertDestination("refused@acme.example", ["customer.created"], { type: "email" });
    await makeChange();
    const [notification] = await notificationsOf(destination.id);
    sink.refuse(true);
    const first = await deliverNotification(notification!.id, 1, { schedule: [60_000], random: () => 0.5 });
    expect(first.done).toBe("needs_retry");
    const second = await deliverNotification(notification!.id, 2, { schedule: [60_000] });
    expect(second.done).toBe("failed");
    const [row] = await listed(destination.id);
    expect(row).toMatchObject({ id: notification!.id, status: "failed", times_attempted: 2, delivered_at: null });
    const attempts = await logsOf(notification!.id);
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.response_code).toBe(550);
      expect(attempt.error).toContain("Mailbox unavailable");
    }
    const email = await emailOf(notification!.id);
    expect(email).toMatchObject({ status: "failed", attempts: 2 });
    expect(sink.received).toHaveLength(0);

    // A replay is a new notification with its own email, sent this time.
    sink.refuse(false);
    const { notification_id } = await replayNotification(notification!.id);
    expect((await deliverNotification(notification_id, 1)).done).toBe("delivered");
    expect(sink.received).toHaveLength(1);
    const replayed = await emailOf(notification_id);
    expect(replayed).toMatchObject({ status: "sent", event_id: email.event_id });
    expect(replayed.id).not.toBe(email.id);
    // A late duplicate of a finished attempt sends nothing more.
    expect((await deliverNotification(notification_id, 1)).done).toBe("skipped");
    expect(sink.received).toHaveLength(1);
  });

  it("without SMTP: the email is kept in the Emails log and the notification is delivered there", async () => {
    const destination = await insertDestination("log@acme.example", ["customer.created"], { type: "email" });
    const customerId = await makeChange();
    const [notification] = await notificationsOf(destination.id);
    expect((await deliverNotification(notification!.id, 1)).done).toBe("delivered");
    const email = await emailOf(notification!.id);
    expect(email).toMatchObject({ status: "logged", attempts: 1, entity_id: customerId });
    const [attempt] = await logsOf(notification!.id);
    expect(attempt).toMatchObject({ response_code: null, error: null });
    expect(attempt!.response_body).toContain(`Kept in the Emails log as ${email.id}`);
    const res = await call(emailRoute.GET, "GET", `/emails/${email.id}`, {
      key: await testKey(["notification.read"]),
      params: { email_id: email.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.text).toContain(`Entity: ${customerId}`);
  });

  it("an inactive email destination gets no notification; a url destination is unchanged", async () => {
    const inactive = await insertDestination("off@acme.example", ["customer.created"], {
      type: "email",
      active: false,
    });
    const simulationOnly = await insertDestination("sim@acme.example", ["customer.created"], {
      type: "email",
      trafficSource: "simulation",
    });
    await makeChange();
    expect(await notificationsOf(inactive.id)).toHaveLength(0);
    expect(await notificationsOf(simulationOnly.id)).toHaveLength(0);
  });
});
