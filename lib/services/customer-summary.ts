/**
 * A customer's lifetime spend and amount due per currency (GET /customers/{id}/summary, ours),
 * summed in SQL over every transaction of the customer (the (customer_id, id) index), so a
 * customer with thousands of invoices gets the exact figures, not the first pages' sum.
 */
import { query } from "../db/sql.ts";
import { notFound } from "../errors.ts";
import type { CustomerSummary } from "../schemas/customer.ts";

type Sum = {
  kind: "spend" | "due" | null;
  currency_code: string;
  amount: string;
  transactions: number;
  past_due: number;
};

export async function customerSummary(customerId: string): Promise<CustomerSummary> {
  const [customer] = await query("SELECT 1 FROM customers WHERE id = $1", [customerId]);
  if (!customer) throw notFound(customerId);
  const sums = await query<Sum>(
    `SELECT CASE WHEN status = 'completed' THEN 'spend' WHEN status IN ('billed', 'past_due') THEN 'due' END AS kind,
            currency_code,
            sum(CASE WHEN status = 'completed'
                     THEN coalesce(details->'adjusted_totals'->>'grand_total', details->'totals'->>'grand_total')
                     WHEN status IN ('billed', 'past_due') THEN details->'totals'->>'balance' END::numeric)::text AS amount,
            count(*)::int AS transactions,
            count(*) FILTER (WHERE status = 'past_due')::int AS past_due
       FROM transactions WHERE customer_id = $1
      GROUP BY 1, 2 ORDER BY 2`,
    [customerId],
  );
  const of = (kind: Sum["kind"]) => sums.filter((sum) => sum.kind === kind);
  return {
    customer_id: customerId,
    transactions: sums.reduce((count, sum) => count + sum.transactions, 0),
    lifetime_spend: of("spend").map(({ currency_code, amount, transactions }) => ({
      currency_code,
      amount,
      transactions,
    })),
    amount_due: of("due").map(({ currency_code, amount, transactions, past_due }) => ({
      currency_code,
      amount,
      transactions,
      past_due,
    })),
  };
}
