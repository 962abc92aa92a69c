"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDebounced } from "@/components/debounce";
import { ApiClientError, api } from "@/lib/dashboard/api";
import type { EntityResponse } from "@/lib/dashboard/hooks";
import { fieldErrorText, type InvoiceDraft, previewBody } from "@/lib/dashboard/invoice-draft";
import { taxRateText } from "@/lib/dashboard/transactions";
import type { TransactionDetails } from "@/lib/schemas/transaction";
import { Amount } from "../transaction-parts";

/** How long typing must pause before the totals are asked for again. */
const DEBOUNCE_MS = 400;

interface Preview {
  currency_code: string;
  details: Pick<TransactionDetails, "tax_rates_used" | "totals" | "line_items">;
}

/**
 * The invoice's totals as POST /transactions/preview prices them (the same engine as the invoice
 * itself), asked for again once edits pause. The last totals stay on screen while new ones load.
 */
export function TotalsPreview({ draft }: { draft: InvoiceDraft }) {
  const body = previewBody(draft);
  const bodyText = useDebounced(body ? JSON.stringify(body) : null, DEBOUNCE_MS);
  const pendingInput = (body ? JSON.stringify(body) : null) !== bodyText;
  const preview = useQuery({
    queryKey: ["transaction-preview", bodyText],
    queryFn: async () =>
      (
        await api<EntityResponse<Preview>>("/transactions/preview", {
          method: "POST",
          body: JSON.parse(bodyText ?? "{}"),
        })
      ).data,
    enabled: bodyText !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const updating = bodyText !== null && (pendingInput || preview.isFetching);
  const data = body ? preview.data : undefined;
  const totals = data?.details.totals;
  const currency = data?.currency_code ?? draft.currency;

  return (
    <aside
      aria-labelledby="totals-heading"
      className="rounded-lg border border-slate-200 bg-white shadow-sm lg:sticky lg:top-6"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
        <h2 id="totals-heading" className="text-base font-semibold text-slate-900">
          Totals
        </h2>
        <span role="status" aria-live="polite" className="text-xs text-slate-500">
          {updating ? "Updating…" : ""}
        </span>
      </div>
      <div className={`px-5 py-4 text-sm ${updating ? "opacity-60" : ""}`} aria-busy={updating}>
        {!body ? (
          <p className="text-slate-600">Add an item to see the totals.</p>
        ) : preview.error && !pendingInput ? (
          <div role="alert" className="text-red-700">
            <p className="font-medium">Cannot price this invoice yet.</p>
            {preview.error instanceof ApiClientError && preview.error.errors.length > 0 ? (
              <ul className="mt-1 list-disc pl-5">
                {preview.error.errors.map((e) => (
                  <li key={`${e.field}:${e.message}`}>{fieldErrorText(e.field, e.message)}</li>
                ))}
              </ul>
            ) : (
              <p className="mt-1">{preview.error.message}</p>
            )}
          </div>
        ) : !totals ? (
          <p className="text-slate-600">Pricing…</p>
        ) : (
          <dl className="divide-y divide-slate-100" data-testid="totals">
            <div className="flex justify-between gap-4 py-2">
              <dt className="text-slate-600">Subtotal</dt>
              <dd>
                <Amount amount={totals.subtotal} currency={currency} />
              </dd>
            </div>
            <div className="flex justify-between gap-4 py-2">
              <dt className="text-slate-600">Discount</dt>
              <dd>
                {totals.discount === "0" ? "" : "−"}
                <Amount amount={totals.discount} currency={currency} />
              </dd>
            </div>
            {data.details.tax_rates_used.length === 0 ? (
              <div className="flex justify-between gap-4 py-2">
                <dt className="text-slate-600">Tax{draft.address ? "" : " (choose an address)"}</dt>
                <dd>
                  <Amount amount={totals.tax} currency={currency} />
                </dd>
              </div>
            ) : (
              data.details.tax_rates_used.map((rate) => (
                <div key={rate.tax_rate} className="flex justify-between gap-4 py-2">
                  <dt className="text-slate-600">Tax {taxRateText(rate.tax_rate)}</dt>
                  <dd>
                    <Amount amount={rate.totals.tax} currency={currency} />
                  </dd>
                </div>
              ))
            )}
            <div className="flex justify-between gap-4 pt-3 text-base font-semibold">
              <dt>Total</dt>
              <dd>
                <Amount amount={totals.grand_total} currency={currency} />
              </dd>
            </div>
          </dl>
        )}
      </div>
    </aside>
  );
}
