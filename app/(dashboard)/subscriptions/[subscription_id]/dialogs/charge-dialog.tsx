"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { SelectField, TextField } from "@/components/form";
import { useCatalogue } from "@/lib/dashboard/catalogue";
import { formatDate } from "@/lib/dashboard/display";
import { type ChargeSubscriptionInput, useChargeSubscription } from "@/lib/dashboard/subscriptions";
import { Choice, type DialogProps, quantityOf, useActionForm } from "./dialog-kit";
import { oneTimePrices } from "./offered-prices";
import { PreviewSummary, useLivePreview } from "./preview-summary";

export function ChargeDialog({ sub, onClose, card }: DialogProps) {
  const charge = useChargeSubscription(sub);
  const catalogue = useCatalogue("active");
  const products = (catalogue.data?.pages ?? []).flatMap((page) => page.data);
  const prices = oneTimePrices(products, sub.currency_code);
  const form = useActionForm(
    () => ({ priceId: "", quantity: "1", when: "immediately" as "immediately" | "next_billing_period" }),
    onClose,
  );
  const { priceId, quantity, when } = form.values;
  const qty = quantityOf(quantity);
  const body: ChargeSubscriptionInput | null =
    priceId && qty !== null ? { effective_from: when, items: [{ price_id: priceId, quantity: qty }] } : null;
  const preview = useLivePreview("charge", sub.id, body);
  return (
    <ConfirmDialog
      open
      wide
      title="Add a one-time charge"
      tone="primary"
      confirmLabel={when === "immediately" ? "Charge now" : "Add to next renewal"}
      cancelLabel="Go back"
      confirmDisabled={!body || !preview.ready}
      {...form.dialog}
      onConfirm={() =>
        form.submit({
          fields: ["items"],
          body,
          send: charge.mutateAsync,
          done: when === "immediately" ? "One-time charge billed." : "One-time charge added to the next renewal.",
        })
      }
      description={
        <p>
          {when === "immediately"
            ? `A new transaction bills the charge now${sub.collection_mode === "automatic" ? ", collected from the saved payment method" : ""}.`
            : `The charge is added to the next renewal${sub.next_billed_at ? ` on ${formatDate(sub.next_billed_at)}` : ""}.`}{" "}
          One-time charges are never prorated.
        </p>
      }
    >
      <SelectField
        label="Price"
        required
        {...form.bind("priceId", "items")}
        hint={`One-time prices in ${sub.currency_code}.`}
      >
        <option value="">{catalogue.isLoading ? "Loading prices…" : "Choose a price"}</option>
        {prices.map((price) => (
          <option key={price.id} value={price.id}>
            {price.label}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Quantity"
        type="number"
        min={1}
        required
        value={quantity}
        error={quantity !== "" && qty === null ? "Enter a whole number of at least 1." : null}
        onChange={(event) => form.set("quantity", event.target.value)}
      />
      <Choice
        legend="When"
        value={when}
        onChange={(value) => form.set("when", value)}
        options={[
          { value: "immediately", label: "Now" },
          { value: "next_billing_period", label: "With the next renewal" },
        ]}
      />
      <PreviewSummary query={preview.query} sub={sub} card={card} />
    </ConfirmDialog>
  );
}
