/** API keys: the hooks of the developers page. */
import type { ApiKey, CreateApiKeyInput, UpdateApiKeyInput } from "../schemas/api-key.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useList, useSave } from "./hooks.ts";

export type { ApiKey };

export const apiKeyKeys = { all: ["api-keys"] as const };

export function useApiKeys(params: ListParams, enabled = true) {
  return useList<ApiKey>(apiKeyKeys.all, "/api-keys", params, enabled);
}

export function useCreateApiKey() {
  return useSave(
    async (input: CreateApiKeyInput) =>
      (await api<EntityResponse<ApiKey>>("/api-keys", { method: "POST", body: input })).data,
    () => [apiKeyKeys.all],
  );
}

export function useUpdateApiKey() {
  return useSave(
    async ({ id, input }: { id: string; input: UpdateApiKeyInput }) =>
      (await api<EntityResponse<ApiKey>>(`/api-keys/${enc(id)}`, { method: "PATCH", body: input })).data,
    () => [apiKeyKeys.all],
  );
}
