"use client";

import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { ApiClientError } from "@/lib/dashboard/api";
import { billingCycleText, formatMoney } from "@/lib/dashboard/money";
import type { PlanOption } from "@/lib/services/portal/plans";
import { portalApi } from "../../../portal-client";
import { dateText } from "../../../ui";

interface Preview {
  charged_now: { amount: string; at: string } | null;
  next_payment: { amount: string; at: string } | null;
  currency_code: string;
}

const cycleWord = (cycle: { interval: string; frequency: number }) =>
  cycle.frequency === 1 ? `a ${cycle.interval}` : `every ${cycle.frequency} ${cycle.interval}s`;

const everyWord = (cycle: { interval: string; frequency: number }) =>
  cycle.frequency === 1 ? `every ${cycle.interval}` : `every ${cycle.frequency} ${cycle.interval}s`;

/** "Yearly · $300.00 a year": a plan by its customer-facing names, never the internal description. */
function planLabel(option: PlanOption): string {
  const name = option.price_name ?? billingCycleText(option.billing_cycle);
  return `${option.product_name} · ${name}`;
}

/**
 * The plans the merchant offers, one chosen at a time; what switching charges now and next comes
 * from the preview of the same change, and the switch is confirmed in a dialog that repeats it.
 */
export function ChangePlanForm({
  subscriptionId,
  currentCycle,
  quantity,
  options,
  card,
}: {
  subscriptionId: string;
  currentCycle: { interval: string; frequency: number };
  quantity: number;
  options: PlanOption[];
  card: string;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!chosen) return;
    let live = true;
    setPreview(null);
    setError(null);
    setLoading(true);
    portalApi<Preview>(`/subscriptions/${subscriptionId}/change-plan/preview`, {
      method: "POST",
      body: { price_id: chosen },
    })
      .then((result) => live && setPreview(result))
      .catch((e) => live && setError(e instanceof ApiClientError ? e.message : "Something went wrong. Try again."))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [chosen, subscriptionId]);

  const option = options.find((o) => o.price_id === chosen) ?? null;
  const money = (amount: string) => formatMoney(amount, preview?.currency_code ?? option?.currency_code ?? "USD");
  const nowText = preview?.charged_now
    ? BigInt(preview.charged_now.amount) > 0n
      ? `${money(preview.charged_now.amount)} is charged today (${dateText(preview.charged_now.at)}) to your ${card}.`
      : "Nothing is charged today."
    : "Nothing is charged today.";
  const nextText = preview?.next_payment
    ? `Then ${money(preview.next_payment.amount)} on ${dateText(preview.next_payment.at)}.`
    : "";

  async function confirm() {
    if (!chosen) return;
    setPending(true);
    setError(null);
    try {
      await portalApi(`/subscriptions/${subscriptionId}/change-plan`, { method: "POST", body: { price_id: chosen } });
      setOpen(false);
      setDone(true);
    } catch (e) {
      setError(e instanceof ApiClientError ? e.message : "Something went wrong. Try again.");
    } finally {
      setPending(false);
    }
  }

  if (done && option) {
    return (
      <div role="status" className="mt-4 space-y-3 text-sm text-slate-700" data-testid="plan-changed">
        <p>
          Done: you are now on <strong>{planLabel(option)}</strong>. {nextText}
        </p>
        <Link href="/portal/overview" className="font-medium text-brand-700 hover:underline">
          Back to your subscriptions
        </Link>
      </div>
    );
  }

  return (
    <div className="mt-4 space-y-4 text-sm text-slate-700">
      <fieldset>
        <legend className="font-medium text-slate-900">Choose a plan</legend>
        <p className="text-slate-600">
          Your plan is billed {everyWord(currentCycle)} now{quantity > 1 ? ` for ${quantity}` : ""}. The time left in
          your current period is credited when you switch.
        </p>
        <div className="mt-3 space-y-2">
          {options.map((o) => (
            <label
              key={o.price_id}
              htmlFor={`${id}-${o.price_id}`}
              className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                id={`${id}-${o.price_id}`}
                name={id}
                value={o.price_id}
                checked={chosen === o.price_id}
                onChange={() => setChosen(o.price_id)}
                className="mt-0.5 h-4 w-4 accent-brand-600"
              />
              <span>
                <span className="block font-medium text-slate-900">{planLabel(o)}</span>
                <span className="block text-slate-600">
                  {formatMoney(o.unit_amount, o.currency_code)} {cycleWord(o.billing_cycle)}
                  {quantity > 1 ? ` each, × ${quantity}` : ""}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <section aria-label="What happens" aria-busy={loading || undefined} className="rounded-md bg-slate-50 p-3">
        {error && !open ? (
          <p role="alert" className="text-red-800">
            {error}
          </p>
        ) : !chosen ? (
          <p>Choose a plan to see what it costs.</p>
        ) : loading || !preview ? (
          <p role="status">Calculating…</p>
        ) : (
          <p data-testid="plan-preview">
            {nowText} {nextText}
          </p>
        )}
      </section>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => setOpen(true)} disabled={!preview || loading}>
          Switch plan
        </Button>
        <Link
          href="/portal/overview"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50"
        >
          Keep my plan
        </Link>
      </div>
      <ConfirmDialog
        open={open}
        tone="primary"
        title={option ? `Switch to ${planLabel(option)}?` : "Switch plan?"}
        description={`${nowText} ${nextText}`}
        confirmLabel="Yes, switch"
        cancelLabel="No, keep my plan"
        pending={pending}
        error={error}
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
      />
    </div>
  );
}
