"use client";

/**
 * "New subscription" on a customer's page: recurring catalogue prices, a trial and a discount, then
 * either a charge of a card the customer saved before or an email with the checkout link. Both go
 * through the API as any client would: a ready, automatically-collected transaction
 * (POST /transactions), then POST /transactions/{id}/charge-saved-method or …/checkout-email. The
 * subscription is created when that transaction is paid, as at any checkout.
 *
 * A trial other than the prices' own is sent as non-catalogue copies of the prices (the API
 * family's way to sell a catalogue product on other terms): the catalogue is left unchanged.
 */
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useId, useRef, useState } from "react";
import { Button } from "@/components/button";
import { FormActions, FormError, SelectField, TextField, useFocusOnError } from "@/components/form";
import { lineItems, lineQuantity, type PriceLine, PriceLines } from "@/components/price-lines";
import { useToast } from "@/components/toast";
import { ApiClientError, api } from "@/lib/dashboard/api";
import { useDiscounts } from "@/lib/dashboard/catalogue";
import { useAddresses } from "@/lib/dashboard/customers";
import { formatMoney } from "@/lib/dashboard/money";
import { subscriptionKeys, usePaymentMethods } from "@/lib/dashboard/subscriptions";
import { transactionKeys } from "@/lib/dashboard/transactions";
import type { Transaction } from "@/lib/schemas/transaction";

type Trial = "price" | "none" | "days";

interface Problems {
  fields: Record<string, string>;
  message: string | null;
  requestId?: string;
}

/** The lines as the API's items: catalogue prices, or copies with another trial. */
function items(lines: PriceLine[], trial: Trial, days: number) {
  if (trial === "price") return lineItems(lines);
  return lines.map((line) => ({
    quantity: lineQuantity(line),
    price: {
      description: line.price.description,
      name: line.price.name,
      product_id: line.price.product_id,
      billing_cycle: line.price.billing_cycle,
      trial_period: trial === "none" ? null : { interval: "day", frequency: days },
      tax_mode: line.price.tax_mode,
      unit_price: line.price.unit_price,
      unit_price_overrides: line.price.unit_price_overrides,
      quantity: line.price.quantity,
    },
  }));
}

function cardLabel(card: { type: string; last4: string } | null): string {
  if (!card) return "Saved payment method";
  const scheme = card.type === "unknown" ? "Card" : card.type.charAt(0).toUpperCase() + card.type.slice(1);
  return `${scheme} ending ${card.last4}`;
}

export function NewSubscriptionPanel({
  customerId,
  email,
  onClose,
}: {
  customerId: string;
  email: string;
  onClose: () => void;
}) {
  const id = useId();
  const [lines, setLines] = useState<PriceLine[]>([]);
  const addresses = useAddresses(customerId, { status: "active", per_page: 50 });
  const methods = usePaymentMethods(customerId);
  const discounts = useDiscounts({ status: "active", per_page: 100, mode: "standard" });
  const [addressId, setAddressId] = useState("");
  const [trial, setTrial] = useState<Trial>("price");
  const [days, setDays] = useState("14");
  const [discountId, setDiscountId] = useState("");
  const [collect, setCollect] = useState("");
  const [problems, setProblems] = useState<Problems | null>(null);
  const [pending, setPending] = useState(false);
  const [declined, setDeclined] = useState<Transaction | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, problems);
  const toast = useToast();
  const client = useQueryClient();

  const addressRows = addresses.data?.data ?? [];
  const methodRows = methods.data?.data ?? [];
  const address = addressId || addressRows[0]?.id || "";
  const how = collect || (methodRows[0] ? `card:${methodRows[0].id}` : "email");

  // What is due today, priced by the engine that will bill it (POST /transactions/preview).
  const dayCount = Number(days);
  const quantitiesValid = lines.every((line) => /^\d+$/.test(line.quantity.trim()));
  const trialValid = trial !== "days" || (Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= 365);
  const previewBody =
    lines.length > 0 && address && quantitiesValid && trialValid
      ? JSON.stringify({
          items: items(lines, trial, dayCount),
          customer_id: customerId,
          address_id: address,
          ...(discountId ? { discount_id: discountId } : {}),
        })
      : null;
  const preview = useQuery({
    queryKey: ["new-subscription-preview", previewBody],
    queryFn: async () =>
      (
        await api<{ data: { currency_code: string; details: { totals: { grand_total: string } } } }>(
          "/transactions/preview",
          { method: "POST", body: JSON.parse(previewBody ?? "{}") },
        )
      ).data,
    enabled: previewBody !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const dueToday =
    previewBody && preview.data
      ? formatMoney(preview.data.details.totals.grand_total, preview.data.currency_code)
      : null;

  function refresh() {
    void client.invalidateQueries({ queryKey: subscriptionKeys.all });
    void client.invalidateQueries({ queryKey: transactionKeys.lists });
    void client.invalidateQueries({ queryKey: ["customers", "detail", customerId] });
  }

  async function emailLink(transactionId: string) {
    const sent = await api<{ data: { to: string } }>(`/transactions/${transactionId}/checkout-email`, {
      method: "POST",
    });
    toast.show(`Checkout link emailed to ${sent.data.to}. The subscription starts when it is paid.`);
    refresh();
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (lines.length === 0) local.items = "Add at least one recurring price.";
    if (!address) local.address_id = "Add an address to the customer first: tax depends on the country.";
    if (trial === "days" && (!Number.isInteger(dayCount) || dayCount < 1 || dayCount > 365)) {
      local.trial_days = "Enter a number of days from 1 to 365.";
    }
    lines.forEach((line, i) => {
      const q = Number(line.quantity);
      if (!Number.isInteger(q) || q < line.price.quantity.minimum || q > line.price.quantity.maximum) {
        local[`items[${i}].quantity`] =
          `Enter a whole number from ${line.price.quantity.minimum} to ${line.price.quantity.maximum}.`;
      }
    });
    if (Object.keys(local).length > 0) {
      setProblems({ fields: local, message: null });
      return;
    }
    setPending(true);
    setProblems(null);
    setDeclined(null);
    try {
      const created = await api<{ data: Transaction }>("/transactions", {
        method: "POST",
        body: {
          items: items(lines, trial, dayCount),
          customer_id: customerId,
          address_id: address,
          collection_mode: "automatic",
          ...(discountId ? { discount_id: discountId } : {}),
        },
      });
      const txn = created.data;
      if (how === "email") {
        await emailLink(txn.id);
        return;
      }
      const charged = await api<{ data: Transaction }>(`/transactions/${txn.id}/charge-saved-method`, {
        method: "POST",
        body: { payment_method_id: how.slice("card:".length) },
      });
      refresh();
      if (charged.data.status === "completed") {
        const total = formatMoney(charged.data.details.totals.grand_total, charged.data.currency_code);
        toast.show(
          charged.data.details.totals.grand_total === "0"
            ? "Subscription started: nothing is due today; the saved card pays the renewals."
            : `Subscription started: ${total} charged to the saved card.`,
        );
        onClose();
      } else if (charged.data.status === "ready") {
        setDeclined(charged.data);
      } else {
        toast.show("The charge is being processed: the subscription appears once it is paid.", "info");
        onClose();
      }
    } catch (error) {
      if (error instanceof ApiClientError) {
        setProblems({ fields: error.fieldErrors(), message: error.message, requestId: error.requestId });
      } else setProblems({ fields: {}, message: "The subscription could not be started. Try again." });
    } finally {
      setPending(false);
    }
  }

  const fields = problems?.fields ?? {};
  const unplaced = Object.entries(fields).filter(
    ([field]) => !field.startsWith("items") && field !== "address_id" && field !== "trial_days",
  );
  return (
    <form ref={form} noValidate onSubmit={submit} aria-label="New subscription" className="space-y-5">
      <PriceLines
        lines={lines}
        onChange={setLines}
        errors={fields}
        recurringOnly
        legend="Plans (recurring prices of one billing cycle)"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Billing address"
          value={address}
          onChange={(e) => setAddressId(e.target.value)}
          error={fields.address_id}
          hint={addressRows.length === 0 && !addresses.isLoading ? "The customer has no address yet." : undefined}
        >
          {addressRows.map((a) => (
            <option key={a.id} value={a.id}>
              {[a.first_line, a.city, a.postal_code, a.country_code].filter(Boolean).join(", ")}
            </option>
          ))}
        </SelectField>
        <SelectField label="Discount" value={discountId} onChange={(e) => setDiscountId(e.target.value)}>
          <option value="">No discount</option>
          {(discounts.data?.data ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.description}
              {d.code ? ` (${d.code})` : ""}
            </option>
          ))}
        </SelectField>
        <SelectField label="Trial" value={trial} onChange={(e) => setTrial(e.target.value as Trial)}>
          <option value="price">As the prices say</option>
          <option value="none">No trial</option>
          <option value="days">A trial of some days</option>
        </SelectField>
        {trial === "days" && (
          <TextField
            label="Trial days"
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            error={fields.trial_days}
            className="w-32"
          />
        )}
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">How the customer pays</legend>
        {methodRows.map((m) => (
          <label key={m.id} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name={`${id}-collect`}
              value={`card:${m.id}`}
              checked={how === `card:${m.id}`}
              onChange={(e) => setCollect(e.target.value)}
              className="h-4 w-4 accent-brand-600"
            />
            Charge the saved card now: {cardLabel(m.card)}
          </label>
        ))}
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={`${id}-collect`}
            value="email"
            checked={how === "email"}
            onChange={(e) => setCollect(e.target.value)}
            className="h-4 w-4 accent-brand-600"
          />
          Email a checkout link to {email}
        </label>
        {methodRows.length === 0 && !methods.isLoading && (
          <p className="text-xs text-slate-600">No saved card: the customer pays at the checkout.</p>
        )}
      </fieldset>
      {dueToday && (
        <p className="text-sm text-slate-800" role="status" data-testid="due-today">
          Due today: <strong className="tabular-nums">{dueToday}</strong>, tax and discount included
          {how === "email" ? ", paid at the checkout." : ", charged to the card when you confirm."}
        </p>
      )}
      {declined && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-medium">The saved card was declined.</p>
          <p>
            Nothing was started. The{" "}
            <Link href={`/transactions/${declined.id}`} className="underline">
              transaction
            </Link>{" "}
            is still open: email the customer its checkout link to pay with another card.
          </p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => emailLink(declined.id)}>
            Email the checkout link
          </Button>
        </div>
      )}
      <FormError
        message={problems?.message && Object.keys(fields).length === 0 ? problems.message : null}
        other={unplaced.map(([field, message]) => ({ field, message }))}
        requestId={problems?.requestId}
      />
      <FormActions>
        <Button type="submit" pending={pending} pendingLabel="Starting…">
          {how === "email"
            ? "Send checkout link"
            : dueToday
              ? `Charge ${dueToday} and start subscription`
              : "Charge and start subscription"}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
