"use client";

import { useState } from "react";
import { useToast } from "@/components/toast";
import { type NotificationSetting, useUpdateNotificationSetting } from "@/lib/dashboard/notifications";

/**
 * Switching a destination on or off, at once (it is undone the same way): a toast says what
 * happened, or why not (activating past the limit of active destinations).
 */
export function useActiveSwitch() {
  const update = useUpdateNotificationSetting();
  const toast = useToast();
  const [pendingId, setPendingId] = useState<string | null>(null);

  async function toggle(destination: NotificationSetting) {
    setPendingId(destination.id);
    try {
      await update.mutateAsync({ id: destination.id, input: { active: !destination.active } });
      toast.show(
        destination.active
          ? `“${destination.description}” deactivated: events from now on are not sent to it.`
          : `“${destination.description}” activated.`,
      );
    } catch (error) {
      toast.show(error instanceof Error ? error.message : "Could not change the destination.", "error");
    } finally {
      setPendingId(null);
    }
  }

  return { toggle, pendingId };
}
