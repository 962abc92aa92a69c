import { type BadgeTone, StatusBadge } from "@/components/status-badge";
import { formatMoney } from "@/lib/dashboard/money";
import { refundLabel, type TransactionStatus } from "@/lib/dashboard/transactions";

/** A transaction's badge colour: billed waits for payment (amber), canceled and past due are red. */
const TONES: Record<TransactionStatus, BadgeTone> = {
  draft: "slate",
  ready: "blue",
  billed: "amber",
  paid: "green",
  completed: "green",
  canceled: "red",
  past_due: "red",
};

export function TransactionStatusBadge({ status }: { status: TransactionStatus }) {
  return <StatusBadge status={status} tone={TONES[status]} />;
}

/** "Refunded" or "Partially refunded" as a badge beside the status, when adjustments took money back. */
export function RefundBadge({ transaction }: { transaction: Parameters<typeof refundLabel>[0] }) {
  const label = refundLabel(transaction);
  return label ? <StatusBadge status={label} tone="amber" /> : null;
}

/** An amount in minor units, formatted in its currency, with tabular digits for columns. */
export function Amount({ amount, currency }: { amount: string; currency: string }) {
  return <span className="tabular-nums whitespace-nowrap">{formatMoney(amount, currency)}</span>;
}

export function transactionPath(id: string): string {
  return `/transactions/${id}`;
}
