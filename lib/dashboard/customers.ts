/** Customers and their addresses and businesses: the hooks of the customer pages. */
import type { Address, CreateAddressInput, UpdateAddressInput } from "../schemas/address.ts";
import type { Business, CreateBusinessInput, UpdateBusinessInput } from "../schemas/business.ts";
import type { CreateCustomerInput, Customer, UpdateCustomerInput } from "../schemas/customer.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useEntity, useList, useSave } from "./hooks.ts";

export type { Address, Business, Customer };

export const customerKeys = {
  lists: ["customers", "list"] as const,
  detail: (id: string) => ["customers", "detail", id] as const,
  addresses: (customerId: string) => ["customers", "detail", customerId, "addresses"] as const,
  businesses: (customerId: string) => ["customers", "detail", customerId, "businesses"] as const,
};

export function useCustomers(params: ListParams) {
  return useList<Customer>(customerKeys.lists, "/customers", params);
}

export function useCustomer(id: string) {
  return useEntity<Customer>(customerKeys.detail(id), `/customers/${enc(id)}`);
}

export function useCreateCustomer() {
  return useSave(
    async (input: CreateCustomerInput) =>
      (await api<EntityResponse<Customer>>("/customers", { method: "POST", body: input })).data,
    () => [customerKeys.lists],
    (customer) => customerKeys.detail(customer.id),
  );
}

export function useUpdateCustomer(id: string) {
  return useSave(
    async (input: UpdateCustomerInput) =>
      (await api<EntityResponse<Customer>>(`/customers/${enc(id)}`, { method: "PATCH", body: input })).data,
    () => [customerKeys.lists],
    () => customerKeys.detail(id),
  );
}

// Addresses

export function useAddresses(customerId: string, params: ListParams) {
  return useList<Address>(customerKeys.addresses(customerId), `/customers/${enc(customerId)}/addresses`, params);
}

export function useCreateAddress(customerId: string) {
  return useSave(
    async (input: CreateAddressInput) =>
      (await api<EntityResponse<Address>>(`/customers/${enc(customerId)}/addresses`, { method: "POST", body: input }))
        .data,
    () => [customerKeys.addresses(customerId)],
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
    () => [customerKeys.addresses(customerId)],
  );
}

// Businesses

export function useBusinesses(customerId: string, params: ListParams) {
  return useList<Business>(customerKeys.businesses(customerId), `/customers/${enc(customerId)}/businesses`, params);
}

export function useCreateBusiness(customerId: string) {
  return useSave(
    async (input: CreateBusinessInput) =>
      (await api<EntityResponse<Business>>(`/customers/${enc(customerId)}/businesses`, { method: "POST", body: input }))
        .data,
    () => [customerKeys.businesses(customerId)],
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
    () => [customerKeys.businesses(customerId)],
  );
}
