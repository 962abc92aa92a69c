"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { periodText } from "@/lib/dashboard/money";
import { useActivateSubscription, usePreview } from "@/lib/dashboard/subscriptions";
import { chargedTo, type DialogProps, useActionForm } from "./dialog-kit";
import { PreviewSummary } from "./preview-summary";

export function ActivateDialog({ sub, onClose, card }: DialogProps) {
  const activate = useActivateSubscription(sub);
  const form = useActionForm(() => ({}), onClose);
  const preview = usePreview("activate", sub.id, {});
  return (
    <ConfirmDialog
      open
      wide
      title="End the trial and activate now?"
      tone="primary"
      confirmLabel="Activate now"
      cancelLabel="Go back"
      confirmDisabled={!preview.data || preview.isFetching}
      {...form.dialog}
      onConfirm={() =>
        form.submit({
          body: {},
          send: () => activate.mutateAsync(undefined),
          done: "Trial ended: subscription activated.",
        })
      }
      description={
        <p>
          The trial ends now. The first billing period starts today and is {chargedTo(sub, card)} now; later renewals
          follow every {periodText(sub.billing_cycle)} from today. If the card is declined, nothing changes and the
          trial runs on.
        </p>
      }
    >
      <PreviewSummary query={preview} sub={sub} card={card} />
    </ConfirmDialog>
  );
}
