"use client";

import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/button";
import { CheckboxField, FormActions, FormError, TextField, useFocusOnError } from "@/components/form";
import { lineItems, type PriceLine, PriceLines } from "@/components/price-lines";
import { ApiClientError } from "@/lib/dashboard/api";
import { type PaymentLink, useCreatePaymentLink } from "@/lib/dashboard/payment-links";
import { createPaymentLinkBody } from "@/lib/schemas/payment-link";

interface Problems {
  fields: Record<string, string>;
  message: string | null;
  requestId?: string;
}

/** Creates a payment link from catalogue prices (optionally started with one price: `initial`). */
export function PaymentLinkForm({
  initial = [],
  onCreated,
  onCancel,
}: {
  initial?: PriceLine[];
  onCreated: (link: PaymentLink) => void;
  onCancel: () => void;
}) {
  const [lines, setLines] = useState<PriceLine[]>(initial);
  const [successUrl, setSuccessUrl] = useState("");
  const [reusable, setReusable] = useState(true);
  const [problems, setProblems] = useState<Problems | null>(null);
  const create = useCreatePaymentLink();
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, problems);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      items: lineItems(lines),
      success_url: successUrl.trim() === "" ? null : successUrl.trim(),
      reusable,
    };
    const parsed = createPaymentLinkBody.safeParse(body);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const path = issue.path.map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${String(p)}` : String(p)));
        fields[path.join("")] ??= `${issue.path.at(-1) === "quantity" ? "Quantity " : ""}${issue.message}`;
      }
      if (lines.length === 0) fields.items = "Add at least one price.";
      setProblems({ fields, message: null });
      return;
    }
    try {
      onCreated(await create.mutateAsync(parsed.data));
    } catch (error) {
      if (error instanceof ApiClientError) {
        setProblems({ fields: error.fieldErrors(), message: error.message, requestId: error.requestId });
      } else setProblems({ fields: {}, message: "The link could not be created. Try again." });
    }
  }

  const fields = problems?.fields ?? {};
  return (
    <form ref={form} noValidate onSubmit={submit} aria-label="New payment link" className="space-y-5">
      <PriceLines lines={lines} onChange={setLines} errors={fields} legend="What the link sells" />
      <TextField
        label="After payment, return to (optional)"
        type="url"
        inputMode="url"
        placeholder="https://example.com/thanks"
        value={successUrl}
        onChange={(e) => setSuccessUrl(e.target.value)}
        error={fields.success_url ? `The address ${fields.success_url}` : undefined}
        hint="The success page links the buyer back here. https only (http is fine for localhost)."
        className="max-w-xl"
      />
      <CheckboxField
        label="Reusable: any number of buyers can pay through it"
        checked={reusable}
        onChange={(e) => setReusable(e.target.checked)}
        hint="Unchecked, the link opens one checkout for one buyer and stops once that is paid."
      />
      <FormError
        message={problems?.message && Object.keys(fields).length === 0 ? problems.message : null}
        requestId={problems?.requestId}
      />
      <FormActions>
        <Button type="submit" pending={create.isPending} pendingLabel="Creating link…">
          Create payment link
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
