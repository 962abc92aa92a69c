"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { CheckboxField } from "@/components/form";
import { LoadingBlock } from "@/components/states";
import { useToast } from "@/components/toast";
import { ApiClientError } from "@/lib/dashboard/api";
import { useCatalogue } from "@/lib/dashboard/catalogue";
import { billingCycleText, formatMoney } from "@/lib/dashboard/money";
import { type AccountSettings, useUpdateAccountSettings } from "@/lib/dashboard/settings";

/**
 * Settings → Customer portal: the recurring prices customers may switch between in the portal
 * (monthly ↔ yearly, another plan). A customer whose subscription has one item on a listed price
 * is offered the other listed prices of its currency, with what switching charges, and the
 * change is billed prorated now (lib/services/portal/plans.ts).
 */
export function PortalPlansForm({ settings }: { settings: AccountSettings }) {
  const catalogue = useCatalogue("active");
  const save = useUpdateAccountSettings();
  const toast = useToast();
  const [chosen, setChosen] = useState<string[]>(settings.portal_plan_price_ids);
  const products = (catalogue.data?.pages ?? [])
    .flatMap((page) => page.data)
    .map((product) => ({
      product,
      prices: (product.prices ?? []).filter((p) => p.billing_cycle && p.status === "active"),
    }))
    .filter((entry) => entry.prices.length > 0);
  const changed = JSON.stringify(chosen) !== JSON.stringify(settings.portal_plan_price_ids);
  const toggle = (id: string, on: boolean) =>
    setChosen((list) => (on ? [...list.filter((x) => x !== id), id] : list.filter((x) => x !== id)));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    try {
      await save.mutateAsync({ portal_plan_price_ids: chosen });
      toast.show("Portal plans saved.");
    } catch {
      // Shown below.
    }
  }

  if (catalogue.isLoading) return <LoadingBlock label="Loading prices…" />;
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Plans customers may switch between">
      {products.length === 0 ? (
        <p className="text-sm text-slate-600">No active recurring prices yet: add them in the catalogue first.</p>
      ) : (
        <fieldset className="space-y-4">
          <legend className="text-sm text-slate-700">
            Customers can switch a subscription between the prices ticked here, from the customer portal. Leave all
            unticked to offer no plan changes.
          </legend>
          {products.map(({ product, prices }) => (
            <div key={product.id}>
              <p className="text-sm font-semibold text-slate-900">{product.name}</p>
              <div className="mt-1 grid gap-2 sm:grid-cols-2">
                {prices.map((price) => (
                  <CheckboxField
                    key={price.id}
                    label={`${price.name ?? price.description} · ${formatMoney(price.unit_price.amount, price.unit_price.currency_code)} ${billingCycleText(price.billing_cycle).toLowerCase()}`}
                    checked={chosen.includes(price.id)}
                    onChange={(event) => toggle(price.id, event.target.checked)}
                  />
                ))}
              </div>
            </div>
          ))}
        </fieldset>
      )}
      {save.error && (
        <p role="alert" className="text-sm text-red-800">
          {save.error instanceof ApiClientError ? save.error.message : "Could not save. Try again."}
        </p>
      )}
      <Button type="submit" disabled={!changed} pending={save.isPending} pendingLabel="Saving…">
        Save portal plans
      </Button>
    </form>
  );
}
