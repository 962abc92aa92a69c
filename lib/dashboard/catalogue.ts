/**
 * TanStack Query hooks for the catalogue (products, prices, discounts, discount groups), over the
 * same /api routes as any integration. A price change also refreshes the product lists (they can
 * include prices); a discount group change refreshes the discounts (their table shows group names).
 */
import { type QueryKey, useInfiniteQuery } from "@tanstack/react-query";
import type { CreateDiscountInput, Discount, UpdateDiscountInput } from "../schemas/discount.ts";
import type { CreateDiscountGroupInput, DiscountGroup, UpdateDiscountGroupInput } from "../schemas/discount-group.ts";
import type { CreatePriceInput, Price, ProductWithPrices, UpdatePriceInput } from "../schemas/price.ts";
import type { CreateProductInput, Product, UpdateProductInput } from "../schemas/product.ts";
import { api, type ListResponse, query } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useEntity, useList, useSave } from "./hooks.ts";

export type { Discount, DiscountGroup, Price, Product, ProductWithPrices };

export const catalogueKeys = {
  products: ["products"] as const,
  productLists: ["products", "list"] as const,
  product: (id: string) => ["products", "detail", id] as const,
  prices: ["prices"] as const,
  discounts: ["discounts"] as const,
  discountLists: ["discounts", "list"] as const,
  discount: (id: string) => ["discounts", "detail", id] as const,
  discountGroups: ["discount-groups"] as const,
};

// Products

export function useProducts(params: ListParams) {
  return useList<ProductWithPrices>(catalogueKeys.productLists, "/products", params);
}

export function useProduct(id: string) {
  return useEntity<Product>(catalogueKeys.product(id), `/products/${enc(id)}`);
}

export function useCreateProduct() {
  return useSave(
    async (input: CreateProductInput) =>
      (await api<EntityResponse<Product>>("/products", { method: "POST", body: input })).data,
    () => [catalogueKeys.productLists],
    (product) => catalogueKeys.product(product.id),
  );
}

export function useUpdateProduct(id: string) {
  return useSave(
    async (input: UpdateProductInput) =>
      (await api<EntityResponse<Product>>(`/products/${enc(id)}`, { method: "PATCH", body: input })).data,
    // Discounts show the names of the products they are restricted to.
    () => [catalogueKeys.productLists, catalogueKeys.discounts],
    () => catalogueKeys.product(id),
  );
}

// Prices

export function usePrices(params: ListParams) {
  return useList<Price>(catalogueKeys.prices, "/prices", params);
}

export function useCreatePrice() {
  return useSave(
    async (input: CreatePriceInput) =>
      (await api<EntityResponse<Price>>("/prices", { method: "POST", body: input })).data,
    () => [catalogueKeys.prices, catalogueKeys.productLists],
  );
}

export function useUpdatePrice() {
  return useSave(
    async ({ id, input }: { id: string; input: UpdatePriceInput }) =>
      (await api<EntityResponse<Price>>(`/prices/${enc(id)}`, { method: "PATCH", body: input })).data,
    () => [catalogueKeys.prices, catalogueKeys.productLists],
  );
}

/**
 * Every page of the catalogue (products with their prices), loaded page by page on demand: the
 * discount restriction picker searches what has been loaded and offers "Load more".
 */
export function useCatalogue(status: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: [...catalogueKeys.productLists, "catalogue", status] as QueryKey,
    queryFn: ({ pageParam }) =>
      api<ListResponse<ProductWithPrices>>(
        `/products${query({ include: "prices", status, per_page: 200, order_by: "name[ASC]", after: pageParam })}`,
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => {
      const pagination = last.meta.pagination;
      if (!pagination.has_more) return undefined;
      try {
        return new URL(pagination.next, "http://localhost").searchParams.get("after") ?? undefined;
      } catch {
        return undefined;
      }
    },
    enabled,
  });
}

// Discounts

export function useDiscounts(params: ListParams) {
  return useList<Discount>(catalogueKeys.discountLists, "/discounts", params);
}

/** A discount with its group and its current revision (`revision_id`, which the edit form sends back). */
export function useDiscount(id: string) {
  return useEntity<Discount>(catalogueKeys.discount(id), `/discounts/${enc(id)}?include=discount_group,revision`);
}

export function useCreateDiscount() {
  return useSave(
    async (input: CreateDiscountInput) =>
      (await api<EntityResponse<Discount>>("/discounts", { method: "POST", body: input })).data,
    // Not seeded into the detail's cache: the answer carries no revision (the family's discount
    // has none), and the detail page's edit form needs it (useDiscount asks include=revision).
    () => [catalogueKeys.discountLists],
  );
}

/**
 * Updates a discount as of the revision the form was loaded with (`dsc_…@dscrev_…`): when someone
 * changed it since, the API answers 409 conflict instead of overwriting their change.
 */
export function useUpdateDiscount(id: string) {
  return useSave(
    async ({ revision, input }: { revision: string | null; input: UpdateDiscountInput }) =>
      (
        await api<EntityResponse<Discount>>(`/discounts/${enc(id)}${revision ? `@${enc(revision)}` : ""}`, {
          method: "PATCH",
          body: input,
        })
      ).data,
    // The detail is fetched again rather than replaced: it includes the discount's group.
    () => [catalogueKeys.discountLists, catalogueKeys.discount(id)],
  );
}

// Discount groups

export function useDiscountGroups(params: ListParams, enabled = true) {
  return useList<DiscountGroup>(catalogueKeys.discountGroups, "/discount-groups", params, enabled);
}

export function useCreateDiscountGroup() {
  return useSave(
    async (input: CreateDiscountGroupInput) =>
      (await api<EntityResponse<DiscountGroup>>("/discount-groups", { method: "POST", body: input })).data,
    () => [catalogueKeys.discountGroups],
  );
}

export function useUpdateDiscountGroup() {
  return useSave(
    async ({ id, input }: { id: string; input: UpdateDiscountGroupInput }) =>
      (await api<EntityResponse<DiscountGroup>>(`/discount-groups/${enc(id)}`, { method: "PATCH", body: input })).data,
    () => [catalogueKeys.discountGroups, catalogueKeys.discounts],
  );
}
