/** TanStack Query hooks for checkout domains (Developers page). */

import type { CheckoutDomain, CreateCheckoutDomainInput } from "../schemas/checkout-domain.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useList, useSave } from "./hooks.ts";

export type { CheckoutDomain };

const checkoutDomainsKey = ["checkout-domains"] as const;

export function useCheckoutDomains(params: ListParams, enabled = true) {
  return useList<CheckoutDomain>(checkoutDomainsKey, "/checkout-domains", params, enabled);
}

export function useCreateCheckoutDomain() {
  return useSave(
    async (input: CreateCheckoutDomainInput) =>
      (await api<EntityResponse<CheckoutDomain>>("/checkout-domains", { method: "POST", body: input })).data,
    () => [checkoutDomainsKey],
  );
}

export function useDeleteCheckoutDomain() {
  return useSave(
    async (id: string) => {
      await api<null>(`/checkout-domains/${enc(id)}`, { method: "DELETE" });
      return id;
    },
    () => [checkoutDomainsKey],
  );
}
