"use client";

import { type ComponentProps, type ReactNode, type RefObject, useEffect, useId } from "react";
import type { FieldError } from "@/lib/dashboard/api";
import { errorSentence } from "@/lib/dashboard/form";

const CONTROL =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 disabled:bg-slate-50";

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
  const ids = useDescriptionIds(hint, error);
  return (
    <div className={className}>
      <label htmlFor={ids.id} className={labelHidden ? "sr-only" : "block text-sm font-medium text-slate-700"}>
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-red-600">
            *
          </span>
        )}
      </label>
      <div className={labelHidden ? "" : "mt-1"}>
        {children({
          id: ids.id,
          "aria-describedby": ids.describedBy,
          "aria-invalid": error ? true : undefined,
          required,
        })}
      </div>
      <FieldMessages ids={ids} hint={hint} error={error && errorSentence(label, error)} />
    </div>
  );
}

/** A control's id, and the ids of its hint and error (when there are any) that describe it. */
function useDescriptionIds(hint: ReactNode, error: string | null | undefined) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return { id, hintId, errorId, describedBy: [errorId, hintId].filter(Boolean).join(" ") || undefined };
}

/** A field's error, then its hint, under the control (`indent` lines them up with a checkbox's label). */
function FieldMessages({
  ids,
  hint,
  error,
  indent = "",
}: {
  ids: { hintId?: string; errorId?: string };
  hint?: ReactNode;
  error?: string | null;
  indent?: "" | "ml-6 ";
}) {
  return (
    <>
      {error && (
        <p id={ids.errorId} className={`mt-1 ${indent}text-sm text-red-700`}>
          {error}
        </p>
      )}
      {hint && (
        <p id={ids.hintId} className={`mt-1 ${indent}text-xs text-slate-500`}>
          {hint}
        </p>
      )}
    </>
  );
}

type FieldChrome = Omit<FieldProps, "children">;

/**
 * A Field around the control that `render` makes: the field takes the label, hint, error and the
 * rest of its chrome from `props`; the other props go to `render` for the control.
 */
function fieldWith<P extends FieldChrome>(
  props: P,
  render: (rest: Omit<P, keyof FieldChrome>, control: ControlProps, invalid: boolean) => ReactNode,
) {
  const { label, hint, error, required, className, labelHidden, ...rest } = props;
  return (
    <Field label={label} hint={hint} error={error} required={required} className={className} labelHidden={labelHidden}>
      {(control) => render(rest, control, Boolean(error))}
    </Field>
  );
}

export function TextField(props: FieldChrome & Omit<ComponentProps<"input">, "id" | "className">) {
  return fieldWith(props, (input, control, invalid) => (
    <input type="text" {...input} {...control} className={controlClasses(invalid)} />
  ));
}

export function TextAreaField({
  mono = true,
  ...props
}: FieldChrome &
  Omit<ComponentProps<"textarea">, "id" | "className"> & {
    /** Monospace, for JSON (the default); false for prose such as a description. */
    mono?: boolean;
  }) {
  return fieldWith(props, (textarea, control, invalid) => (
    <textarea rows={4} {...textarea} {...control} className={controlClasses(invalid, mono ? "font-mono" : "")} />
  ));
}

export function SelectField(props: FieldChrome & Omit<ComponentProps<"select">, "id" | "className">) {
  return fieldWith(props, ({ children, ...select }, control, invalid) => (
    <select {...select} {...control} className={controlClasses(invalid, "pr-8")}>
      {children}
    </select>
  ));
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

/** A checkbox with its label on the right, a hint and an error beneath. */
export function CheckboxField({
  label,
  hint,
  error,
  className = "",
  ...input
}: { label: ReactNode; hint?: ReactNode; error?: string | null; className?: string } & Omit<
  ComponentProps<"input">,
  "id" | "className" | "type"
>) {
  const ids = useDescriptionIds(hint, error);
  return (
    <div className={className}>
      <div className="flex items-start gap-2">
        <input
          type="checkbox"
          {...input}
          id={ids.id}
          aria-describedby={ids.describedBy}
          aria-invalid={error ? true : undefined}
          className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600"
        />
        <label htmlFor={ids.id} className="cursor-pointer text-sm font-medium text-slate-700">
          {label}
        </label>
      </div>
      <FieldMessages ids={ids} hint={hint} error={error && errorSentence(label, error)} indent="ml-6 " />
    </div>
  );
}
