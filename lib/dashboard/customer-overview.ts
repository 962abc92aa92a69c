/**
 * A customer's Overview section (customer page): GET /customers/{id}/summary with the customer's
 * latest transactions and subscriptions, and the timeline built from them.
 */
import { useQuery } from "@tanstack/react-query";
import type { CustomerSummary } from "../schemas/customer.ts";
import { api, type ListResponse, query } from "./api.ts";
import { enc } from "./hooks.ts";
import { formatMoney } from "./money.ts";

export interface OverviewTransaction {
  id: string;
  status: string;
  origin: string;
  invoice_number: string | null;
  currency_code: string;
  created_at: string;
  billed_at: string | null;
  details: { totals: { grand_total: string; balance: string }; adjusted_totals?: { grand_total: string } };
  payments: { status?: string; captured_at?: string | null; amount?: string }[];
}

export interface OverviewSubscription {
  id: string;
  status: string;
  started_at: string | null;
  canceled_at: string | null;
  paused_at: string | null;
  created_at: string;
}

export interface Moment {
  at: string;
  text: string;
  href?: string;
}

/** The timeline is made of the customer's latest transactions and subscriptions (one page each). */
const TIMELINE_PAGE = 50;

async function latest<T>(path: string, params: Record<string, string>): Promise<T[]> {
  return (await api<ListResponse<T>>(`${path}${query({ ...params, per_page: TIMELINE_PAGE })}`)).data;
}

/** The summary and the latest transactions and subscriptions (a role that may not read subscriptions sees none). */
export function useCustomerOverview(customerId: string) {
  return useQuery({
    queryKey: ["transactions", "list", "customer-overview", customerId],
    queryFn: async () => {
      const [summary, txns, subs] = await Promise.all([
        api<{ data: CustomerSummary }>(`/customers/${enc(customerId)}/summary`),
        latest<OverviewTransaction>("/transactions", { customer_id: customerId, order_by: "id[DESC]" }),
        latest<OverviewSubscription>("/subscriptions", { customer_id: customerId, order_by: "id[DESC]" }).catch(
          () => [] as OverviewSubscription[],
        ),
      ]);
      return { summary: summary.data, txns, subs };
    },
  });
}

/** What happened to the customer, newest first, in words: from their transactions and subscriptions. */
export function customerTimeline(created: string, txns: OverviewTransaction[], subs: OverviewSubscription[]): Moment[] {
  const moments: Moment[] = [{ at: created, text: "Became a customer" }];
  for (const t of txns) {
    const name = t.invoice_number ? `Invoice ${t.invoice_number}` : "Transaction";
    const href = `/transactions/${t.id}`;
    const total = formatMoney(t.details.totals.grand_total, t.currency_code);
    if (t.billed_at) moments.push({ at: t.billed_at, text: `${name} issued for ${total}`, href });
    else moments.push({ at: t.created_at, text: `${name} created for ${total}`, href });
    for (const payment of t.payments) {
      if (payment.status === "captured" && payment.captured_at) {
        moments.push({ at: payment.captured_at, text: `Paid ${total} (${name.toLowerCase()})`, href });
      }
    }
    if (t.status === "past_due") moments.push({ at: t.billed_at ?? t.created_at, text: `${name} is past due`, href });
  }
  for (const s of subs) {
    const href = `/subscriptions/${s.id}`;
    moments.push({ at: s.started_at ?? s.created_at, text: "Subscription started", href });
    if (s.paused_at) moments.push({ at: s.paused_at, text: "Subscription paused", href });
    if (s.canceled_at) moments.push({ at: s.canceled_at, text: "Subscription canceled", href });
  }
  return moments.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** How many invoices are open across currencies, and whether any is past due. */
export function openInvoices(summary: CustomerSummary | undefined): { open: number; pastDue: boolean } {
  return {
    open: summary?.amount_due.reduce((count, due) => count + due.transactions, 0) ?? 0,
    pastDue: summary?.amount_due.some((due) => due.past_due > 0) ?? false,
  };
}
