"use client";

import { useEffect, useId, useRef, useState } from "react";
import { parseJsonField } from "@/lib/dashboard/form";
import { Button } from "./button";
import { controlClasses } from "./form";

/*
 * Custom data as rows of key and text value, or as JSON for numbers and nested values. What it
 * gives the API is what the API takes: an object, or null when there is nothing.
 */

interface Row {
  id: number;
  key: string;
  value: string;
}

/** The editor's state, kept in the form's values. */
export type CustomData = { mode: "rows"; rows: Row[] } | { mode: "json"; text: string };

let nextRowId = 1;
const row = (key = "", value = ""): Row => ({ id: nextRowId++, key, value });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const jsonOf = (data: Record<string, unknown> | null) => (data ? JSON.stringify(data, null, 2) : "");

/** Rows when every value is text (an empty editor starts with one blank row); JSON otherwise. */
export function customData(data: unknown): CustomData {
  if (data == null || (isPlainObject(data) && Object.values(data).every((v) => typeof v === "string"))) {
    const entries = Object.entries((data ?? {}) as Record<string, string>);
    return { mode: "rows", rows: entries.length > 0 ? entries.map(([k, v]) => row(k, v)) : [row()] };
  }
  return { mode: "json", text: JSON.stringify(data, null, 2) };
}

type Read = { ok: true; value: Record<string, unknown> | null } | { ok: false; message: string; row?: number };

/** The object to send (null when empty), or the problem: a row without a key, a repeated key, bad JSON. */
export function readCustomData(data: CustomData): Read {
  if (data.mode === "json") {
    const parsed = parseJsonField(data.text);
    if (!parsed.ok) return parsed;
    if (parsed.value !== null && !isPlainObject(parsed.value)) {
      return { ok: false, message: 'must be a JSON object, such as {"plan": "pro"}' };
    }
    return { ok: true, value: parsed.value };
  }
  const out: Record<string, string> = {};
  for (const [index, { key, value }] of data.rows.entries()) {
    const name = key.trim();
    if (name === "" && value === "") continue;
    if (name === "") return { ok: false, message: `Row ${index + 1} needs a key.`, row: index };
    if (name in out) return { ok: false, message: `The key ${name} appears twice.`, row: index };
    out[name] = value;
  }
  return { ok: true, value: Object.keys(out).length > 0 ? out : null };
}

/** `readCustomData`'s message, for a form's `local` errors. */
export const customDataProblem = (data: CustomData) => {
  const read = readCustomData(data);
  return read.ok ? null : read.message;
};

/** The value to send: null when empty or unreadable (the form does not send while it has a problem). */
export const customDataValue = (data: CustomData) => {
  const read = readCustomData(data);
  return read.ok ? read.value : null;
};

export function CustomDataField({
  label = "Custom data",
  value,
  onChange,
  error,
  hint,
}: {
  label?: string;
  value: CustomData;
  onChange: (value: CustomData) => void;
  error?: string | null;
  hint: string;
}) {
  const id = useId();
  const [notice, setNotice] = useState<string | null>(null);
  /** After a row is added or removed, focus goes to a key (by row) or to Add row: never lost. */
  const [focusTo, setFocusTo] = useState<number | "add" | null>(null);
  const box = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    if (focusTo === null) return;
    const keys = box.current?.querySelectorAll<HTMLInputElement>("input[data-key]");
    const target =
      focusTo === "add" || !keys?.[focusTo] ? box.current?.querySelector<HTMLElement>("[data-add-row]") : keys[focusTo];
    target?.focus();
    setFocusTo(null);
  }, [focusTo]);
  const errorId = error ? `${id}-error` : undefined;
  const hintId = `${id}-hint`;
  const describedBy = [errorId, notice ? `${id}-notice` : undefined, hintId].filter(Boolean).join(" ");
  const read = readCustomData(value);
  /** The row the error is about, when it is one of this form's; otherwise every input shows it. */
  const badRow = error && !read.ok ? read.row : undefined;
  const invalid = (index?: number) => (error && (badRow === undefined || badRow === index) ? true : undefined);

  function toggle() {
    setNotice(null);
    if (value.mode === "rows") {
      const entries = value.rows.filter((r) => r.key.trim() !== "").map((r) => [r.key.trim(), r.value]);
      onChange({ mode: "json", text: jsonOf(entries.length > 0 ? Object.fromEntries(entries) : null) });
      return;
    }
    const parsed = readCustomData(value);
    if (!parsed.ok) return setNotice("Fix the JSON first to edit it as rows.");
    if (parsed.value && Object.values(parsed.value).some((v) => typeof v !== "string")) {
      return setNotice("Numbers, true/false and nested values can only be edited as JSON.");
    }
    onChange(customData(parsed.value));
  }

  const setRows = (rows: Row[]) => onChange({ mode: "rows", rows });
  const rows = value.mode === "rows" ? value.rows : [];
  const setRow = (rowId: number, change: Partial<Row>) =>
    setRows(rows.map((r) => (r.id === rowId ? { ...r, ...change } : r)));

  return (
    <fieldset ref={box} className="min-w-0">
      {/* Floated, so the toggle sits on its line; still the first child, which names the group. */}
      <legend className="float-left py-1 text-sm font-medium text-slate-700">{label}</legend>
      <div className="flex justify-end">
        <Button
          variant="ghost"
          size="sm"
          aria-pressed={value.mode === "json"}
          onClick={toggle}
          className="aria-pressed:bg-brand-50 aria-pressed:ring-1 aria-pressed:ring-brand-300"
        >
          Edit as JSON
        </Button>
      </div>
      {value.mode === "json" ? (
        <textarea
          aria-label={`${label} as JSON`}
          aria-describedby={describedBy}
          aria-invalid={invalid()}
          rows={4}
          spellCheck={false}
          placeholder='{"plan": "pro", "seats": 5}'
          value={value.text}
          onChange={(event) => onChange({ mode: "json", text: event.target.value })}
          className={`clear-both mt-1 ${controlClasses(Boolean(error), "font-mono")}`}
        />
      ) : (
        <>
          {rows.length > 0 && (
            // The inputs are named "Key 1", "Value 1"…; these headings say the same to the eye.
            <div
              aria-hidden="true"
              className="clear-both mt-1 grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] gap-2 text-xs text-slate-600"
            >
              <span>Key</span>
              <span>Value</span>
              <span className="invisible px-2.5">Remove</span>
            </div>
          )}
          <ul className="clear-both mt-1 space-y-2">
            {rows.map((r, index) => (
              <li key={r.id} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-center gap-2">
                <input
                  data-key=""
                  aria-label={`Key ${index + 1}`}
                  aria-describedby={describedBy}
                  aria-invalid={invalid(index)}
                  placeholder="Key"
                  autoComplete="off"
                  spellCheck={false}
                  value={r.key}
                  onChange={(event) => setRow(r.id, { key: event.target.value })}
                  className={controlClasses(Boolean(invalid(index)), "font-mono")}
                />
                <input
                  aria-label={`Value ${index + 1}`}
                  aria-describedby={describedBy}
                  aria-invalid={invalid(index)}
                  placeholder="Value"
                  autoComplete="off"
                  value={r.value}
                  onChange={(event) => setRow(r.id, { value: event.target.value })}
                  className={controlClasses(Boolean(invalid(index)))}
                />
                <Button
                  variant="danger"
                  size="sm"
                  aria-label={`Remove row ${index + 1}`}
                  onClick={() => {
                    setRows(rows.filter((other) => other.id !== r.id));
                    setFocusTo(rows.length > 1 ? Math.min(index, rows.length - 2) : "add");
                  }}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          <Button
            variant="secondary"
            size="sm"
            className="mt-2"
            data-add-row=""
            onClick={() => {
              setRows([...rows, row()]);
              setFocusTo(rows.length);
            }}
          >
            Add row
          </Button>
        </>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      {notice && (
        <p id={`${id}-notice`} role="status" className="mt-1 text-sm text-amber-800">
          {notice}
        </p>
      )}
      <p id={hintId} className="clear-both mt-1 text-xs text-slate-500">
        {hint}
        {value.mode === "rows" ? " Values are text; for numbers or nested values, edit as JSON." : ""}
      </p>
    </fieldset>
  );
}
