"use client";

import { type FormEvent, type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { checkBody, type FormErrorState, formErrors, type Schema } from "@/lib/client/form";
import { Button } from "./button";
import { FormActions, FormError, useFocusOnError } from "./form";

type Adding<T, C> = { entity?: undefined; onSubmit: (body: C) => Promise<T> };
type Editing<T, U> = { entity: T; onSubmit: (body: U) => Promise<T> };

/** TypeScript does not narrow the props on an `entity` of a generic type; this does. */
const isEditing = <T, C, U>(props: Adding<T, C> | Editing<T, U>): props is Editing<T, U> => props.entity !== undefined;

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
export interface EntitySubmit<T, C, U> {
  create: () => C;
  /** Only what differs from `current`; an empty object sends nothing. */
  update: (current: T) => U;
  fields: readonly string[];
  /** Maps the API's field path to the form's (see `formErrors`). */
  rename?: (field: string) => string;
  /**
   * The API's own request schemas: a body they refuse is not sent, and their messages appear
   * beside the same fields as the server's would (see `checkBody`).
   */
  schemas?: { create: Schema; update: Schema };
}

/**
 * The state of an entity form: its text and select values, the server's errors (focus moves to
 * the first, and to the first control when the form opens) and whether a submit is under way.
 */
export function useEntityForm<T extends object, C, U extends object, V extends Record<string, string>>(
  props: EntityFormProps<T, C, U>,
  initialValues: () => V,
) {
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);
  useEffect(() => form.current?.querySelector<HTMLElement>("input, select")?.focus(), []);

  const error = (field: string) => errors?.fields[field];
  /** A field's value, change handler and error, to spread onto a TextField or SelectField. */
  const bind = (field: keyof V & string) => ({
    value: values[field],
    onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value })),
    error: error(field),
  });

  async function submit(
    event: FormEvent<HTMLFormElement>,
    { create, update, fields, rename, schemas }: EntitySubmit<T, C, U>,
  ) {
    event.preventDefault();
    setPending(true);
    setErrors(null);
    /** Whether `schema` accepts `body`; when not, its errors are shown. */
    const passes = (schema: Schema | undefined, body: unknown) => {
      const checked = schema ? checkBody(schema, body, fields, rename) : null;
      if (checked && !checked.ok) setErrors(checked.errors);
      return !checked || checked.ok;
    };
    try {
      if (isEditing<T, C, U>(props)) {
        const body = update(props.entity);
        if (Object.keys(body).length === 0) props.onSaved(null);
        else if (passes(schemas?.update, body)) props.onSaved(await props.onSubmit(body));
      } else {
        const body = create();
        if (passes(schemas?.create, body)) props.onSaved(await props.onSubmit(body));
      }
    } catch (caught) {
      setErrors(formErrors(caught, fields, rename));
    } finally {
      setPending(false);
    }
  }

  return { form, values, errors, pending, error, bind, submit };
}

/**
 * The form element of an entity form, named "New {noun}" or "Edit {noun}", with the fields, the
 * form's error, and the "Add {noun}" or "Save {noun}" and Cancel buttons.
 */
export function EntityForm({
  noun,
  editing,
  state,
  onSubmit,
  onCancel,
  children,
}: {
  /** Lower case: "address". */
  noun: string;
  editing: boolean;
  state: { form: RefObject<HTMLFormElement | null>; errors: FormErrorState | null; pending: boolean };
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { form, errors, pending } = state;
  return (
    <form
      ref={form}
      onSubmit={onSubmit}
      noValidate
      aria-label={editing ? `Edit ${noun}` : `New ${noun}`}
      className="space-y-4"
    >
      {children}
      {errors && <FormError message={errors.message} other={errors.other} requestId={errors.requestId} />}
      <FormActions>
        <Button type="submit" pending={pending} pendingLabel="Saving…">
          {editing ? `Save ${noun}` : `Add ${noun}`}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
