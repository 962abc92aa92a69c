"use client";

import { type ClientToken, useCreateClientToken } from "@/lib/dashboard/client-tokens";
import { CLIENT_TOKEN_DESCRIPTION_MAX } from "@/lib/schemas/client-token";
import { CredentialForm, useCredentialForm } from "./credential-form";

export function CreateClientTokenForm({
  onCreated,
  onCancel,
}: {
  onCreated: (token: ClientToken) => void;
  onCancel: () => void;
}) {
  const create = useCreateClientToken();
  const state = useCredentialForm(() => ({ name: "", description: "" }));
  return (
    <CredentialForm
      label="Create client-side token"
      submitLabel="Create token"
      state={state}
      onSubmit={(event) =>
        state.submit(event, {
          fields: [],
          extra: {},
          send: async (body) => onCreated(await create.mutateAsync(body)),
        })
      }
      onCancel={onCancel}
      nameHint="Where the token is used, such as Pricing page."
      descriptionMax={CLIENT_TOKEN_DESCRIPTION_MAX}
    />
  );
}
