"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { TextField } from "@/components/form";
import { dateInputValue, formatDate, todayInputValue } from "@/lib/dashboard/display";
import { type ResumeSubscriptionInput, useResumeSubscription } from "@/lib/dashboard/subscriptions";
import { startOfDayIso } from "@/lib/dashboard/transactions";
import { Choice, chargedTo, type DialogProps, useActionForm } from "./dialog-kit";
import { PreviewSummary, useLivePreview } from "./preview-summary";

type OnResume = "start_new_billing_period" | "continue_existing_billing_period";

export function ResumeDialog({ sub, onClose, card }: DialogProps) {
  const resume = useResumeSubscription(sub);
  // An active subscription with a scheduled pause takes a date only: when the pause ends.
  const pausing = sub.status !== "paused";
  const form = useActionForm(
    () => ({
      when: (pausing ? "date" : "immediately") as "immediately" | "date",
      how: "start_new_billing_period" as OnResume,
      date: dateInputValue(sub.scheduled_change?.resume_at ?? null),
    }),
    onClose,
  );
  const { when, how, date } = form.values;
  const dated = when === "date";
  const body: ResumeSubscriptionInput | null =
    dated && !date
      ? null
      : { effective_from: dated ? startOfDayIso(date) : "immediately", ...(pausing ? {} : { on_resume: how }) };
  const preview = useLivePreview("resume", sub.id, body, 150);
  const continues = how === "continue_existing_billing_period";
  const resumes = dated ? (date ? `on ${formatDate(startOfDayIso(date))}` : "on the day you choose") : "now";
  return (
    <ConfirmDialog
      open
      wide
      title={pausing ? "Set when the pause ends?" : "Resume this subscription?"}
      tone="primary"
      confirmLabel={dated ? "Set resume date" : "Resume now"}
      cancelLabel="Go back"
      confirmDisabled={!body || !preview.ready}
      {...form.dialog}
      onConfirm={() =>
        form.submit({
          fields: ["effective_from"],
          body,
          send: resume.mutateAsync,
          done: dated ? "Resume date set." : "Subscription resumed.",
        })
      }
      description={
        <p>
          {pausing
            ? date
              ? `The pause that starts on ${formatDate(sub.scheduled_change?.effective_at ?? null)} ends on ${formatDate(startOfDayIso(date))}.`
              : "Choose the day the pause ends."
            : continues
              ? `The subscription resumes ${resumes} and continues the billing period it was paused in: nothing is charged then, and it renews when that period ends. The days it was paused are not given back.`
              : `The subscription resumes ${resumes}: a new billing period starts then and is ${chargedTo(sub, card)}, less the credit for the part of the paused period that was paid for and not used.`}
        </p>
      }
    >
      {!pausing && (
        <>
          <Choice
            legend="When"
            value={when}
            onChange={(value) => form.set("when", value)}
            options={[
              { value: "immediately", label: "Now" },
              { value: "date", label: "On a date" },
            ]}
          />
          <Choice
            legend="Billing"
            value={how}
            onChange={(value) => form.set("how", value)}
            options={[
              {
                value: "start_new_billing_period",
                label: "Start a new billing period",
                hint: "Charged when it resumes, less the unused rest of the period it was paused in.",
              },
              {
                value: "continue_existing_billing_period",
                label: "Continue the paused billing period",
                hint: "Nothing charged when it resumes; only while that period has not ended.",
              },
            ]}
          />
        </>
      )}
      {dated && (
        <TextField
          label="Resume on"
          type="date"
          required
          min={todayInputValue()}
          {...form.bind("date", "effective_from")}
        />
      )}
      <PreviewSummary
        query={preview.query}
        sub={sub}
        card={card}
        idle={dated ? "Choose the day to see what it charges." : undefined}
      />
    </ConfirmDialog>
  );
}
