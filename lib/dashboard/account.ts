/** TanStack Query hooks for the signed-in staff member's own login (the Account page, /account). */
import type { Account, UpdateAccountInput } from "../schemas/account.ts";
import { api } from "./api.ts";
import { type EntityResponse, useEntity, useSave } from "./hooks.ts";

export type { Account, UpdateAccountInput };

export const accountKeys = { own: ["account"] as const };

export function useOwnAccount() {
  return useEntity<Account>(accountKeys.own, "/account");
}

export function useUpdateOwnAccount() {
  return useSave(
    async (input: Partial<UpdateAccountInput>) =>
      (await api<EntityResponse<Account>>("/account", { method: "PATCH", body: input })).data,
    () => [],
    () => accountKeys.own,
  );
}
