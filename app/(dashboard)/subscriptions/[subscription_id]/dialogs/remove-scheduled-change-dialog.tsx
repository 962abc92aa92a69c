"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { formatDateTime } from "@/lib/dashboard/display";
import { useUpdateSubscription } from "@/lib/dashboard/subscriptions";
import { type DialogProps, useActionForm } from "./dialog-kit";

const CHANGE_NAMES = { cancel: "cancellation", pause: "pause", resume: "resume" } as const;

export function RemoveScheduledChangeDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const form = useActionForm(() => ({}), onClose);
  const change = sub.scheduled_change;
  if (!change) return null;
  return (
    <ConfirmDialog
      open
      title={`Remove the scheduled ${CHANGE_NAMES[change.action]}?`}
      tone="primary"
      confirmLabel={`Remove scheduled ${CHANGE_NAMES[change.action]}`}
      cancelLabel="Go back"
      {...form.dialog}
      onConfirm={() =>
        form.submit({ body: { scheduled_change: null }, send: update.mutateAsync, done: "Scheduled change removed." })
      }
      description={
        <p>
          {change.action === "resume"
            ? `The subscription no longer resumes on ${formatDateTime(change.effective_at)}: it stays paused until you resume it.`
            : `The subscription no longer ${change.action === "cancel" ? "cancels" : "pauses"} on ${formatDateTime(change.effective_at)}: it keeps renewing as before.`}
        </p>
      }
    />
  );
}
