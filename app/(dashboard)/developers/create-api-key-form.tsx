"use client";

import { useId } from "react";
import { TextField } from "@/components/form";
import { type ApiKey, useCreateApiKey } from "@/lib/dashboard/api-keys";
import { endOfDayIso, todayInputValue } from "@/lib/dashboard/display";
import { CredentialForm, useCredentialForm } from "./credential-form";
import { PermissionPicker } from "./permission-picker";

export function CreateApiKeyForm({
  grantable,
  onCreated,
  onCancel,
}: {
  grantable: readonly string[];
  onCreated: (key: ApiKey) => void;
  onCancel: () => void;
}) {
  const create = useCreateApiKey();
  const state = useCredentialForm(() => ({ name: "", description: "", expiry: "", permissions: new Set<string>() }));
  const { values } = state;
  const permissionsErrorId = useId();
  return (
    <CredentialForm
      label="Create API key"
      submitLabel="Create key"
      state={state}
      onSubmit={(event) =>
        state.submit(event, {
          fields: ["expires_at", "permissions"],
          // A key given an expiry date works until the end of that day in the viewer's time zone.
          extra: {
            permissions: [...values.permissions].sort(),
            ...(values.expiry ? { expires_at: endOfDayIso(values.expiry) } : {}),
          },
          send: async (body) => onCreated(await create.mutateAsync(body)),
        })
      }
      onCancel={onCancel}
      nameHint="What uses this key, such as Production backend."
      descriptionMax={500}
      after={
        <PermissionPicker
          grantable={grantable}
          selected={values.permissions}
          onChange={(permissions) => state.set("permissions", permissions)}
          error={state.error("permissions")}
          errorId={permissionsErrorId}
        />
      }
    >
      <TextField
        label="Expires on"
        type="date"
        min={todayInputValue()}
        {...state.bind("expiry", "expires_at")}
        hint="Optional. The key stops working at the end of this day. Leave empty for a key that does not expire."
      />
    </CredentialForm>
  );
}
