"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { CheckboxField, SelectField, TextAreaField, TextField } from "@/components/form";
import { textOrNull } from "@/lib/dashboard/form";
import { useUpdateSubscription } from "@/lib/dashboard/subscriptions";
import { type DialogProps, quantityOf, useActionForm } from "./dialog-kit";

const TERM_INTERVALS = ["day", "week", "month", "year"] as const;
type TermInterval = (typeof TERM_INTERVALS)[number];

/** Billing details, for manual collection: the next invoices' terms, purchase order and notes. */
export function BillingDetailsDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const details = sub.billing_details;
  const form = useActionForm(
    () => ({
      po: details?.purchase_order_number ?? "",
      info: details?.additional_information ?? "",
      checkout: details?.enable_checkout ?? false,
      interval: (details?.payment_terms.interval ?? "day") as TermInterval,
      frequency: String(details?.payment_terms.frequency ?? 30),
    }),
    onClose,
  );
  const { po, info, checkout, interval, frequency } = form.values;
  const freq = quantityOf(frequency);
  return (
    <ConfirmDialog
      open
      wide
      title="Edit billing details"
      tone="primary"
      confirmLabel="Save billing details"
      cancelLabel="Go back"
      confirmDisabled={freq === null}
      {...form.dialog}
      onConfirm={() =>
        form.submit({
          fields: [
            "billing_details.payment_terms.frequency",
            "billing_details.purchase_order_number",
            "billing_details.additional_information",
          ],
          body:
            freq === null
              ? null
              : {
                  billing_details: {
                    enable_checkout: checkout,
                    purchase_order_number: textOrNull(po),
                    additional_information: textOrNull(info),
                    payment_terms: { interval, frequency: freq },
                  },
                },
          send: update.mutateAsync,
          done: "Billing details saved.",
        })
      }
      description={<p>The next invoices of this subscription use these details. Nothing is billed now.</p>}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Payment terms: due in"
          type="number"
          min={1}
          value={frequency}
          error={
            form.error("billing_details.payment_terms.frequency") ?? (freq === null ? "Enter a whole number." : null)
          }
          onChange={(event) => form.set("frequency", event.target.value)}
        />
        <SelectField
          label="Unit"
          value={interval}
          onChange={(event) => form.set("interval", event.target.value as TermInterval)}
        >
          {TERM_INTERVALS.map((unit) => (
            <option key={unit} value={unit}>
              {unit}s
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        label="Purchase order number"
        maxLength={100}
        {...form.bind("po", "billing_details.purchase_order_number")}
      />
      <TextAreaField
        label="Additional information"
        mono={false}
        rows={3}
        {...form.bind("info", "billing_details.additional_information")}
      />
      <CheckboxField
        label="Let the customer pay invoices by card at the checkout"
        checked={checkout}
        onChange={(event) => form.set("checkout", event.target.checked)}
      />
    </ConfirmDialog>
  );
}
