import type { ReactNode } from "react";

export interface DescriptionItem {
  term: string;
  value: ReactNode;
  /** Spans both columns (long values such as JSON). */
  wide?: boolean;
}

/** The fields of one entity as term/value pairs. */
export function DescriptionList({ items }: { items: DescriptionItem[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-8 gap-y-4 sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.term} className={item.wide ? "sm:col-span-2" : ""}>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{item.term}</dt>
          <dd className="mt-1 text-sm break-words text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** `custom_data` and other JSON, read-only. */
export function JsonBlock({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-500">—</span>;
  return (
    <pre className="max-h-64 overflow-auto rounded-md bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
