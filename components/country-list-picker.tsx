"use client";

import { useId, useState } from "react";
import { countryName } from "@/lib/dashboard/display";
import { COUNTRY_CODES } from "@/lib/schemas/countries";
import { Button } from "./button";
import { controlClasses } from "./form";

const COUNTRIES = COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
  a.name.localeCompare(b.name, "en"),
);

/**
 * Several countries: the chosen ones as removable chips, and a select with an Add button (a
 * button rather than adding on change, so moving through the select with the arrow keys adds
 * nothing). Countries taken elsewhere (`taken`: code → where) are offered disabled, with the reason.
 */
export function CountryListPicker({
  label: shortLabel,
  context,
  values,
  onChange,
  error,
  taken,
}: {
  /** Names the group, e.g. "Countries". */
  label: string;
  /** Read before the label by screen readers, not shown: "Override 1" (the row's own heading says it). */
  context?: string;
  values: readonly string[];
  onChange: (values: string[]) => void;
  error?: string | null;
  taken?: ReadonlyMap<string, string>;
}) {
  const id = useId();
  const label = context ? `${context} ${shortLabel.toLowerCase()}` : shortLabel;
  const [choice, setChoice] = useState("");
  const chosen = new Set(values);
  const errorId = error ? `${id}-error` : undefined;

  function add() {
    if (!choice || chosen.has(choice)) return;
    onChange([...values, choice]);
    setChoice("");
  }

  return (
    <fieldset aria-describedby={errorId}>
      <legend className="text-sm font-medium text-slate-700">
        {context && <span className="sr-only">{context} </span>}
        {shortLabel}
      </legend>
      {values.length > 0 ? (
        <ul className="mt-1.5 flex flex-wrap gap-1.5" aria-label={`${label}: chosen`}>
          {values.map((code) => (
            <li
              key={code}
              className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-700 ring-1 ring-brand-600/20 ring-inset"
            >
              {countryName(code)} ({code})
              <button
                type="button"
                onClick={() => onChange(values.filter((c) => c !== code))}
                aria-label={`Remove ${countryName(code)} from ${label.toLowerCase()}`}
                className="rounded-full px-1 text-brand-700 hover:bg-brand-100"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-xs text-slate-500">No countries yet.</p>
      )}
      <div className="mt-2 flex gap-2">
        <label htmlFor={`${id}-select`} className="sr-only">
          Add a country to {label.toLowerCase()}
        </label>
        <select
          id={`${id}-select`}
          value={choice}
          onChange={(event) => setChoice(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              add();
            }
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          className={controlClasses(Boolean(error), "pr-8")}
        >
          <option value="">Choose a country…</option>
          {COUNTRIES.map((country) => {
            const elsewhere = taken?.get(country.code);
            return (
              <option key={country.code} value={country.code} disabled={chosen.has(country.code) || Boolean(elsewhere)}>
                {country.name} ({country.code}){elsewhere ? ` · in ${elsewhere}` : ""}
              </option>
            );
          })}
        </select>
        <Button
          variant="secondary"
          onClick={add}
          disabled={!choice}
          aria-label={`Add country to ${label.toLowerCase()}`}
        >
          Add
        </Button>
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
