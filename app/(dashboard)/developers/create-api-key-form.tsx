"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/button";
import { FormActions, FormError, TextAreaField, TextField, useFocusOnError } from "@/components/form";
import { type FormErrorState, formErrors, textOrNull } from "@/lib/client/form";
import { type ApiKey, useCreateApiKey } from "@/lib/client/hooks";
import type { CreateApiKeyInput } from "@/lib/schemas/api-key";
import { PermissionPicker } from "./permission-picker";

const FIELDS = ["name", "description", "expires_at", "permissions"] as const;

/** Today in the viewer's time zone, as YYYY-MM-DD (the `min` of the expiry date input). */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * A key given an expiry date works until the end of that day in the viewer's time zone; the API
 * receives the instant in UTC.
 */
export function endOfDay(date: string): string {
  return new Date(`${date}T23:59:59.999`).toISOString();
}

export function CreateApiKeyForm({
  grantable,
  onCreated,
  onCancel,
}: {
  grantable: readonly string[];
  onCreated: (key: ApiKey) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [expiry, setExpiry] = useState("");
  const [permissions, setPermissions] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const create = useCreateApiKey();
  const form = useRef<HTMLFormElement>(null);
  const permissionsErrorId = useId();
  useFocusOnError(form, errors);
  useEffect(() => form.current?.querySelector<HTMLInputElement>("input")?.focus(), []);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors(null);
    const body: CreateApiKeyInput = { name: name.trim(), permissions: [...permissions].sort() };
    const text = textOrNull(description);
    if (text !== null) body.description = text;
    if (expiry) body.expires_at = endOfDay(expiry);
    try {
      onCreated(await create.mutateAsync(body));
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    }
  }

  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label="Create API key" className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors?.fields.name}
          hint="What uses this key, such as Production backend."
          maxLength={150}
          autoComplete="off"
        />
        <TextField
          label="Expires on"
          type="date"
          min={today()}
          value={expiry}
          onChange={(event) => setExpiry(event.target.value)}
          error={errors?.fields.expires_at}
          hint="Optional. The key stops working at the end of this day. Leave empty for a key that does not expire."
        />
        <TextAreaField
          label="Description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={errors?.fields.description}
          rows={2}
          maxLength={500}
          className="sm:col-span-2"
        />
      </div>
      <PermissionPicker
        grantable={grantable}
        selected={permissions}
        onChange={setPermissions}
        error={errors?.fields.permissions}
        errorId={permissionsErrorId}
      />
      {errors && <FormError message={errors.message} other={errors.other} requestId={errors.requestId} />}
      <FormActions>
        <Button type="submit" pending={create.isPending} pendingLabel="Creating…">
          Create key
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
