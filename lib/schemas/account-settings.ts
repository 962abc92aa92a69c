/**
 * The account's settings (an extension of ours: the API family keeps them in its dashboard only):
 * the merchant details printed on invoices and the account's tax mode. Client-safe: the
 * dashboard's settings form uses these schemas too.
 */
import { z } from "zod";
import { email, maxText, requiredText } from "./common.ts";

export const MERCHANT_NAME_MAX = 200;
export const MERCHANT_ADDRESS_MAX = 1000;
export const MERCHANT_TAX_NUMBER_MAX = 100;
export const BANK_TRANSFER_INSTRUCTIONS_MAX = 2000;

/** `external`: prices exclude tax (added on top); `internal`: prices include it. */
export const ACCOUNT_TAX_MODES = ["external", "internal"] as const;
export type AccountTaxModeSetting = (typeof ACCOUNT_TAX_MODES)[number];

/** The name on invoices while the merchant has not set one. */
export const DEFAULT_MERCHANT_NAME = "Your company";

export const accountSettingsSchema = z.object({
  merchant_name: z.string(),
  merchant_address: z.string().nullable(),
  merchant_tax_number: z.string().nullable(),
  merchant_email: z.string().nullable(),
  /** How to pay an invoice by bank transfer (IBAN, reference...): shown on the hosted invoice page. */
  bank_transfer_instructions: z.string().nullable(),
  tax_mode: z.enum(ACCOUNT_TAX_MODES),
  updated_at: z.string().nullable(),
});
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/**
 * PATCH /account-settings: every field optional; null (or, for the optional texts, a blank
 * string) removes a value, and a removed name falls back to the default name.
 */
export const updateAccountSettingsBody = z.strictObject({
  merchant_name: requiredText(MERCHANT_NAME_MAX).nullable().optional(),
  merchant_address: maxText(MERCHANT_ADDRESS_MAX).nullable().optional(),
  merchant_tax_number: maxText(MERCHANT_TAX_NUMBER_MAX).nullable().optional(),
  merchant_email: email.nullable().optional(),
  bank_transfer_instructions: maxText(BANK_TRANSFER_INSTRUCTIONS_MAX).nullable().optional(),
  tax_mode: z.enum(ACCOUNT_TAX_MODES, { error: "must be external or internal" }).optional(),
});
export type UpdateAccountSettingsInput = z.infer<typeof updateAccountSettingsBody>;
