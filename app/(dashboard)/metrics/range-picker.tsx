"use client";

import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/button";
import { TextField, useFocusOnError } from "@/components/form";
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

export function shownRange(choice: Choice, today: string): ShownRange {
  return choice.kind === "preset" ? presetRange(choice.preset, today) : choice.range;
}

/**
 * Custom from/to dates (both included), checked before anything is asked of the API. A filter, not
 * a form of the kit: Apply only changes the range the page shows (nothing is sent, nothing can be
 * refused by the server, there is nothing unsaved), so it takes the kit's fields and focus-on-error
 * but not `useForm`/`FormShell`.
 */
function CustomRange({ initial, onApply }: { initial: ShownRange; onApply: (range: ShownRange) => void }) {
  const [range, setRange] = useState(initial);
  const [errors, setErrors] = useState<{ first?: string; last?: string }>({});
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors.first || errors.last ? errors : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = customRangeErrors(range);
    setErrors(found);
    if (!found.first && !found.last) onApply(range);
  };
  return (
    <form
      ref={form}
      aria-label="Custom range"
      noValidate
      onSubmit={submit}
      className="flex flex-wrap items-start gap-3"
    >
      <TextField
        label="From"
        type="date"
        value={range.first}
        onChange={(event) => setRange({ ...range, first: event.target.value })}
        error={errors.first}
      />
      <TextField
        label="To (included)"
        type="date"
        value={range.last}
        onChange={(event) => setRange({ ...range, last: event.target.value })}
        error={errors.last}
      />
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
