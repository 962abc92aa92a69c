/**
 * TanStack Query hooks over the API: the dashboard's only data path. Query keys start with the
 * resource, so a mutation invalidates every list and detail of what it changed.
 */
import { keepPreviousData, type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Address, CreateAddressInput, UpdateAddressInput } from "../schemas/address.ts";
import type { ApiKey, CreateApiKeyInput, UpdateApiKeyInput } from "../schemas/api-key.ts";
import type { Business, CreateBusinessInput, UpdateBusinessInput } from "../schemas/business.ts";
import type { CreateCustomerInput, Customer, UpdateCustomerInput } from "../schemas/customer.ts";
import { api, type ListResponse, query } from "./api.ts";

export type { Address, ApiKey, Business, Customer };

export interface EntityResponse<T> {
  data: T;
  meta: { request_id: string };
}

export type ListParams = Record<string, string | number | undefined | null>;

/** Newest first: IDs sort by creation time. */
export const NEWEST_FIRST = "id[DESC]";

export const keys = {
  customers: ["customers"] as const,
  customerLists: ["customers", "list"] as const,
  customer: (id: string) => ["customers", "detail", id] as const,
  addresses: (customerId: string) => ["customers", "detail", customerId, "addresses"] as const,
  businesses: (customerId: string) => ["customers", "detail", customerId, "businesses"] as const,
  apiKeys: ["api-keys"] as const,
};

/**
 * How often to fetch again (ms), given what is on screen, or false to stop: for things that change
 * on their own (a delivery under way). Browsers poll only while the tab is visible.
 */
export type Poll<D> = (data: D | undefined) => number | false;

/** One page of a list endpoint. The previous page stays on screen while the next one loads. */
export function useList<T>(
  key: QueryKey,
  path: string,
  params: ListParams,
  enabled = true,
  poll?: Poll<ListResponse<T>>,
) {
  return useQuery<ListResponse<T>>({
    queryKey: [...key, params],
    queryFn: () => api<ListResponse<T>>(`${path}${query(params)}`),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: poll && ((q) => poll(q.state.data)),
  });
}

export function useEntity<T>(key: QueryKey, path: string, poll?: Poll<T>) {
  return useQuery<T>({
    queryKey: key,
    queryFn: async () => (await api<EntityResponse<T>>(path)).data,
    refetchInterval: poll && ((q) => poll(q.state.data)),
  });
}

export function useSave<I, T>(
  send: (input: I) => Promise<T>,
  invalidate: (result: T) => QueryKey[],
  setDetail?: (result: T) => QueryKey,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async (result) => {
      const detailKey = setDetail?.(result);
      if (detailKey) client.setQueryData(detailKey, result);
      await Promise.all(invalidate(result).map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}

export const enc = encodeURIComponent;

// Customers

export function useCustomers(params: ListParams) {
  return useList<Customer>(keys.customerLists, "/customers", params);
}

export function useCustomer(id: string) {
  return useEntity<Customer>(keys.customer(id), `/customers/${enc(id)}`);
}

export function useCreateCustomer() {
  return useSave(
    async (input: CreateCustomerInput) =>
      (await api<EntityResponse<Customer>>("/customers", { method: "POST", body: input })).data,
    () => [keys.customerLists],
    (customer) => keys.customer(customer.id),
  );
}

export function useUpdateCustomer(id: string) {
  return useSave(
    async (input: UpdateCustomerInput) =>
      (await api<EntityResponse<Customer>>(`/customers/${enc(id)}`, { method: "PATCH", body: input })).data,
    () => [keys.customerLists],
    () => keys.customer(id),
  );
}

// Addresses

export function useAddresses(customerId: string, params: ListParams) {
  return useList<Address>(keys.addresses(customerId), `/customers/${enc(customerId)}/addresses`, params);
}

export function useCreateAddress(customerId: string) {
  return useSave(
    async (input: CreateAddressInput) =>
      (await api<EntityResponse<Address>>(`/customers/${enc(customerId)}/addresses`, { method: "POST", body: input }))
        .data,
    () => [keys.addresses(customerId)],
  );
}

export function useUpdateAddress(customerId: string) {
  return useSave(
    async ({ id, input }: { id: string; input: UpdateAddressInput }) =>
      (
        await api<EntityResponse<Address>>(`/customers/${enc(customerId)}/addresses/${enc(id)}`, {
          method: "PATCH",
          body: input,
        })
      ).data,
    () => [keys.addresses(customerId)],
  );
}

// Businesses

export function useBusinesses(customerId: string, params: ListParams) {
  return useList<Business>(keys.businesses(customerId), `/customers/${enc(customerId)}/businesses`, params);
}

export function useCreateBusiness(customerId: string) {
  return useSave(
    async (input: CreateBusinessInput) =>
      (await api<EntityResponse<Business>>(`/customers/${enc(customerId)}/businesses`, { method: "POST", body: input }))
        .data,
    () => [keys.businesses(customerId)],
  );
}

export function useUpdateBusiness(customerId: string) {
  return useSave(
    async ({ id, input }: { id: string; input: UpdateBusinessInput }) =>
      (
        await api<EntityResponse<Business>>(`/customers/${enc(customerId)}/businesses/${enc(id)}`, {
          method: "PATCH",
          body: input,
        })
      ).data,
    () => [keys.businesses(customerId)],
  );
}

// API keys

export function useApiKeys(params: ListParams, enabled = true) {
  return useList<ApiKey>(keys.apiKeys, "/api-keys", params, enabled);
}

export function useCreateApiKey() {
  return useSave(
    async (input: CreateApiKeyInput) =>
      (await api<EntityResponse<ApiKey>>("/api-keys", { method: "POST", body: input })).data,
    () => [keys.apiKeys],
  );
}

export function useUpdateApiKey() {
  return useSave(
    async ({ id, input }: { id: string; input: UpdateApiKeyInput }) =>
      (await api<EntityResponse<ApiKey>>(`/api-keys/${enc(id)}`, { method: "PATCH", body: input })).data,
    () => [keys.apiKeys],
  );
}
