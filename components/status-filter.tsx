"use client";

import { useId } from "react";

export interface FilterOption {
  value: string;
  label: string;
}

/** A labelled select for filtering a list by status. */
export function StatusFilter({
  label = "Status",
  context,
  value,
  options,
  onChange,
  selectClassName = "",
}: {
  label?: string;
  /** Read before the label by screen readers when a page has several filters ("Address" status). */
  context?: string;
  value: string;
  options: readonly FilterOption[];
  onChange: (value: string) => void;
  /** More classes for the select (a maximum width for long option names). */
  selectClassName?: string;
}) {
  const id = useId();
  return (
    // min-w-0/max-w-full: a long option (a destination's name) shrinks the select, never the page.
    <div className="flex min-w-0 max-w-full items-center gap-2">
      <label htmlFor={id} className="shrink-0 text-sm font-medium text-slate-700">
        {context && <span className="sr-only">{context} </span>}
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`min-w-0 max-w-full rounded-md border border-slate-300 bg-white py-2 pr-8 pl-3 text-sm ${selectClassName}`}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
