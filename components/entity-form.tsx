"use client";

import { type FormEvent, type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { checkBody, type FormErrorState, formErrors, NO_ERRORS, type Schema } from "@/lib/dashboard/form";
import { Allowed } from "@/lib/dashboard/permissions";
import { Button } from "./button";
import { FormActions, FormError, useFocusOnError } from "./form";

/*
 * The form kit: one hook (`useForm`) holds a form's values, its errors (the form's own, the API
 * schema's and the server's, each beside its field, nothing typed lost), whether a submit is under
 * way and whether anything changed; `FormShell` draws the form around the fields, disabled while it
 * saves. `useEntityForm` and `EntityForm` are the same for a form that adds or edits one entity.
 */

/** What one submit does: the body to send (null when nothing changed), checked before it goes. */
export interface SubmitPlan<B> {
  /** The form's fields, which the API's `errors[].field` may land on (see `formErrors`). */
  fields: readonly string[];
  /** Maps the API's field path to the form's. */
  rename?: (field: string) => string;
  /** The form's message lists the fields in error too (see `formErrors`): a dialog's alert. */
  listPlaced?: boolean;
  /** Problems the form finds itself (an amount it cannot read, invalid JSON); nothing is sent while any. */
  local?: Record<string, string | null | undefined>;
  /** The API's request schema: a body it refuses is not sent, and its messages sit beside the fields. */
  schema?: Schema;
  body: B | null;
  send: (body: B) => Promise<unknown>;
  /** When `body` is null (nothing changed). */
  onUnchanged?: () => void;
  /** A refusal the form shows in its own way (returns true), such as a stale revision. */
  handle?: (caught: unknown) => boolean;
}

type StringKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/** Sets (of ticked names) compare by their members. */
const setsAsLists = (_key: string, value: unknown) => (value instanceof Set ? [...value].sort() : value);
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a, setsAsLists) === JSON.stringify(b, setsAsLists);

/**
 * A form's state. `autoFocus` moves focus to the first control when the form opens (a panel that
 * opened on request); after a refused submit focus goes to the first field in error.
 */
export function useForm<V extends object>(initial: () => V, { autoFocus = true }: { autoFocus?: boolean } = {}) {
  const [values, setValues] = useState<V>(initial);
  const [saved, setSaved] = useState<V>(values);
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  /** Fields whose message gives way once changed (a money input checks itself as it changes). */
  const [cleared, setCleared] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);
  useEffect(() => {
    if (autoFocus) form.current?.querySelector<HTMLElement>("input, select")?.focus();
  }, [autoFocus]);

  const set = <K extends keyof V>(field: K, value: V[K]) => setValues((v) => ({ ...v, [field]: value }));
  const clear = (...fields: string[]) =>
    setCleared((current) => (fields.every((f) => current.has(f)) ? current : new Set([...current, ...fields])));
  const error = (field: string): string | undefined => (cleared.has(field) ? undefined : errors?.fields[field]);
  /** A text or select field's value, change handler and error, to spread onto a TextField or SelectField. */
  const bind = (field: StringKeys<V>, errorField: string = field) => ({
    value: values[field] as string,
    onChange: (event: { target: { value: string } }) => set(field, event.target.value as V[typeof field]),
    error: error(errorField),
  });
  /** The values become the saved ones (after a save that stays on the form). */
  const reset = (next: V) => {
    setValues(next);
    setSaved(next);
  };

  async function run<B>(plan: SubmitPlan<B>) {
    if (pending) return;
    setCleared(new Set());
    const local = Object.fromEntries(Object.entries(plan.local ?? {}).filter(([, message]) => message)) as Record<
      string,
      string
    >;
    const hasLocal = Object.keys(local).length > 0;
    if (plan.body === null && !hasLocal) {
      setErrors(null);
      return plan.onUnchanged?.();
    }
    const checked =
      plan.schema && plan.body !== null ? checkBody(plan.schema, plan.body, plan.fields, plan.rename) : null;
    if (hasLocal || (checked && !checked.ok)) {
      const found = checked && !checked.ok ? checked.errors : NO_ERRORS;
      setErrors({
        ...found,
        fields: { ...found.fields, ...local },
        message: found.other.length > 0 ? "Some fields need attention." : null,
      });
      return;
    }
    setErrors(null);
    setPending(true);
    try {
      await plan.send(plan.body as B);
    } catch (caught) {
      if (!plan.handle?.(caught)) {
        setErrors(formErrors(caught, plan.fields, plan.rename, { listPlaced: plan.listPlaced }));
      }
    } finally {
      setPending(false);
    }
  }

  return {
    form,
    values,
    set,
    bind,
    error,
    clear,
    /** Whether `clear(field)` ran since the last submit. */
    isCleared: (field: string) => cleared.has(field),
    errors,
    pending,
    dirty: !sameJson(values, saved),
    reset,
    run,
  };
}

/** The body of a new entity: the form's fields without the empty (null) ones. */
export function withoutNulls<T extends object>(full: T): Partial<T> {
  return Object.fromEntries(Object.entries(full).filter(([, value]) => value !== null)) as Partial<T>;
}

/** The fields of `full` whose value differs from the entity's (compared as JSON), or null when none does. */
export function changes<T extends object>(full: T, current: object): Partial<T> | null {
  const was = current as Record<string, unknown>;
  const changed = Object.entries(full).filter(([key, value]) => !sameJson(value, was[key] ?? null));
  return changed.length > 0 ? (Object.fromEntries(changed) as Partial<T>) : null;
}

type Adding<T, C> = { entity?: undefined; onSubmit: (body: C) => Promise<T> };
type Editing<T, U> = { entity: T; onSubmit: (body: U) => Promise<T> };

/**
 * What a form that adds or edits one entity gets: the entity when editing, where to send the body
 * (the whole body for a new one, only the changes for an existing one), and what to do after.
 */
export type EntityFormProps<T, C, U> = (Adding<T, C> | Editing<T, U>) & {
  /** The saved entity, or null when nothing had changed (and nothing was sent). */
  onSaved: (entity: T | null) => void;
  onCancel: () => void;
};

/** How a submit builds its body, and which of the form's fields the server's errors may land on. */
export interface EntitySubmit<T, C, U> extends Pick<SubmitPlan<unknown>, "fields" | "rename" | "local" | "handle"> {
  create: () => C;
  /** Only what differs from `current`; null or an empty object sends nothing. */
  update: (current: T) => U | null;
  /** The API's own request schemas (see `SubmitPlan.schema`). */
  schemas?: { create: Schema; update: Schema };
}

/** `useForm` for an entity form, whose `submit` sends the new entity or only the changes to it. */
export function useEntityForm<T extends object, C, U extends object, V extends object>(
  props: EntityFormProps<T, C, U>,
  initialValues: () => V,
) {
  const state = useForm(initialValues);
  function submit(event: FormEvent<HTMLFormElement>, { create, update, schemas, ...plan }: EntitySubmit<T, C, U>) {
    event.preventDefault();
    const saved = (entity: T) => props.onSaved(entity);
    if (props.entity !== undefined) {
      const { entity, onSubmit } = props as Editing<T, U>;
      const body = update(entity);
      return state.run<U>({
        ...plan,
        schema: schemas?.update,
        body: body && Object.keys(body).length > 0 ? body : null,
        send: async (changed) => saved(await onSubmit(changed)),
        onUnchanged: () => props.onSaved(null),
      });
    }
    const { onSubmit } = props as Adding<T, C>;
    return state.run<C>({
      ...plan,
      schema: schemas?.create,
      body: create(),
      send: async (body) => saved(await onSubmit(body)),
    });
  }
  return { ...state, submit };
}

export interface FormShellProps {
  /** The form's accessible name. */
  label: string;
  state: {
    form: RefObject<HTMLFormElement | null>;
    errors: FormErrorState | null;
    pending: boolean;
    dirty?: boolean;
  };
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  pendingLabel?: string;
  submitDisabled?: boolean;
  /** A Cancel button, when given. */
  onCancel?: () => void;
  /** Says "Unsaved changes" beside the buttons once a value differs from the saved one. */
  showDirty?: boolean;
  /** The API's detail with entity IDs as links, and so on (see `FormError`). */
  renderDetail?: (detail: string) => ReactNode;
  /** After the buttons, such as a "Saved." status. */
  after?: ReactNode;
  /** The permission the submit needs: without it the button is disabled with the reason. */
  allowed?: { permission: string; action: string };
  /** The space between the fields (and between them, the error and the buttons). */
  spacing?: "space-y-3" | "space-y-4" | "space-y-5";
  /** More classes for the form element. */
  className?: string;
  /**
   * One compact row (an editor in a table cell): the fields, then small Save and Cancel buttons
   * beside them, the form's error under the row. Escape cancels (with `onCancel`).
   */
  inline?: boolean;
  children: ReactNode;
}

/**
 * A form of the kit: its fields (disabled while it saves), the form's error, then the submit and
 * Cancel buttons. Validation is the API's (the browser's own is off), shown beside each field.
 */
export function FormShell({
  label,
  state: { form, errors, pending, dirty },
  onSubmit,
  submitLabel,
  pendingLabel = "Saving…",
  submitDisabled,
  onCancel,
  showDirty = false,
  renderDetail,
  after,
  spacing = "space-y-4",
  className = "",
  allowed,
  inline = false,
  children,
}: FormShellProps) {
  const size = inline ? "sm" : undefined;
  const submit = (
    <Button type="submit" size={size} pending={pending} pendingLabel={pendingLabel} disabled={submitDisabled}>
      {submitLabel}
    </Button>
  );
  const buttons = (
    <>
      {allowed ? (
        <Allowed permission={allowed.permission} action={allowed.action}>
          {submit}
        </Allowed>
      ) : (
        submit
      )}
      {onCancel && (
        <Button variant="secondary" size={size} onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      )}
      {showDirty && dirty && !pending && <span className="text-xs text-slate-500">Unsaved changes</span>}
      {after}
    </>
  );
  const error = errors && (
    <FormError message={errors.message} other={errors.other} requestId={errors.requestId} renderDetail={renderDetail} />
  );
  if (inline) {
    return (
      <form
        ref={form}
        onSubmit={onSubmit}
        noValidate
        aria-label={label}
        className={`space-y-2 ${className}`}
        onKeyDown={(event) => {
          if (event.key === "Escape" && onCancel && !pending) {
            event.stopPropagation();
            onCancel();
          }
        }}
      >
        <div className="flex flex-wrap items-start gap-2">
          <fieldset disabled={pending} className="flex min-w-0 items-start gap-2">
            {children}
          </fieldset>
          <div className="flex items-center gap-2">{buttons}</div>
        </div>
        {error}
      </form>
    );
  }
  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label={label} className={`${spacing} ${className}`}>
      <fieldset disabled={pending} className={`min-w-0 ${spacing}`}>
        {children}
      </fieldset>
      {error}
      <FormActions>{buttons}</FormActions>
    </form>
  );
}

/**
 * The form of an entity form, named "New {noun}" or "Edit {noun}", with "Add {noun}" or
 * "Save {noun}" (unless `submitLabel` says otherwise) and Cancel.
 */
export function EntityForm({
  noun,
  editing,
  submitLabel,
  ...shell
}: Omit<FormShellProps, "label" | "submitLabel"> & {
  /** Lower case: "address". */
  noun: string;
  editing: boolean;
  submitLabel?: { add: string; save: string };
}) {
  return (
    <FormShell
      label={editing ? `Edit ${noun}` : `New ${noun}`}
      submitLabel={editing ? (submitLabel?.save ?? `Save ${noun}`) : (submitLabel?.add ?? `Add ${noun}`)}
      showDirty={editing}
      {...shell}
    />
  );
}
