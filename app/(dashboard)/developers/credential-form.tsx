"use client";

import type { FormEvent, ReactNode } from "react";
import { FormShell, type FormShellProps, useForm } from "@/components/entity-form";
import { TextAreaField, TextField } from "@/components/form";
import { textOrNull } from "@/lib/dashboard/form";

/** What an API key and a client-side token share: a name, a description, and shown once when made. */
export function useCredentialForm<V extends { name: string; description: string }>(initial: () => V) {
  const state = useForm(initial);
  /** Sends name and description (left out when blank) with `extra`; refusals sit beside the fields. */
  const submit = <T,>(
    event: FormEvent<HTMLFormElement>,
    { fields, extra, send }: { fields: readonly string[]; extra: object; send: (body: never) => Promise<T> },
  ) => {
    event.preventDefault();
    const description = textOrNull(state.values.description);
    const body = { name: state.values.name.trim(), ...(description === null ? {} : { description }), ...extra };
    return state.run({ fields: ["name", "description", ...fields], body, send: (b) => send(b as never) });
  };
  return { ...state, submit };
}

type FieldBind = ReturnType<typeof useForm<{ name: string }>>["bind"];

/** A credential's form: name, then `children` (such as an expiry), description, then what follows. */
export function CredentialForm({
  label,
  submitLabel,
  state,
  onSubmit,
  onCancel,
  nameHint,
  descriptionMax,
  children,
  after,
}: {
  label: string;
  submitLabel: string;
  state: FormShellProps["state"] & { bind: (field: "name" | "description") => ReturnType<FieldBind> };
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  nameHint: string;
  descriptionMax: number;
  children?: ReactNode;
  after?: ReactNode;
}) {
  return (
    <FormShell
      label={label}
      submitLabel={submitLabel}
      pendingLabel="Creating…"
      state={state}
      onSubmit={onSubmit}
      onCancel={onCancel}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label="Name" required maxLength={150} autoComplete="off" {...state.bind("name")} hint={nameHint} />
        {children}
        <TextAreaField
          label="Description"
          mono={false}
          rows={2}
          maxLength={descriptionMax}
          {...state.bind("description")}
          className={children ? "sm:col-span-2" : ""}
        />
      </div>
      {after}
    </FormShell>
  );
}
