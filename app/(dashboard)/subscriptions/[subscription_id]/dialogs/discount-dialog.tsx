"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { SelectField } from "@/components/form";
import { type Discount, useDiscounts } from "@/lib/dashboard/catalogue";
import { formatDate } from "@/lib/dashboard/display";
import { formatMoney } from "@/lib/dashboard/money";
import { useUpdateSubscription } from "@/lib/dashboard/subscriptions";
import { Choice, type DialogProps, useActionForm } from "./dialog-kit";

function discountLabel(discount: Discount): string {
  const amount =
    discount.type === "percentage" ? `${discount.amount}%` : formatMoney(discount.amount, discount.currency_code ?? "");
  return `${discount.description} (${amount}${discount.code ? ` · ${discount.code}` : ""})`;
}

export function DiscountDialog({ sub, onClose }: DialogProps) {
  const update = useUpdateSubscription(sub);
  const discounts = useDiscounts({ status: "active", per_page: 200 });
  const form = useActionForm(
    () => ({ id: "", when: "next_billing_period" as "next_billing_period" | "immediately" }),
    onClose,
  );
  const { id, when } = form.values;
  const options = (discounts.data?.data ?? []).filter(
    (d) => d.type === "percentage" || d.currency_code === sub.currency_code,
  );
  return (
    <ConfirmDialog
      open
      wide
      title={sub.discount ? "Replace the discount" : "Apply a discount"}
      tone="primary"
      confirmLabel="Apply discount"
      cancelLabel="Go back"
      confirmDisabled={!id}
      {...form.dialog}
      onConfirm={() =>
        form.submit({
          fields: ["discount"],
          body: { discount: { id, effective_from: when } },
          send: update.mutateAsync,
          done: "Discount applied.",
        })
      }
      description={
        <p>
          {when === "immediately"
            ? "The discount applies from the current billing period: nothing is billed now; the next renewal is discounted."
            : `The discount applies from the next renewal${sub.next_billed_at ? ` on ${formatDate(sub.next_billed_at)}` : ""}.`}
          {sub.discount ? " It replaces the current discount." : ""}
        </p>
      }
    >
      <SelectField label="Discount" required {...form.bind("id", "discount")}>
        <option value="">{discounts.isLoading ? "Loading discounts…" : "Choose a discount"}</option>
        {options.map((d) => (
          <option key={d.id} value={d.id}>
            {discountLabel(d)}
          </option>
        ))}
      </SelectField>
      <Choice
        legend="From"
        value={when}
        onChange={(value) => form.set("when", value)}
        options={[
          { value: "next_billing_period", label: "The next billing period" },
          { value: "immediately", label: "The current billing period" },
        ]}
      />
    </ConfirmDialog>
  );
}
