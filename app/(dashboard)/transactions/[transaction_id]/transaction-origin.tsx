"use client";

import { humanize } from "@/lib/dashboard/display";
import { usePermissions } from "@/lib/dashboard/permissions";
import { useCreator } from "@/lib/dashboard/team";

/**
 * Where a transaction came from. The API says `api` for everything made through it, the
 * dashboard's invoices too: the audit log tells who made it, staff in the dashboard or a key.
 * Read only by roles allowed the audit log; the others see the API's word.
 */
export function TransactionOrigin({ id, origin }: { id: string; origin: string }) {
  const { can } = usePermissions();
  const creator = useCreator(id, "POST /api/transactions", origin === "api" && can("audit_log.read"));
  if (origin === "api" && creator) {
    return creator.actor_type === "user" ? (
      <span title="Origin: api">Created by {creator.actor_label ?? "a removed member"} in the dashboard</span>
    ) : (
      <span title="Origin: api">Created through the API with the key “{creator.actor_label ?? creator.actor_id}”</span>
    );
  }
  return <>{humanize(origin)}</>;
}
