/**
 * Sandbox test clock (ours), read side: where subscription `id`'s clock stands. The clock is not
 * part of the subscription entity (the family's shape), so the dashboard asks here before it
 * offers "Advance N days", instead of reading the time out of a refusal's message.
 */
import { config } from "../../config.ts";
import { pool } from "../../db/connection.ts";
import { ApiError } from "../../errors.ts";
import type { TestClock } from "../../schemas/subscription.ts";
import { subscriptionNow } from "./billing.ts";
import { readSubscription } from "./store.ts";

/** Refuses outside the sandbox: live subscriptions follow real time. */
export function requireSandboxClock(): void {
  if (config.environment !== "sandbox") {
    throw new ApiError(
      "sandbox_only",
      "The test clock exists only in the sandbox: live subscriptions follow real time.",
    );
  }
}

export async function readTestClock(id: string): Promise<TestClock> {
  requireSandboxClock();
  const sub = await readSubscription(pool(), id);
  return { subscription_id: sub.id, now: subscriptionNow(sub).toISOString() };
}
