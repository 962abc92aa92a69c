/**
 * The subscription's shape as the entity's SQL renders it (lib/db/entities/subscription.ts) agrees
 * with the TypeScript rules the update's preview and the simulator use: the items' status and the
 * billing period shown per status (lib/billing/subscription-shape.ts), and the plain
 * `management_urls` (lib/services/portal/links.ts managementUrls) for both collection modes.
 */
import { expect, it } from "vitest";
import { showsBillingPeriod, subscriptionItemStatus } from "@/lib/billing/subscription-shape";
import { SUBSCRIPTION_STATUSES } from "@/lib/billing/subscription-states";
import { pool } from "@/lib/db/connection";
import { query } from "@/lib/db/sql";
import { subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { managementUrls } from "@/lib/services/portal/links";
import { subscriptionJson } from "./store";

it("the SQL shape follows the TypeScript rules for every status and collection mode", async () => {
  const { subscription } = await subscribeAtCheckout();
  const id = subscription.id as string;
  for (const status of SUBSCRIPTION_STATUSES) {
    await query("UPDATE subscriptions SET status = $2 WHERE id = $1", [id, status]);
    const json = (await subscriptionJson(pool(), id)).parse() as Record<string, any>;
    expect(
      json.items.map((item: { status: string }) => item.status),
      status,
    ).toEqual(json.items.map(() => subscriptionItemStatus(status)));
    expect(json.current_billing_period !== null, status).toBe(showsBillingPeriod(status));
    expect(json.items[0].next_billed_at !== null, status).toBe(showsBillingPeriod(status));
  }
  for (const mode of ["automatic", "manual"]) {
    await query("UPDATE subscriptions SET collection_mode = $2 WHERE id = $1", [id, mode]);
    const json = (await subscriptionJson(pool(), id)).parse() as Record<string, any>;
    expect(json.management_urls, mode).toEqual(managementUrls(id, mode, null));
  }
});
