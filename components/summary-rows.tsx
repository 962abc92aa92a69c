import type { ReactNode } from "react";

/**
 * What an action will do, as term and amount rows (a preview's charge and credit, a refund's lines
 * and total): a description list whose values line up on the right. `strong` marks the row that
 * sums the others.
 */
export function SummaryList({
  label,
  className = "",
  children,
}: {
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <dl aria-label={label} className={`divide-y divide-slate-200 text-sm ${className}`}>
      {children}
    </dl>
  );
}

export function SummaryRow({ term, children, strong }: { term: ReactNode; children: ReactNode; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 py-1.5 ${strong ? "font-semibold text-slate-900" : ""}`}>
      <dt className={strong ? "" : "text-slate-600"}>{term}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}
