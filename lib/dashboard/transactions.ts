/**
 * TanStack Query hooks and display helpers for transactions: the list (with each transaction's
 * customer), one transaction with its customer, address, business, discount and adjustments, and
 * the two status changes the dashboard makes (issue the invoice: `billed`; cancel: `canceled`).
 */
import { canBill, canCancel as canCancelStatus } from "@/lib/billing/transaction-states";
import type { Discount } from "../schemas/discount.ts";
import {
  COLLECTION_MODES,
  TRANSACTION_STATUSES,
  type Transaction,
  type TransactionStatus,
} from "../schemas/transaction.ts";
import { api } from "./api.ts";
import { type Address, type Business, type Customer, customerKeys } from "./customers.ts";
import { humanize } from "./display.ts";
import { type EntityResponse, enc, type ListParams, useEntity, useList, useSave } from "./hooks.ts";
import { fractionToPercent } from "./settings.ts";

export type { Transaction, TransactionStatus };
export { COLLECTION_MODES, TRANSACTION_STATUSES };

/** A transaction with the entities `include` adds (null when the transaction has none). */
export interface TransactionWithIncludes extends Transaction {
  customer?: Customer | null;
  address?: Address | null;
  business?: Business | null;
  discount?: Discount | null;
  adjustments?: Record<string, unknown>[];
}

export type TransactionLineItem = Transaction["details"]["line_items"][number];

/** What the list shows beside each transaction. */
const LIST_INCLUDE = "customer,business";
/** What a transaction's page shows. */
const DETAIL_INCLUDE = "customer,address,business,discount,adjustments";

export const transactionKeys = {
  all: ["transactions"] as const,
  lists: ["transactions", "list"] as const,
  detail: (id: string) => ["transactions", "detail", id] as const,
};

export function useTransactions(params: ListParams, enabled = true) {
  return useList<TransactionWithIncludes>(
    transactionKeys.lists,
    "/transactions",
    { ...params, include: LIST_INCLUDE },
    enabled,
  );
}

export function useTransaction(id: string) {
  return useEntity<TransactionWithIncludes>(
    transactionKeys.detail(id),
    `/transactions/${enc(id)}?include=${DETAIL_INCLUDE}`,
  );
}

/** The status changes a PATCH can ask for. */
export type StatusChange = "billed" | "canceled";

/** PATCH {status}: the page gets the transaction back (with its includes); every list refreshes. */
export function useChangeTransactionStatus(id: string) {
  return useSave(
    async (status: StatusChange) =>
      (
        await api<EntityResponse<TransactionWithIncludes>>(`/transactions/${enc(id)}?include=${DETAIL_INCLUDE}`, {
          method: "PATCH",
          body: { status },
        })
      ).data,
    () => [transactionKeys.lists],
    () => transactionKeys.detail(id),
  );
}

/** Spec: States and transitions (lib/billing/transaction-states.ts, shared with the API). */
export function canIssueInvoice(transaction: Pick<Transaction, "status">): boolean {
  return canBill(transaction.status);
}

export function canCancel(transaction: Pick<Transaction, "status">): boolean {
  return canCancelStatus(transaction.status);
}

/**
 * "0.2" → "20%", "0.0725" → "7.25%": a tax rate (a decimal fraction as a string) as a percentage,
 * exactly (settings.ts fractionToPercent); anything else is shown as it is.
 */
export function taxRateText(rate: string): string {
  return /^\d*(?:\.\d*)?$/.test(rate) ? `${fractionToPercent(rate)}%` : rate;
}

/**
 * "Refunded" or "Partially refunded" when adjustments took money back (the adjusted grand total
 * below the grand total), else null.
 */
export function refundLabel(transaction: {
  details: { totals: { grand_total: string }; adjusted_totals?: { grand_total: string } | null };
}): "Refunded" | "Partially refunded" | null {
  const adjusted = transaction.details.adjusted_totals?.grand_total;
  const total = transaction.details.totals.grand_total;
  if (adjusted === undefined || adjusted === total || BigInt(adjusted) >= BigInt(total)) return null;
  return BigInt(adjusted) <= 0n ? "Refunded" : "Partially refunded";
}

/** A date input's value (YYYY-MM-DD) → the first instant of that day in the viewer's time zone. */
export function startOfDayIso(date: string): string {
  return new Date(`${date}T00:00:00`).toISOString();
}

/** A date input's value → the first instant of the next day (the exclusive end of a "to" date). */
export function startOfNextDayIso(date: string): string {
  const day = new Date(`${date}T00:00:00`);
  day.setDate(day.getDate() + 1);
  return day.toISOString();
}

/** A customer ID as the API accepts it in `customer_id`. */
export function isCustomerId(value: string): boolean {
  return /^ctm_[a-z0-9]{26}$/.test(value);
}

/** The collection-mode filter of the transactions and subscriptions lists. */
export const COLLECTION_MODE_OPTIONS = [
  { value: "", label: "All" },
  ...COLLECTION_MODES.map((mode) => ({ value: mode, label: humanize(mode) })),
];

/**
 * The payment filter of the transactions list: `failed` keeps the unresolved payment failures (the
 * API's `payment_failed=true`: the latest attempt failed, not paid or canceled since).
 */
export const PAYMENT_OPTIONS = [
  { value: "", label: "All" },
  { value: "failed", label: "Last attempt failed" },
];

/**
 * A list's customer filter given as an email (or part of one, or a name): the customers that match
 * it (GET /customers?search=, at most a page of them), as the `customer_id` filter of the list.
 * An empty term or a customer ID needs no lookup (`term` null).
 */
export function useCustomerMatch(term: string | null) {
  const lookup = term !== null && term !== "" && !isCustomerId(term);
  const matching = useList<Customer>(customerKeys.lists, "/customers", { search: term ?? "", per_page: 50 }, lookup);
  const ids = lookup ? (matching.data?.data.map((c) => c.id) ?? []) : [];
  const searching = lookup && (matching.isLoading || matching.isPlaceholderData);
  return {
    /** What to send as `customer_id`: the term itself when it is an ID, else the matches. */
    customerId: lookup ? ids.join(",") : term || undefined,
    searching,
    noMatches: lookup && !searching && ids.length === 0,
  };
}
