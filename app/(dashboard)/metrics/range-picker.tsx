"use client";

import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/button";
import {
  customRangeErrors,
  presetRange,
  RANGE_PRESETS,
  type RangePreset,
  type ShownRange,
} from "@/lib/dashboard/metrics";

export type Choice = { kind: "preset"; preset: RangePreset } | { kind: "custom"; range: ShownRange };

export const segment = (active: boolean) =>
  `rounded-md px-3 py-1.5 text-sm font-medium transition-colors ${
    active ? "bg-brand-600 text-white shadow-sm" : "text-slate-700 hover:bg-slate-100"
  }`;

const dateInput = (invalid: boolean) =>
  `rounded-md border bg-white px-2 py-1.5 text-sm ${invalid ? "border-red-500" : "border-slate-300"}`;

export function shownRange(choice: Choice, today: string): ShownRange {
  return choice.kind === "preset" ? presetRange(choice.preset, today) : choice.range;
}

/** Custom from/to dates (both included), checked before anything is asked of the API. */
function CustomRange({ initial, onApply }: { initial: ShownRange; onApply: (range: ShownRange) => void }) {
  const id = useId();
  const [range, setRange] = useState(initial);
  const [errors, setErrors] = useState<{ first?: string; last?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = customRangeErrors(range);
    setErrors(found);
    if (!found.first && !found.last) onApply(range);
  };
  return (
    <form aria-label="Custom range" noValidate onSubmit={submit} className="flex flex-wrap items-start gap-3">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-from`} className="text-sm font-medium text-slate-700">
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={range.first}
          onChange={(event) => setRange({ ...range, first: event.target.value })}
          aria-invalid={errors.first ? true : undefined}
          aria-describedby={errors.first ? `${id}-from-error` : undefined}
          className={dateInput(Boolean(errors.first))}
        />
        {errors.first && (
          <p id={`${id}-from-error`} className="text-xs text-red-700">
            {errors.first}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-to`} className="text-sm font-medium text-slate-700">
          To (included)
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={range.last}
          onChange={(event) => setRange({ ...range, last: event.target.value })}
          aria-invalid={errors.last ? true : undefined}
          aria-describedby={errors.last ? `${id}-to-error` : undefined}
          className={dateInput(Boolean(errors.last))}
        />
        {errors.last && (
          <p id={`${id}-to-error`} className="text-xs text-red-700">
            {errors.last}
          </p>
        )}
      </div>
      <Button type="submit" variant="secondary" className="mt-6">
        Apply
      </Button>
    </form>
  );
}

/** The range every chart of the page shows: presets ending today, or a custom range. */
export function RangePicker({
  choice,
  onChange,
  today,
}: {
  choice: Choice;
  onChange: (choice: Choice) => void;
  today: string;
}) {
  const [customOpen, setCustomOpen] = useState(false);
  const shown = shownRange(choice, today);
  return (
    <div className="mb-6 flex flex-wrap items-start gap-4">
      <fieldset className="flex flex-wrap items-center gap-1 rounded-lg border border-slate-200 bg-white p-1 shadow-sm">
        <legend className="sr-only">Date range</legend>
        {RANGE_PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            aria-pressed={choice.kind === "preset" && choice.preset === preset.id}
            className={segment(choice.kind === "preset" && choice.preset === preset.id)}
            onClick={() => {
              onChange({ kind: "preset", preset: preset.id });
              setCustomOpen(false);
            }}
          >
            {preset.label}
          </button>
        ))}
        <button
          type="button"
          aria-pressed={choice.kind === "custom" || customOpen}
          aria-expanded={customOpen}
          className={segment(choice.kind === "custom" || customOpen)}
          onClick={() => setCustomOpen(!customOpen)}
        >
          Custom
        </button>
      </fieldset>
      {customOpen && (
        <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
          <CustomRange initial={shown} onApply={(range) => onChange({ kind: "custom", range })} />
        </div>
      )}
    </div>
  );
}
