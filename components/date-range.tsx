"use client";

import { useId } from "react";

/** Two labelled date inputs for a range of days (both included), such as "Next billing from … to …". */
export function DateRange({
  label,
  from,
  to,
  onChange,
}: {
  /** "Next billing": the legend, and the first input's label with "from". */
  label: string;
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
}) {
  const id = useId();
  const input = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">{label} between</legend>
      <label htmlFor={`${id}-from`} className="text-sm font-medium text-slate-700">
        {label} from
      </label>
      <input
        id={`${id}-from`}
        type="date"
        value={from}
        max={to || undefined}
        onChange={(event) => onChange({ from: event.target.value, to })}
        className={input}
      />
      <label htmlFor={`${id}-to`} className="text-sm font-medium text-slate-700">
        to
      </label>
      <input
        id={`${id}-to`}
        type="date"
        value={to}
        min={from || undefined}
        onChange={(event) => onChange({ from, to: event.target.value })}
        className={input}
      />
    </fieldset>
  );
}
