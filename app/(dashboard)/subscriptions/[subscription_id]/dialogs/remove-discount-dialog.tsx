"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { useUpdateSubscription } from "@/lib/dashboard/subscriptions";
import { type DialogProps, useActionForm } from "./dialog-kit";

export function RemoveDiscountDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const form = useActionForm(() => ({}), onClose);
  return (
    <ConfirmDialog
      open
      title="Remove the discount?"
      confirmLabel="Remove discount"
      cancelLabel="Go back"
      {...form.dialog}
      onConfirm={() => form.submit({ body: { discount: null }, send: update.mutateAsync, done: "Discount removed." })}
      description={<p>From the next renewal on, the subscription is billed without the discount.</p>}
    />
  );
}
