"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/button";
import { FormActions, FormError, TextField, useFocusOnError } from "@/components/form";
import type { DiscountGroup } from "@/lib/client/catalogue";
import { checkBody, type FormErrorState, formErrors } from "@/lib/client/form";
import {
  type CreateDiscountGroupInput,
  createDiscountGroupBody,
  type UpdateDiscountGroupInput,
  updateDiscountGroupBody,
} from "@/lib/schemas/discount-group";

const FIELDS = ["name"] as const;

type Props =
  | { group?: undefined; onSubmit: (body: CreateDiscountGroupInput) => Promise<DiscountGroup> }
  | { group: DiscountGroup; onSubmit: (body: UpdateDiscountGroupInput) => Promise<DiscountGroup> };

/** Creates or renames a discount group. */
export function DiscountGroupForm(
  props: Props & { onSaved: (group: DiscountGroup | null) => void; onCancel: () => void },
) {
  const { group, onSaved, onCancel } = props;
  const [name, setName] = useState(group?.name ?? "");
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);
  useEffect(() => form.current?.querySelector<HTMLInputElement>("input")?.focus(), []);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { name: name.trim() };
    if (props.group && body.name === props.group.name) return onSaved(null);
    const checked = props.group
      ? checkBody(updateDiscountGroupBody, body, FIELDS)
      : checkBody(createDiscountGroupBody, body, FIELDS);
    if (!checked.ok) return setErrors(checked.errors);
    setPending(true);
    setErrors(null);
    try {
      onSaved(await props.onSubmit(body));
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    } finally {
      setPending(false);
    }
  }

  const title = group ? "Edit discount group" : "New discount group";
  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label={title} className="space-y-4">
      <TextField
        label="Name"
        required
        autoComplete="off"
        maxLength={100}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={errors?.fields.name}
        hint="For you and your team, such as Black Friday 2025. A discount belongs to at most one group."
        className="max-w-md"
      />
      {errors && <FormError message={errors.message} other={errors.other} requestId={errors.requestId} />}
      <FormActions>
        <Button type="submit" pending={pending} pendingLabel="Saving…">
          {group ? "Save group" : "Create group"}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
