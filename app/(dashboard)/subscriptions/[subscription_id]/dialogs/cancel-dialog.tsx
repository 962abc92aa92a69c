"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { formatDateTime } from "@/lib/dashboard/display";
import { useCancelSubscription } from "@/lib/dashboard/subscriptions";
import { Choice, type DialogProps, periodEnd, useActionForm } from "./dialog-kit";

export function CancelDialog({ sub, onClose }: DialogProps) {
  const cancel = useCancelSubscription(sub);
  const running = sub.status === "active" || sub.status === "trialing";
  const form = useActionForm(
    () => ({ when: (running ? "next_billing_period" : "immediately") as "next_billing_period" | "immediately" }),
    onClose,
  );
  const { when } = form.values;
  const end = periodEnd(sub);
  return (
    <ConfirmDialog
      open
      wide
      title="Cancel this subscription?"
      confirmLabel={when === "immediately" ? "Cancel now" : "Cancel at period end"}
      cancelLabel="Keep subscription"
      {...form.dialog}
      onConfirm={() =>
        form.submit({
          body: { effective_from: when },
          send: cancel.mutateAsync,
          done: when === "immediately" ? "Subscription canceled." : "Cancellation scheduled.",
        })
      }
      description={
        <p>
          {when === "immediately"
            ? "The subscription is canceled now: nothing more is billed, and the rest of the current period is not credited. Canceling is final: to sell again, the customer subscribes anew."
            : `The subscription runs until ${end ? formatDateTime(end) : "the end of its billing period"} and is canceled then, without renewing. Until then you can take the cancellation back (Remove on the banner).`}
        </p>
      }
    >
      <Choice
        legend="When"
        value={when}
        onChange={(value) => form.set("when", value)}
        options={[
          ...(running
            ? [
                {
                  value: "next_billing_period" as const,
                  label: "At the end of the billing period",
                  hint: end ? `On ${formatDateTime(end)}` : undefined,
                },
              ]
            : []),
          { value: "immediately", label: "Now" },
        ]}
      />
    </ConfirmDialog>
  );
}
