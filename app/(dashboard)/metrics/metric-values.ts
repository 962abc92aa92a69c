/** What the metric sections share: the range they show, number formats, and their queries' state. */
import { formatMoney } from "@/lib/dashboard/money";

export type Range = { from: string; to: string };

export const money = (currency: string) => (value: number) => formatMoney(String(Math.round(value)), currency);
export const count = (value: number) => Math.round(value).toLocaleString();
export const negative = (amount: string) => (amount === "0" ? "0" : `-${amount}`);

/** Every query's state at once: ready when all have data. */
export function combine(
  queries: { data?: unknown; error: Error | null; isPlaceholderData: boolean; refetch: () => unknown }[],
) {
  return {
    ready: queries.every((q) => q.data !== undefined),
    error: queries.find((q) => q.error)?.error ?? null,
    fetching: queries.some((q) => q.isPlaceholderData),
    retry: () => {
      for (const q of queries) q.refetch();
    },
  };
}
