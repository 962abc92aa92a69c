/**
 * TanStack Query hooks for Settings → Payments: the processor settings (GET/PUT/DELETE
 * /payment-settings) and "Test connection" (POST /payment-settings/test, never cached: it asks
 * Stripe each time).
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { PaymentSettings, PaymentSettingsTest, UpdatePaymentSettingsInput } from "../schemas/payment-settings.ts";
import type { ProcessorWebhooks } from "../schemas/processor-events.ts";
import { api } from "./api.ts";
import { type EntityResponse, useEntity, useSave } from "./hooks.ts";

export type { PaymentSettings, PaymentSettingsTest, ProcessorWebhooks };

export const paymentSettingsKey = ["payment-settings"] as const;

export function usePaymentSettings() {
  return useEntity<PaymentSettings>(paymentSettingsKey, "/payment-settings");
}

/** Stripe's webhooks as received (GET /payment-settings/webhooks), fetched again every 30 s while shown. */
export function useProcessorWebhooks(enabled: boolean) {
  return useQuery<ProcessorWebhooks>({
    queryKey: [...paymentSettingsKey, "webhooks"],
    queryFn: async () => (await api<EntityResponse<ProcessorWebhooks>>("/payment-settings/webhooks")).data,
    enabled,
    refetchInterval: 30_000,
  });
}

export function useSavePaymentSettings() {
  return useSave(
    async (input: UpdatePaymentSettingsInput) =>
      (await api<EntityResponse<PaymentSettings>>("/payment-settings", { method: "PUT", body: input })).data,
    () => [],
    () => paymentSettingsKey,
  );
}

export function useDisconnectStripe() {
  return useSave(
    async () => (await api<EntityResponse<PaymentSettings>>("/payment-settings", { method: "DELETE" })).data,
    () => [],
    () => paymentSettingsKey,
  );
}

export function useTestStripeConnection() {
  return useMutation({
    mutationFn: async () =>
      (await api<EntityResponse<PaymentSettingsTest>>("/payment-settings/test", { method: "POST" })).data,
  });
}

/** "Stand-in Shop (GB), default currency GBP": what "Test connection" found, in a sentence. */
export function describeStripeAccount(test: PaymentSettingsTest): string {
  const { name, country, default_currency } = test.account;
  const who = name ?? test.account.id;
  const where = country ? ` (${country})` : "";
  const currency = default_currency ? `, default currency ${default_currency}` : "";
  return `Connected to ${who}${where}${currency}, in ${test.mode} mode.`;
}
