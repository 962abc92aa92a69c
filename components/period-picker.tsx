"use client";

import { useId } from "react";
import { INTERVALS, type Interval } from "@/lib/schemas/price";

/** Inline controls (not the forms' full-width ones): the number and the interval sit in one row. */
function inlineControl(invalid: boolean, extra: string): string {
  return `rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm disabled:bg-slate-50 ${
    invalid ? "border-red-500 focus:border-red-600" : "border-slate-300 focus:border-brand-500"
  } ${extra}`;
}

/** A period as a form holds it: the frequency as typed. */
export interface PeriodValue {
  frequency: string;
  interval: Interval;
}

/** The form's period → the API's `{ interval, frequency }` (a frequency that is not a whole number is sent as typed, for the schema to refuse). */
export function periodBody(value: PeriodValue): { interval: Interval; frequency: number } {
  const text = value.frequency.trim();
  return { interval: value.interval, frequency: /^\d+$/.test(text) ? Number(text) : Number.NaN };
}

export interface PeriodErrors {
  /** About the period as a whole (`billing_cycle`). */
  period?: string;
  frequency?: string;
  interval?: string;
}

/**
 * "Every [N] [days|weeks|months|years]": a number and an interval, each labelled (the group's
 * legend says what the period is for).
 */
function PeriodInputs({
  name,
  value,
  onChange,
  errors,
  disabled,
}: {
  /** Names the controls for screen readers: "Billing", "Trial". */
  name: string;
  value: PeriodValue;
  onChange: (value: PeriodValue) => void;
  errors: PeriodErrors;
  disabled?: boolean;
}) {
  const id = useId();
  const plural = value.frequency.trim() !== "1";
  const describedBy =
    [errors.period && `${id}-period`, errors.frequency && `${id}-frequency`, errors.interval && `${id}-interval-error`]
      .filter(Boolean)
      .join(" ") || undefined;
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-n`} className="text-sm text-slate-700">
          Every<span className="sr-only"> (number of {name.toLowerCase()} intervals)</span>
        </label>
        <input
          id={`${id}-n`}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={value.frequency}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, frequency: event.target.value })}
          aria-invalid={errors.frequency || errors.period ? true : undefined}
          aria-describedby={describedBy}
          className={inlineControl(Boolean(errors.frequency || errors.period), "w-24")}
        />
        <label htmlFor={`${id}-interval`} className="sr-only">
          {name} interval
        </label>
        <select
          id={`${id}-interval`}
          value={value.interval}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, interval: event.target.value as Interval })}
          aria-invalid={errors.interval ? true : undefined}
          aria-describedby={describedBy}
          className={inlineControl(Boolean(errors.interval), "pr-8")}
        >
          {INTERVALS.map((interval) => (
            <option key={interval} value={interval}>
              {plural ? `${interval}s` : interval}
            </option>
          ))}
        </select>
      </div>
      {errors.period && (
        <p id={`${id}-period`} className="mt-1 text-sm text-red-700">
          {errors.period}
        </p>
      )}
      {errors.frequency && (
        <p id={`${id}-frequency`} className="mt-1 text-sm text-red-700">
          Frequency {errors.frequency}
        </p>
      )}
      {errors.interval && (
        <p id={`${id}-interval-error`} className="mt-1 text-sm text-red-700">
          Interval {errors.interval}
        </p>
      )}
    </div>
  );
}

/** One-time, or recurring every N days, weeks, months or years. */
export function BillingCyclePicker({
  recurring,
  onRecurringChange,
  value,
  onChange,
  errors,
  disabled,
}: {
  recurring: boolean;
  onRecurringChange: (recurring: boolean) => void;
  value: PeriodValue;
  onChange: (value: PeriodValue) => void;
  errors: PeriodErrors;
  disabled?: boolean;
}) {
  const name = useId();
  return (
    <fieldset disabled={disabled}>
      <legend className="text-sm font-medium text-slate-700">Billing cycle</legend>
      <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={name}
            checked={!recurring}
            onChange={() => onRecurringChange(false)}
            className="h-4 w-4 accent-brand-600"
          />
          One-time
        </label>
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={name}
            checked={recurring}
            onChange={() => onRecurringChange(true)}
            className="h-4 w-4 accent-brand-600"
          />
          Recurring
        </label>
      </div>
      {recurring && (
        <div className="mt-3">
          <PeriodInputs name="Billing" value={value} onChange={onChange} errors={errors} />
        </div>
      )}
      {!recurring && errors.period && <p className="mt-1 text-sm text-red-700">{errors.period}</p>}
    </fieldset>
  );
}

/** An optional free trial before the first charge of a recurring price. */
export function TrialPicker({
  enabled,
  onEnabledChange,
  value,
  onChange,
  errors,
}: {
  enabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
  value: PeriodValue;
  onChange: (value: PeriodValue) => void;
  errors: PeriodErrors;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Trial period</legend>
      <label className="mt-2 inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(event) => onEnabledChange(event.target.checked)}
          className="h-4 w-4 rounded border-slate-300 accent-brand-600"
        />
        Start with a free trial
      </label>
      {enabled && (
        <div className="mt-3">
          <PeriodInputs name="Trial" value={value} onChange={onChange} errors={errors} />
        </div>
      )}
      {!enabled && errors.period && <p className="mt-1 text-sm text-red-700">{errors.period}</p>}
    </fieldset>
  );
}
