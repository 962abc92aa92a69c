"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { TextField } from "@/components/form";
import { dateInputValue, formatDate, formatDateTime, todayInputValue } from "@/lib/dashboard/display";
import { usePauseSubscription } from "@/lib/dashboard/subscriptions";
import { startOfDayIso } from "@/lib/dashboard/transactions";
import { Choice, type DialogProps, periodEnd, useActionForm } from "./dialog-kit";

export function PauseDialog({ sub, onClose }: DialogProps) {
  const pause = usePauseSubscription(sub);
  const trialing = sub.status === "trialing";
  const form = useActionForm(
    () => ({ when: "next_billing_period" as "next_billing_period" | "immediately", resumeOn: "" }),
    onClose,
  );
  const { when, resumeOn } = form.values;
  const end = periodEnd(sub);
  const effective = when === "immediately" ? "now" : end ? `on ${formatDateTime(end)}` : "at the end of the period";
  return (
    <ConfirmDialog
      open
      wide
      title="Pause this subscription?"
      tone="primary"
      confirmLabel={when === "immediately" ? "Pause now" : "Pause at period end"}
      cancelLabel="Go back"
      {...form.dialog}
      onConfirm={() =>
        form.submit({
          fields: ["resume_at"],
          body: { effective_from: when, ...(resumeOn ? { resume_at: startOfDayIso(resumeOn) } : {}) },
          send: pause.mutateAsync,
          done: when === "immediately" ? "Subscription paused." : "Pause scheduled.",
        })
      }
      description={
        <p>
          The subscription pauses {effective}: no renewals are billed while it is paused, and its items become inactive.{" "}
          {resumeOn
            ? `It resumes on ${formatDate(startOfDayIso(resumeOn))}, starting a new billing period that is charged then.`
            : "It stays paused until you resume it."}
        </p>
      }
    >
      <Choice
        legend="When"
        value={when}
        onChange={(value) => form.set("when", value)}
        options={[
          {
            value: "next_billing_period",
            label: trialing ? "At the end of the trial" : "At the end of the billing period",
            hint: end ? `On ${formatDateTime(end)}; the customer keeps what they paid for until then.` : undefined,
          },
          ...(trialing
            ? []
            : [
                {
                  value: "immediately" as const,
                  label: "Now",
                  hint: "The unused rest of the current period is credited against the charge when it resumes with a new period (not if it is canceled while paused).",
                },
              ]),
        ]}
      />
      <TextField
        label="Resume on (optional)"
        type="date"
        min={dateInputValue(end) || todayInputValue()}
        {...form.bind("resumeOn", "resume_at")}
        hint="Leave empty to keep it paused until you resume it."
      />
    </ConfirmDialog>
  );
}
