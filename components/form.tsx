"use client";

import { type ComponentProps, type ReactNode, type RefObject, useEffect, useId } from "react";
import type { FieldError } from "@/lib/client/api";

const CONTROL =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 disabled:bg-slate-50";

export function controlClasses(invalid: boolean, extra = ""): string {
  return `${CONTROL} ${invalid ? "border-red-500 focus:border-red-600" : "border-slate-300 focus:border-brand-500"} ${extra}`;
}

/** What a field passes to its control: the ids that tie label, hint and error to it. */
export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  required?: boolean;
}

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  className?: string;
  /** Hides the label visually (it still names the control). */
  labelHidden?: boolean;
  children: (control: ControlProps) => ReactNode;
}

/**
 * A label, its control, a hint and an error message. The control gets `aria-describedby` for the
 * hint and error and `aria-invalid` when there is an error.
 */
export function Field({ label, hint, error, required, className = "", labelHidden = false, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className={labelHidden ? "sr-only" : "block text-sm font-medium text-slate-700"}>
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-red-600">
            *
          </span>
        )}
      </label>
      <div className={labelHidden ? "" : "mt-1"}>
        {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined, required })}
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}

type FieldChrome = Omit<FieldProps, "children">;

export function TextField({
  label,
  hint,
  error,
  required,
  className,
  labelHidden,
  ...input
}: FieldChrome & Omit<ComponentProps<"input">, "id" | "className">) {
  return (
    <Field label={label} hint={hint} error={error} required={required} className={className} labelHidden={labelHidden}>
      {(control) => <input type="text" {...input} {...control} className={controlClasses(Boolean(error))} />}
    </Field>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  required,
  className,
  labelHidden,
  ...textarea
}: FieldChrome & Omit<ComponentProps<"textarea">, "id" | "className">) {
  return (
    <Field label={label} hint={hint} error={error} required={required} className={className} labelHidden={labelHidden}>
      {(control) => (
        <textarea rows={4} {...textarea} {...control} className={controlClasses(Boolean(error), "font-mono")} />
      )}
    </Field>
  );
}

export function SelectField({
  label,
  hint,
  error,
  required,
  className,
  labelHidden,
  children,
  ...select
}: FieldChrome & Omit<ComponentProps<"select">, "id" | "className">) {
  return (
    <Field label={label} hint={hint} error={error} required={required} className={className} labelHidden={labelHidden}>
      {(control) => (
        <select {...select} {...control} className={controlClasses(Boolean(error), "pr-8")}>
          {children}
        </select>
      )}
    </Field>
  );
}

/**
 * The form-level problem: the API's detail (with entity IDs as links when `renderDetail` is
 * given), field errors the form has no input for, and the request ID.
 */
export function FormError({
  message,
  other = [],
  requestId,
  renderDetail,
}: {
  message: string | null;
  other?: FieldError[];
  requestId?: string;
  renderDetail?: (detail: string) => ReactNode;
}) {
  if (!message && other.length === 0) return null;
  return (
    <div
      role="alert"
      tabIndex={-1}
      data-form-error=""
      className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {message && <p>{renderDetail ? renderDetail(message) : message}</p>}
      {other.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {other.map((entry) => (
            <li key={`${entry.field}:${entry.message}`}>
              <code className="font-mono text-xs">{entry.field}</code> {entry.message}
            </li>
          ))}
        </ul>
      )}
      {requestId && (
        <p className="mt-1 text-xs text-red-700">
          Request ID <code className="select-all font-mono">{requestId}</code>
        </p>
      )}
    </div>
  );
}

/** The buttons row at the bottom of a form. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-center gap-2 pt-2">{children}</div>;
}

/**
 * After a refused submit, moves focus to the first field in error (or the form's error message),
 * so keyboard and screen-reader users land on the problem. `errors` must be a new object per submit.
 */
export function useFocusOnError(form: RefObject<HTMLFormElement | null>, errors: unknown) {
  useEffect(() => {
    if (!errors) return;
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-error]');
    target?.focus();
  }, [form, errors]);
}
