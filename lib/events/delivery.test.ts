/**
 * Delivery against a real local HTTP receiver, attempt by attempt, under a clock the test moves:
 * success, 500 then success, timeout, connection refused, the signature, the retry schedule.
 */
import type { LookupAddress } from "node:dns";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { query } from "../db/sql.ts";
import { deliveryJobs, insertDestination, makeChange, notificationsOf } from "../dev/test/notifications.ts";
import { type Receiver, startReceiver } from "../dev/test/receiver.ts";
import { deliverNotification, JITTER, nextRetryAt, purgeNotifications } from "./delivery.ts";
import { setHostResolver } from "./destination.ts";
import { sendSigned } from "./send.ts";
import { verifySignature } from "./signature.ts";

let receiver: Receiver;

beforeEach(async () => {
  receiver = await startReceiver();
});

afterEach(async () => {
  await receiver.close();
});

const SCHEDULE = [60_000, 300_000, 900_000];

async function oneNotification(url = receiver.url) {
  const destination = await insertDestination(url);
  await makeChange();
  const [notification] = await notificationsOf(destination.id);
  return { destination, notification };
}

async function logsOf(id: string) {
  return query<{ response_code: number | null; error: string | null; response_body: string | null }>(
    "SELECT response_code, error, response_body FROM notification_logs WHERE notification_id = $1 ORDER BY id",
    [id],
  );
}

describe("delivery", () => {
  it("posts the payload, signed with the destination's secret, and marks it delivered", async () => {
    const { destination, notification } = await oneNotification();
    expect(notification!.status).toBe("not_attempted");
    expect(await deliveryJobs(notification!.id)).toHaveLength(1);

    const result = await deliverNotification(notification!.id, 1);
    expect(result.done).toBe("delivered");
    const [request] = await receiver.waitFor(1);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(verifySignature(destination.secret, request!.body, request!.headers["service-signature"] as string)).toBe(
      true,
    );
    expect(verifySignature("wrong-secret", request!.body, request!.headers["service-signature"] as string)).toBe(false);
    const body = JSON.parse(request!.body);
    expect(Object.keys(body)).toEqual(["event_id", "event_type", "occurred_at", "notification_id", "data"]);
    expect(body.notification_id).toBe(notification!.id);
    expect(body.event_type).toBe("customer.created");
    expect(body.data.id).toMatch(/^ctm_/);

    const [after] = await notificationsOf(destination.id);
    expect(after!.status).toBe("delivered");
    expect(after!.times_attempted).toBe(1);
    expect(after!.delivered_at).not.toBeNull();
    expect(after!.retry_at).toBeNull();
    expect(await logsOf(notification!.id)).toEqual([{ response_code: 200, error: null, response_body: "ok" }]);
  });

  it("a 500 schedules a retry at the schedule's delay (with jitter); the retry then delivers", async () => {
    const { destination, notification } = await oneNotification();
    receiver.respond((nth) => (nth === 0 ? { status: 500, body: "boom" } : { status: 204 }));
    const t0 = new Date("2030-01-01T00:00:00Z");

    const first = await deliverNotification(notification!.id, 1, { now: t0, schedule: SCHEDULE, random: () => 0.5 });
    expect(first.done).toBe("needs_retry");
    let [row] = await notificationsOf(destination.id);
    expect(row!.status).toBe("needs_retry");
    expect(row!.retry_at?.toISOString()).toBe("2030-01-01T00:01:00.000Z");
    const jobs = await deliveryJobs(notification!.id);
    expect(jobs.at(-1)?.payload).toEqual({ id: notification!.id, attempt: 2 });
    expect(jobs.at(-1)?.run_at.toISOString()).toBe("2030-01-01T00:01:00.000Z");

    const t1 = row!.retry_at as Date;
    const second = await deliverNotification(notification!.id, 2, { now: t1, schedule: SCHEDULE });
    expect(second.done).toBe("delivered");
    [row] = await notificationsOf(destination.id);
    expect(row!.status).toBe("delivered");
    expect(row!.times_attempted).toBe(2);
    expect(row!.last_attempt_at?.toISOString()).toBe(t1.toISOString());
    const logs = await logsOf(notification!.id);
    expect(logs.map((l) => l.response_code)).toEqual([500, 204]);
    expect(logs[0]!.response_body).toBe("boom");
  });

  it("follows the whole schedule under a moving clock, then fails", async () => {
    const { destination, notification } = await oneNotification();
    receiver.respond(() => ({ status: 503 }));
    let now = new Date("2030-01-01T00:00:00Z");
    const start = now.getTime();
    for (let attempt = 1; attempt <= SCHEDULE.length + 1; attempt++) {
      const result = await deliverNotification(notification!.id, attempt, { now, schedule: SCHEDULE });
      if (attempt <= SCHEDULE.length) {
        expect(result.done).toBe("needs_retry");
        const [row] = await notificationsOf(destination.id);
        const delay = (row!.retry_at as Date).getTime() - now.getTime();
        expect(delay).toBeGreaterThanOrEqual(SCHEDULE[attempt - 1]! * (1 - JITTER));
        expect(delay).toBeLessThanOrEqual(SCHEDULE[attempt - 1]! * (1 + JITTER));
        now = row!.retry_at as Date;
      } else {
        expect(result.done).toBe("failed");
      }
    }
    const [row] = await notificationsOf(destination.id);
    expect(row!.status).toBe("failed");
    expect(row!.times_attempted).toBe(4);
    expect(row!.retry_at).toBeNull();
    expect(now.getTime() - start).toBeLessThanOrEqual(SCHEDULE.reduce((a, b) => a + b, 0) * (1 + JITTER));
    expect(receiver.received).toHaveLength(4);
    expect(await logsOf(notification!.id)).toHaveLength(4);
  });

  it("live schedule: a destination down for an hour still gets the notification once it is back", async () => {
    // The live schedule, applied to a local receiver (live itself refuses loopback destinations).
    process.env.BILLING_ENVIRONMENT = "live";
    const { config } = await import("../config.ts");
    const schedule = config.webhooks.retrySchedule;
    process.env.BILLING_ENVIRONMENT = "sandbox";
    const { destination, notification } = await oneNotification();
    const t0 = new Date("2030-01-01T00:00:00Z");
    const backAt = t0.getTime() + 60 * 60_000;
    let now = t0;
    receiver.respond(() => (now.getTime() < backAt ? { status: 502 } : { status: 200 }));
    let attempt = 1;
    for (; attempt <= schedule.length + 1; attempt++) {
      const result = await deliverNotification(notification!.id, attempt, { now, schedule });
      if (result.done !== "needs_retry") {
        expect(result.done).toBe("delivered");
        break;
      }
      now = result.retryAt as Date;
    }
    const [row] = await notificationsOf(destination.id);
    expect(row!.status).toBe("delivered");
    expect(now.getTime()).toBeGreaterThanOrEqual(backAt);
    // The first attempt after the outage delivers it: within one (jittered) retry interval.
    expect(now.getTime() - backAt).toBeLessThan(80 * 60_000 * (1 + JITTER));
    expect(attempt).toBeLessThan(schedule.length);
  });

  it("a destination that does not answer in time is a failed attempt with a timeout error", async () => {
    const { notification } = await oneNotification();
    receiver.respond(() => "hang");
    const result = await deliverNotification(notification!.id, 1, { timeoutMs: 300, schedule: SCHEDULE });
    expect(result.done).toBe("needs_retry");
    const [log] = await logsOf(notification!.id);
    expect(log!.response_code).toBeNull();
    expect(log!.error).toMatch(/Timed out after 300 ms/);
  });

  it("a refused connection is a failed attempt with the network error", async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const { notification } = await oneNotification(url);
    const result = await deliverNotification(notification!.id, 1, { schedule: SCHEDULE });
    expect(result.done).toBe("needs_retry");
    const [log] = await logsOf(notification!.id);
    expect(log!.response_code).toBeNull();
    expect(log!.error).toMatch(/ECONNREFUSED/);
  });

  it("stores any answer: NUL bytes, and a character cut in half at the length limit (issue #13)", async () => {
    const { notification } = await oneNotification();
    // The body is kept to its first 10,000 UTF-16 units: the 10,000th is the first half of an emoji.
    const cut = `${"x".repeat(9_999)}😀 and more`;
    receiver.respond((nth) => ({ status: nth === 0 ? 500 : 200, body: nth === 0 ? "bad\u0000gateway" : cut }));
    expect((await deliverNotification(notification!.id, 1, { schedule: SCHEDULE })).done).toBe("needs_retry");
    expect((await deliverNotification(notification!.id, 2, { schedule: SCHEDULE })).done).toBe("delivered");
    const logs = await logsOf(notification!.id);
    expect(logs.map((log) => log.response_body)).toEqual(["badgateway", `${"x".repeat(9_999)}\ufffd`]);
  });

  it("a job for an attempt already made, or for a final notification, does nothing", async () => {
    const { notification } = await oneNotification();
    expect((await deliverNotification(notification!.id, 1)).done).toBe("delivered");
    expect(await deliverNotification(notification!.id, 1)).toEqual({ done: "skipped", reason: "final" });
    expect(await deliverNotification("ntf_00000000000000000000000000", 1)).toEqual({
      done: "skipped",
      reason: "missing",
    });
    expect(receiver.received).toHaveLength(1);
  });

  it("skips an inactive destination's notifications and leaves them waiting", async () => {
    const destination = await insertDestination(receiver.url);
    await makeChange();
    await query("UPDATE notification_settings SET active = false WHERE id = $1", [destination.id]);
    const [notification] = await notificationsOf(destination.id);
    expect(await deliverNotification(notification!.id, 1)).toEqual({ done: "skipped", reason: "inactive" });
    expect((await notificationsOf(destination.id))[0]!.status).toBe("not_attempted");
    expect(receiver.received).toHaveLength(0);
  });

  it("only subscribed, active destinations get a notification", async () => {
    const subscribed = await insertDestination(receiver.url, ["customer.created"]);
    const other = await insertDestination(receiver.url, ["product.created"]);
    const inactive = await insertDestination(receiver.url, ["customer.created"], { active: false });
    const simulationOnly = await insertDestination(receiver.url, ["customer.created"], {
      trafficSource: "simulation",
    });
    await makeChange();
    expect(await notificationsOf(subscribed.id)).toHaveLength(1);
    expect(await notificationsOf(other.id)).toHaveLength(0);
    expect(await notificationsOf(inactive.id)).toHaveLength(0);
    expect(await notificationsOf(simulationOnly.id)).toHaveLength(0);
  });

  it("purges notifications older than 90 days with their logs", async () => {
    const { destination, notification } = await oneNotification();
    await deliverNotification(notification!.id, 1);
    await query("UPDATE notifications SET created_at = now() - interval '91 days' WHERE id = $1", [notification!.id]);
    await makeChange();
    expect(await purgeNotifications()).toBe(1);
    const left = await notificationsOf(destination.id);
    expect(left).toHaveLength(1);
    expect(left[0]!.id).not.toBe(notification!.id);
    expect(await logsOf(notification!.id)).toHaveLength(0);
  });
});

describe("retry schedule", () => {
  it("sandbox default: 3 retries within 15 minutes; live: 60 retries over about 3 days", async () => {
    const { config } = await import("../config.ts");
    const sandbox = config.webhooks.retrySchedule;
    expect(sandbox).toHaveLength(3);
    expect(sandbox.reduce((a, b) => a + b, 0) * (1 + JITTER)).toBeLessThanOrEqual(15 * 60_000);
    process.env.BILLING_ENVIRONMENT = "live";
    try {
      const live = config.webhooks.retrySchedule;
      expect(live).toHaveLength(60);
      const total = live.reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(2.9 * 86_400_000);
      expect(total).toBeLessThanOrEqual(3 * 86_400_000);
    } finally {
      process.env.BILLING_ENVIRONMENT = "sandbox";
    }
  });

  it("is configurable, and the jitter stays within ±10%", () => {
    process.env.BILLING_WEBHOOK_RETRY_SCHEDULE = "10s,1m";
    return import("../config.ts").then(({ config }) => {
      try {
        expect(config.webhooks.retrySchedule).toEqual([10_000, 60_000]);
      } finally {
        delete process.env.BILLING_WEBHOOK_RETRY_SCHEDULE;
      }
      const now = new Date(0);
      expect(nextRetryAt(1, now, [1000], () => 0)?.getTime()).toBe(900);
      expect(nextRetryAt(1, now, [1000], () => 0.999999)?.getTime()).toBe(1100);
      expect(nextRetryAt(2, now, [1000], () => 0.5)).toBeNull();
    });
  });
});

describe("DNS pinning: the request goes to the address that was checked", () => {
  const PUBLIC = "93.184.216.34";
  let lookups: string[];

  /** A resolver whose answers change from call to call, as a rebinding host's do. */
  function rebinding(...answers: string[][]): void {
    lookups = [];
    setHostResolver(async (host) => {
      lookups.push(host);
      const answer = answers[Math.min(lookups.length, answers.length) - 1];
      return answer!.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
    });
  }

  afterEach(() => {
    setHostResolver();
    delete process.env.BILLING_WEBHOOK_ALLOW_PRIVATE;
  });

  function hostUrl(host: string): string {
    return receiver.url.replace("127.0.0.1", host);
  }

  it("connects to the first answer, keeping the host name in the Host header, and never looks up again", async () => {
    // The sandbox allows loopback: the first answer is the receiver, any later one a dead address.
    rebinding(["127.0.0.1"], ["10.255.255.1"]);
    const { notification } = await oneNotification(hostUrl("rebind.test"));
    const result = await deliverNotification(notification!.id, 1, { timeoutMs: 2_000 });
    expect(result.done).toBe("delivered");
    const [request] = await receiver.waitFor(1);
    expect(request!.headers.host).toBe(`rebind.test:${new URL(receiver.url).port}`);
    expect(lookups).toEqual(["rebind.test"]);
  });

  it("in live: a host that answers a public address to the check and 127.0.0.1 next never reaches 127.0.0.1", async () => {
    process.env.BILLING_WEBHOOK_ALLOW_PRIVATE = "false";
    rebinding([PUBLIC], ["127.0.0.1"]);
    const outcome = await sendSigned(hostUrl("rebind.test"), "secret", "{}", { timeoutMs: 500 });
    expect(outcome.ok).toBe(false);
    expect(outcome.statusCode).toBeNull();
    // Sent (or tried) to the checked public address, unreachable here: nothing arrived at the receiver.
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received).toHaveLength(0);
    expect(lookups).toEqual(["rebind.test"]);
  });

  it("in live: every address of the answer is checked, and one private address refuses the destination", async () => {
    process.env.BILLING_WEBHOOK_ALLOW_PRIVATE = "false";
    rebinding([PUBLIC, "127.0.0.1"]);
    const outcome = await sendSigned(hostUrl("rebind.test"), "secret", "{}", { timeoutMs: 500 });
    expect(outcome.error).toBe("Destination resolves to 127.0.0.1, which is not a public address.");
    rebinding(["::ffff:127.0.0.1"]);
    expect((await sendSigned(hostUrl("rebind.test"), "secret", "{}")).error).toContain("not a public address");
    expect(receiver.received).toHaveLength(0);
  });

  it("in live: a delivery to a rebinding host records the refusal when the check's answer is private", async () => {
    process.env.BILLING_WEBHOOK_ALLOW_PRIVATE = "false";
    // Saved while it answered a public address; by delivery time it answers loopback.
    rebinding(["127.0.0.1"]);
    const { notification } = await oneNotification(hostUrl("rebind.test"));
    const result = await deliverNotification(notification!.id, 1, { schedule: SCHEDULE });
    expect(result.done).toBe("needs_retry");
    const [log] = await logsOf(notification!.id);
    expect(log!.error).toContain("not a public address");
    expect(receiver.received).toHaveLength(0);
  });

  it("https: the TLS server name is the host name, while the connection goes to the checked address", async () => {
    const names: string[] = [];
    // No certificate: the handshake fails after the client has said which server it wants.
    const server = tls.createServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error("no certificate here"), undefined);
      },
    });
    server.on("tlsClientError", () => {});
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      rebinding(["127.0.0.1"], ["10.255.255.1"]);
      const { port } = server.address() as AddressInfo;
      const outcome = await sendSigned(`https://rebind.test:${port}/hook`, "secret", "{}", { timeoutMs: 2_000 });
      expect(outcome.ok).toBe(false);
      expect(names).toEqual(["rebind.test"]);
      expect(lookups).toEqual(["rebind.test"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
