import { describe, expect, it } from "vitest";
import { addDays, allowed, can } from "./subscriptions.ts";

describe("test clock helpers", () => {
  it("adds whole days to an instant", () => {
    expect(addDays("2026-01-31T10:00:00.000Z", 2)).toBe("2026-02-02T10:00:00.000Z");
  });
});

describe("what the page offers", () => {
  it("offers the actions the shared state rules allow", () => {
    const active = allowed({ status: "active", collection_mode: "automatic", scheduled_change: null });
    expect([...active].sort()).toEqual(["cancel", "charge", "pause", "update", "update_payment_method"]);
    const pausing = allowed({ status: "active", collection_mode: "automatic", scheduled_change: { action: "pause" } });
    expect(pausing.has("pause")).toBe(false);
    expect(pausing.has("resume")).toBe(true);
    expect(pausing.has("update")).toBe(false);
    const trial = allowed({ status: "trialing", collection_mode: "automatic", scheduled_change: null });
    expect(trial.has("activate")).toBe(true);
    expect(allowed({ status: "canceled", collection_mode: "automatic", scheduled_change: null }).size).toBe(0);
  });

  it("checks the staff member's permissions", () => {
    expect(can(["subscription.read"], "subscription.write")).toBe(false);
    expect(can(["subscription.read", "subscription.write"], "subscription.write")).toBe(true);
  });
});
