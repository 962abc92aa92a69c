/** TanStack Query hooks for payment links (Catalogue → Payment links). */

import type { CreatePaymentLinkInput, PaymentLink, UpdatePaymentLinkInput } from "../schemas/payment-link.ts";
import type { Price } from "../schemas/price.ts";
import type { Product } from "../schemas/product.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useList, useSave } from "./hooks.ts";

export type { PaymentLink };

const paymentLinksKey = ["payment-links"] as const;

export function usePaymentLinks(params: ListParams) {
  return useList<PaymentLink>(paymentLinksKey, "/payment-links", params);
}

export function useCreatePaymentLink() {
  return useSave(
    async (input: CreatePaymentLinkInput) =>
      (await api<EntityResponse<PaymentLink>>("/payment-links", { method: "POST", body: input })).data,
    () => [paymentLinksKey],
  );
}

export function useUpdatePaymentLink() {
  return useSave(
    async ({ id, input }: { id: string; input: UpdatePaymentLinkInput }) =>
      (await api<EntityResponse<PaymentLink>>(`/payment-links/${enc(id)}`, { method: "PATCH", body: input })).data,
    () => [paymentLinksKey],
  );
}

export type PriceWithProduct = Price & { product?: Product };

/** The prices (with their products) that links name: one request per page of links. */
export function useLinkedPrices(ids: readonly string[]) {
  const unique = [...new Set(ids)].sort();
  return useList<PriceWithProduct>(
    ["prices", "linked"],
    "/prices",
    { id: unique.join(","), include: "product", per_page: 200 },
    unique.length > 0,
  );
}
