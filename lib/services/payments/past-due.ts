import { query, sqlTransaction } from "../../db/sql.ts";
import { markTransactionsPastDue } from "../transactions/moves.ts";

// ---------------------------------------------------------------------------------------------
// Past due

/**
 * When the invoice of the transaction row `t` is due: billed_at + its payment terms (PostgreSQL's
 * calendar arithmetic: the 31st plus a month is the last day of a shorter month, as
 * lib/billing/billing-dates.ts). Null without terms.
 */
export const INVOICE_DUE_AT = `(t.billed_at + ((t.billing_details->'payment_terms'->>'frequency') || ' '
  || (t.billing_details->'payment_terms'->>'interval'))::interval)`;

/**
 * Moves every manual `billed` transaction whose due date (billed_at + payment terms, calendar
 * arithmetic of PostgreSQL intervals) is at or before `at` to `past_due`, with the events
 * `transaction.updated` and `transaction.past_due`. Rows another worker holds are skipped (it is
 * moving them, or paying them). Returns the IDs moved. Run by the worker's cron
 * (lib/worker/worker.ts) and callable directly. Invoices of subscriptions are left to the
 * subscription engine (lib/services/subscriptions/engine.ts), which moves the subscription with
 * them at the due date on the subscription's own clock.
 */
export async function markPastDueTransactions(at: Date = new Date(), batch = 500): Promise<string[]> {
  const moved: string[] = [];
  for (;;) {
    const ids = await sqlTransaction(async (client) => {
      const due = await query<{ id: string }>(
        `SELECT t.id FROM transactions t
          WHERE t.status = 'billed' AND t.collection_mode = 'manual' AND t.billed_at IS NOT NULL
            AND t.subscription_id IS NULL
            AND ${INVOICE_DUE_AT} <= $1
          ORDER BY t.id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [at, batch],
        client,
      );
      return markTransactionsPastDue(
        client,
        due.map((row) => row.id),
      );
    });
    moved.push(...ids);
    if (ids.length < batch) return moved;
  }
}
