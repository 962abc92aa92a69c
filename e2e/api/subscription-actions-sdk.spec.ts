/**
 * The official Node SDK of the API family, pointed at our base URL, drives a subscription's
 * actions over HTTP unchanged: activate a trial, pause (scheduled and now), resume, cancel, and
 * reads our refusals as its errors.
 */
import { expect, test } from "@playwright/test";
import { cliApiKey } from "../cli";
import { sdk, subscribeAtCheckout } from "./sdk-helpers";

test("the Node SDK activates a trial, schedules a pause, and cancels", async () => {
  const paddle = sdk(cliApiKey());
  const id = (await subscribeAtCheckout(paddle, { trialDays: 14 })).subscriptionId;
  expect((await paddle.subscriptions.get(id)).status).toBe("trialing");

  const active = await paddle.subscriptions.activate(id);
  expect(active.status).toBe("active");
  expect(active.firstBilledAt).toBe(active.currentBillingPeriod?.startsAt);

  const pausing = await paddle.subscriptions.pause(id, { effectiveFrom: "next_billing_period" });
  expect(pausing.status).toBe("active");
  expect(pausing.scheduledChange).toMatchObject({ action: "pause", effectiveAt: active.nextBilledAt, resumeAt: null });

  // A second pause is refused with the family's code, surfaced by the SDK.
  await expect(paddle.subscriptions.pause(id, {})).rejects.toMatchObject({
    code: "subscription_locked_pending_changes",
  });

  const canceled = await paddle.subscriptions.cancel(id, { effectiveFrom: "immediately" });
  expect(canceled.status).toBe("canceled");
  expect(canceled.canceledAt).not.toBeNull();
  await expect(paddle.subscriptions.activate(id)).rejects.toMatchObject({ code: "subscription_cannot_activate" });
});

test("the Node SDK pauses now with a resume date, resumes now, and cancels at the period's end", async () => {
  const paddle = sdk(cliApiKey());
  const id = (await subscribeAtCheckout(paddle)).subscriptionId;
  await expect(paddle.subscriptions.resume(id, { effectiveFrom: "immediately" })).rejects.toMatchObject({
    code: "subscription_must_be_paused",
  });

  const resumeAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const paused = await paddle.subscriptions.pause(id, { effectiveFrom: "immediately", resumeAt });
  expect(paused.status).toBe("paused");
  expect(paused.currentBillingPeriod).toBeNull();
  expect(paused.scheduledChange?.action).toBe("resume");

  const resumed = await paddle.subscriptions.resume(id, { effectiveFrom: "immediately" });
  expect(resumed.status).toBe("active");
  expect(resumed.scheduledChange).toBeNull();

  const ending = await paddle.subscriptions.cancel(id, {});
  expect(ending.status).toBe("active");
  expect(ending.scheduledChange).toMatchObject({ action: "cancel", effectiveAt: resumed.nextBilledAt });

  // The SDK's read-only key is refused the write.
  await expect(sdk(cliApiKey(["subscription.read"])).subscriptions.cancel(id, {})).rejects.toMatchObject({
    code: "forbidden",
  });
});
