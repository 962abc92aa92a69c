"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/button";
import { FormError } from "@/components/form";
import { Section } from "@/components/page-header";
import { api, type ListResponse, query } from "@/lib/dashboard/api";
import { formatDateTime, humanize, pluralize } from "@/lib/dashboard/display";
import { formErrors } from "@/lib/dashboard/form";
import { addDays, type Subscription, useAdvanceTestClock, useTestClock } from "@/lib/dashboard/subscriptions";
import type { TransactionWithIncludes } from "@/lib/dashboard/transactions";
import { Amount, TransactionStatusBadge, transactionPath } from "../../transactions/transaction-parts";
import { SubscriptionStatusBadge } from "../subscription-parts";

interface Outcome {
  to: string;
  before: Subscription;
  after: Subscription;
  transactions: TransactionWithIncludes[];
}

async function subscriptionTransactions(id: string): Promise<TransactionWithIncludes[]> {
  const page = await api<ListResponse<TransactionWithIncludes>>(
    `/transactions${query({ subscription_id: id, per_page: 200, order_by: "id[DESC]" })}`,
  );
  return page.data;
}

/**
 * The sandbox's test clock (POST /subscriptions/{id}/test-clock/advance): moves this subscription's
 * time forward, running its renewals, scheduled changes and dunning retries that fall due, then
 * says what happened (the status before and after, the transactions it made).
 */
export function TestClock({ sub }: { sub: Subscription }) {
  const advance = useAdvanceTestClock(sub);
  const [days, setDays] = useState("1");
  // The clock is not part of the subscription: the API says where it stands (sandbox only).
  const testClock = useTestClock(sub.id);
  const clock = testClock.data?.now ?? null;
  const clockReady = clock !== null && !testClock.isFetching;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The next thing due: a renewal, or a scheduled change with no renewal before it.
  const nextRenewal = sub.next_billed_at;
  const nextChange = sub.scheduled_change?.effective_at ?? null;
  const validDays = /^\d{1,4}$/.test(days) && Number(days) >= 1;

  async function run(to: string) {
    const before = sub;
    advance.reset();
    setOutcome(null);
    try {
      const known = new Set((await subscriptionTransactions(sub.id)).map((t) => t.id));
      const after = await advance.mutateAsync(to);
      const transactions = (await subscriptionTransactions(sub.id)).filter((t) => !known.has(t.id));
      setOutcome({ to, before, after, transactions });
    } catch {
      // Refused (shown below): the clock may stand elsewhere than this page last read.
      await testClock.refetch();
    }
  }

  const refusal = advance.error ? formErrors(advance.error, [], undefined, { listPlaced: true }) : null;

  return (
    <Section
      title="Test clock"
      description="Sandbox only: move this subscription's time forward to see its renewals, scheduled changes and dunning happen. Other subscriptions are not affected; the clock never goes back."
    >
      <p className="text-sm text-slate-700">
        Clock at {clock ? <time dateTime={clock}>{formatDateTime(clock)}</time> : "…"}
        {nextRenewal && (
          <>
            {" "}
            · next renewal <time dateTime={nextRenewal}>{formatDateTime(nextRenewal)}</time>
          </>
        )}
        {nextChange && !nextRenewal && (
          <>
            {" "}
            · scheduled {sub.scheduled_change?.action} <time dateTime={nextChange}>{formatDateTime(nextChange)}</time>
          </>
        )}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        {nextRenewal ? (
          <Button onClick={() => run(nextRenewal)} pending={advance.isPending} pendingLabel="Advancing…">
            Advance to next renewal
          </Button>
        ) : nextChange ? (
          <Button onClick={() => run(nextChange)} pending={advance.isPending} pendingLabel="Advancing…">
            Advance to the scheduled {sub.scheduled_change?.action}
          </Button>
        ) : null}
        <div className="flex items-end gap-2">
          <div>
            <label htmlFor="test-clock-days" className="block text-sm font-medium text-slate-700">
              Days
            </label>
            <input
              id="test-clock-days"
              type="number"
              min={1}
              max={3660}
              value={days}
              aria-invalid={validDays ? undefined : true}
              onChange={(event) => setDays(event.target.value)}
              className="mt-1 w-24 rounded-md border border-slate-300 px-2 py-2 text-sm aria-[invalid=true]:border-red-500"
            />
          </div>
          <Button
            variant="secondary"
            disabled={!validDays || !clockReady || advance.isPending}
            onClick={() => clock && run(addDays(clock, Number(days)))}
          >
            Advance {validDays ? pluralize(Number(days), "day") : "days"}
          </Button>
        </div>
      </div>

      {refusal && (
        <div className="mt-3">
          <FormError message={refusal.message} other={refusal.other} requestId={refusal.requestId} />
        </div>
      )}

      {outcome && (
        <div
          role="status"
          aria-label="What happened"
          className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm"
        >
          <p className="font-semibold text-emerald-900">Clock moved to {formatDateTime(outcome.to)}.</p>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-800">
            Status: <SubscriptionStatusBadge status={outcome.before.status} />
            {outcome.after.status !== outcome.before.status ? (
              <>
                <span aria-hidden="true">→</span>
                <span className="sr-only">became</span>
                <SubscriptionStatusBadge status={outcome.after.status} />
              </>
            ) : (
              " (unchanged)"
            )}
            {outcome.after.next_billed_at && <> · next renewal {formatDateTime(outcome.after.next_billed_at)}</>}
          </p>
          {outcome.transactions.length === 0 ? (
            <p className="mt-1 text-slate-700">No transaction was made.</p>
          ) : (
            <>
              <p className="mt-1 text-slate-800">{pluralize(outcome.transactions.length, "new transaction")}:</p>
              <ul className="mt-1 space-y-1">
                {outcome.transactions.map((t) => (
                  <li key={t.id} className="flex flex-wrap items-center gap-2">
                    <Link href={transactionPath(t.id)} className="text-brand-700 hover:underline">
                      {t.invoice_number ?? t.id}
                    </Link>
                    <span>{humanize(t.origin)}</span>
                    <TransactionStatusBadge status={t.status} />
                    <Amount amount={t.details.totals.grand_total} currency={t.currency_code} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </Section>
  );
}
