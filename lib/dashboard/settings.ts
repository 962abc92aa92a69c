/**
 * TanStack Query hooks for the account settings and the tax rates (the settings page), and the
 * percentage ↔ decimal fraction conversions its rate inputs need (exact: string arithmetic).
 */
import { useEffect, useRef } from "react";
import type { CurrencyCode } from "../billing/currencies.ts";
import {
  type AccountSettings,
  DEFAULT_MERCHANT_NAME,
  type UpdateAccountSettingsInput,
  type UploadLogoInput,
} from "../schemas/account-settings.ts";
import type { TaxRateEntry } from "../schemas/tax-rate.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, useEntity, useList, useSave } from "./hooks.ts";

export type { AccountSettings, TaxRateEntry };

export const settingsKeys = {
  account: ["account-settings"] as const,
  taxRates: ["tax-rates"] as const,
};

export function useAccountSettings() {
  return useEntity<AccountSettings>(settingsKeys.account, "/account-settings");
}

/**
 * Preselects the account's default currency in a new form: calls `apply` once, when the settings
 * arrive, unless `chosen()` says the person already picked a currency (their choice wins).
 */
export function usePreselectCurrency(apply: (code: CurrencyCode) => void, chosen: () => boolean): void {
  const code = useAccountSettings().data?.default_currency_code;
  const latest = useRef({ apply, chosen });
  latest.current = { apply, chosen };
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !code) return;
    done.current = true;
    if (!latest.current.chosen()) latest.current.apply(code);
  }, [code]);
}

export function useUpdateAccountSettings() {
  return useSave(
    async (input: UpdateAccountSettingsInput) =>
      (await api<EntityResponse<AccountSettings>>("/account-settings", { method: "PATCH", body: input })).data,
    () => [],
    () => settingsKeys.account,
  );
}

/** PUT /account-settings/logo: answers the settings with the new `logo_url`. */
export function useUploadLogo() {
  return useSave(
    async (input: UploadLogoInput) =>
      (await api<EntityResponse<AccountSettings>>("/account-settings/logo", { method: "PUT", body: input })).data,
    () => [],
    () => settingsKeys.account,
  );
}

export function useRemoveLogo() {
  return useSave(
    async () => (await api<EntityResponse<AccountSettings>>("/account-settings/logo", { method: "DELETE" })).data,
    () => [],
    () => settingsKeys.account,
  );
}

/**
 * Which of Home's first steps the settings show done: business details (a name other than the
 * default, and an address), a logo, and a tax mode chosen (the settings saved at least once).
 */
export function settingsStepsDone(settings: AccountSettings): { details: boolean; logo: boolean; taxMode: boolean } {
  return {
    details: settings.merchant_name !== DEFAULT_MERCHANT_NAME && settings.merchant_address !== null,
    logo: settings.logo_url !== null,
    taxMode: settings.updated_at !== null,
  };
}

/** A file's bytes as base64 (the API takes JSON bodies: the logo travels as base64). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}

/** Every country's rate (one page: the API lists them all). */
export function useTaxRates() {
  return useList<TaxRateEntry>(settingsKeys.taxRates, "/tax-rates", {});
}

export function useSetTaxRate() {
  return useSave(
    async ({ country, rate }: { country: string; rate: string }) =>
      (await api<EntityResponse<TaxRateEntry>>(`/tax-rates/${enc(country)}`, { method: "PUT", body: { rate } })).data,
    () => [settingsKeys.taxRates],
  );
}

export function useResetTaxRate() {
  return useSave(
    async (country: string) =>
      (await api<EntityResponse<TaxRateEntry>>(`/tax-rates/${enc(country)}`, { method: "DELETE" })).data,
    () => [settingsKeys.taxRates],
  );
}

/**
 * A percentage typed by a person ("7.25", "20", "7,25") → the API's decimal fraction ("0.0725",
 * "0.2"), or null when it is not a plain non-negative number. Exact: the decimal point moves two
 * places, no floating point. The API checks the range (0 to 1) and the precision.
 */
export function percentToFraction(text: string): string | null {
  const match = /^(\d*)(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return null;
  const [, intDigits = "", fracDigits = ""] = match;
  if (intDigits === "" && fracDigits === "") return null;
  const whole = intDigits.padStart(3, "0");
  const digits = `${whole.slice(0, -2)}.${whole.slice(-2)}${fracDigits}`;
  const [int = "", frac = ""] = digits.split(".");
  const cleanInt = int.replace(/^0+(?=\d)/, "");
  const cleanFrac = frac.replace(/0+$/, "");
  return cleanFrac ? `${cleanInt}.${cleanFrac}` : cleanInt;
}

/** The API's decimal fraction → the percentage a person types: "0.0725" → "7.25". */
export function fractionToPercent(rate: string): string {
  const [int, frac = ""] = rate.split(".");
  const padded = frac.padEnd(2, "0");
  const whole = `${int}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, "");
  const rest = padded.slice(2).replace(/0+$/, "");
  return rest ? `${whole}.${rest}` : whole;
}
