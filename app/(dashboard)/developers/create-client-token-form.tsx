"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/button";
import { FormActions, FormError, TextAreaField, TextField, useFocusOnError } from "@/components/form";
import { type ClientToken, useCreateClientToken } from "@/lib/client/client-tokens";
import { type FormErrorState, formErrors, textOrNull } from "@/lib/client/form";
import { CLIENT_TOKEN_DESCRIPTION_MAX, type CreateClientTokenInput } from "@/lib/schemas/client-token";

const FIELDS = ["name", "description"] as const;

export function CreateClientTokenForm({
  onCreated,
  onCancel,
}: {
  onCreated: (token: ClientToken) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const create = useCreateClientToken();
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);
  useEffect(() => form.current?.querySelector<HTMLInputElement>("input")?.focus(), []);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors(null);
    const body: CreateClientTokenInput = { name: name.trim() };
    const text = textOrNull(description);
    if (text !== null) body.description = text;
    try {
      onCreated(await create.mutateAsync(body));
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    }
  }

  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label="Create client-side token" className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors?.fields.name}
          hint="Where the token is used, such as Pricing page."
          maxLength={150}
          autoComplete="off"
        />
        <TextAreaField
          label="Description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={errors?.fields.description}
          rows={2}
          maxLength={CLIENT_TOKEN_DESCRIPTION_MAX}
        />
      </div>
      {errors && <FormError message={errors.message} other={errors.other} requestId={errors.requestId} />}
      <FormActions>
        <Button type="submit" pending={create.isPending} pendingLabel="Creating…">
          Create token
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
