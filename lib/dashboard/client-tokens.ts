/** TanStack Query hooks for client-side tokens (Developers page). */

import type { ClientToken, CreateClientTokenInput, UpdateClientTokenInput } from "../schemas/client-token.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useList, useSave } from "./hooks.ts";

export type { ClientToken };

const clientTokensKey = ["client-tokens"] as const;

export function useClientTokens(params: ListParams) {
  return useList<ClientToken>(clientTokensKey, "/client-tokens", params);
}

export function useCreateClientToken() {
  return useSave(
    async (input: CreateClientTokenInput) =>
      (await api<EntityResponse<ClientToken>>("/client-tokens", { method: "POST", body: input })).data,
    () => [clientTokensKey],
  );
}

export function useUpdateClientToken() {
  return useSave(
    async ({ id, input }: { id: string; input: UpdateClientTokenInput }) =>
      (await api<EntityResponse<ClientToken>>(`/client-tokens/${enc(id)}`, { method: "PATCH", body: input })).data,
    () => [clientTokensKey],
  );
}
