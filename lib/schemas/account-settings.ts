/**
 * The account's settings (an extension of ours: the API family keeps them in its dashboard only):
 * the merchant details printed on invoices and the account's tax mode. Client-safe: the
 * dashboard's settings form uses these schemas too.
 */
import { z } from "zod";
import { CURRENCY_CODES, type CurrencyCode, isCurrencyCode } from "../billing/currencies.ts";
import { email, entityId, maxText, requiredText } from "./common.ts";

export const MERCHANT_NAME_MAX = 200;
export const MERCHANT_ADDRESS_MAX = 1000;
export const MERCHANT_TAX_NUMBER_MAX = 100;
export const BANK_TRANSFER_INSTRUCTIONS_MAX = 2000;
/** At most this many prices offered for plan changes in the customer portal. */
export const PORTAL_PLAN_PRICES_MAX = 50;

/** `external`: prices exclude tax (added on top); `internal`: prices include it. */
export const ACCOUNT_TAX_MODES = ["external", "internal"] as const;
export type AccountTaxModeSetting = (typeof ACCOUNT_TAX_MODES)[number];

/** The name on invoices while the merchant has not set one. */
export const DEFAULT_MERCHANT_NAME = "Your company";

/** The currency the dashboard preselects (new price, new invoice, Home) while none is set. */
export const DEFAULT_CURRENCY_CODE: CurrencyCode = "USD";
/** The time zone documents and emails print dates in while none is set. */
export const DEFAULT_TIMEZONE = "UTC";

/** An IANA zone name this runtime knows ("Europe/Paris", "UTC"); aliases Intl accepts count too. */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The zones offered in the settings form (this runtime's list, UTC first). */
export function timeZoneChoices(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((zone) => zone !== "UTC")];
}

export const accountSettingsSchema = z.object({
  merchant_name: z.string(),
  merchant_address: z.string().nullable(),
  merchant_tax_number: z.string().nullable(),
  merchant_email: z.string().nullable(),
  /** How to pay an invoice by bank transfer (IBAN, reference...): shown on the hosted invoice page. */
  bank_transfer_instructions: z.string().nullable(),
  tax_mode: z.enum(ACCOUNT_TAX_MODES),
  /** Preselected in the dashboard's currency choices (an explicit choice in the URL wins). */
  default_currency_code: z.enum(CURRENCY_CODES as [CurrencyCode, ...CurrencyCode[]]),
  /** IANA zone: the day printed on invoices, the hosted invoice page and emails. */
  timezone: z.string(),
  /**
   * The recurring prices customers may switch between in the customer portal (monthly ↔ yearly,
   * another plan): a subscription with one item on one of them is offered the others of its
   * currency. Empty: the portal offers no plan change.
   */
  portal_plan_price_ids: z.array(z.string()),
  /** The merchant's logo on the public `/logo` route (versioned by its content hash), or null. */
  logo_url: z.string().nullable(),
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
  default_currency_code: z
    .string({ error: "must be a supported currency code" })
    .refine(isCurrencyCode, `must be a supported ISO 4217 currency code: ${CURRENCY_CODES.join(", ")}`)
    .nullable()
    .optional(),
  timezone: z
    .string({ error: "must be an IANA time zone name" })
    .refine(isTimeZone, 'must be an IANA time zone name, such as "Europe/London" or "UTC"')
    .nullable()
    .optional(),
  portal_plan_price_ids: z
    .array(entityId("pri"), { error: "must be an array of price IDs" })
    .max(PORTAL_PLAN_PRICES_MAX, `must list at most ${PORTAL_PLAN_PRICES_MAX} prices`)
    .refine((ids) => new Set(ids).size === ids.length, "must not list a price twice")
    .nullable()
    .optional(),
});
export type UpdateAccountSettingsInput = z.infer<typeof updateAccountSettingsBody>;

/** Logo formats: PNG and JPEG only (SVG can carry scripts; both embed in PDFs as they are). */
export const LOGO_CONTENT_TYPES = ["image/png", "image/jpeg"] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];
/**
 * 256 KB decoded: a logo is printed about 160×50 points, so even a 1000 px wide PNG is plenty and
 * fits; every PDF and hosted page embeds it, and its base64 (about 350 KB) stays far below the
 * API's 1 MiB body limit.
 */
export const LOGO_MAX_BYTES = 256 * 1024;
/** Largest side in pixels: bigger is refused as absurd (a decompression bomb, or a photo). */
export const LOGO_MAX_DIMENSION = 4000;
/** base64 of the largest logo (4/3 of its bytes, padded). */
export const LOGO_MAX_BASE64 = Math.ceil(LOGO_MAX_BYTES / 3) * 4;

/** PUT /account-settings/logo: the image as base64 (the API takes JSON bodies only). */
export const uploadLogoBody = z.strictObject({
  content_type: z.enum(LOGO_CONTENT_TYPES, { error: "must be image/png or image/jpeg (SVG is not accepted)" }),
  data: z
    .string({ error: "must be the image as a base64 string" })
    .min(1, "must be the image as a base64 string")
    .max(LOGO_MAX_BASE64, `the image must be at most ${LOGO_MAX_BYTES / 1024} KB`),
});
export type UploadLogoInput = z.infer<typeof uploadLogoBody>;
