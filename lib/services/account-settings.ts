/**
 * GET and PATCH /account-settings: the merchant details (printed on invoices) and the account's
 * tax mode, kept in the `settings` key/value table under the keys below (a contract with the
 * invoice renderer, which reads them with `getAccountSettings`). An absent key means the default:
 * the name "Your company", no address, tax number or email, tax mode `external`.
 */
import { query, sqlTransaction, ts } from "../db/sql.ts";
import {
  type AccountSettings,
  DEFAULT_MERCHANT_NAME,
  type UpdateAccountSettingsInput,
} from "../schemas/account-settings.ts";
import { ACCOUNT_TAX_MODE_SETTING } from "./transactions/details.ts";

/** API field → settings key. */
export const ACCOUNT_SETTING_KEYS = {
  merchant_name: "merchant_name",
  merchant_address: "merchant_address",
  merchant_tax_number: "merchant_tax_number",
  merchant_email: "merchant_email",
  bank_transfer_instructions: "bank_transfer_instructions",
  tax_mode: ACCOUNT_TAX_MODE_SETTING,
} as const satisfies Record<keyof UpdateAccountSettingsInput, string>;

type Field = keyof typeof ACCOUNT_SETTING_KEYS;
const FIELDS = Object.keys(ACCOUNT_SETTING_KEYS) as Field[];
const KEYS = Object.values(ACCOUNT_SETTING_KEYS);

export async function getAccountSettings(): Promise<AccountSettings> {
  const rows = await query<{ key: string; value: string; updated_at: string }>(
    `SELECT key, value, ${ts("updated_at")} AS updated_at FROM settings WHERE key = ANY($1)`,
    [KEYS],
  );
  const value = (field: Field) => rows.find((row) => row.key === ACCOUNT_SETTING_KEYS[field])?.value ?? null;
  // RFC 3339 UTC strings of one format sort as the instants they name.
  const latest = rows.reduce<string | null>((max, row) => (max && max > row.updated_at ? max : row.updated_at), null);
  return {
    merchant_name: value("merchant_name") ?? DEFAULT_MERCHANT_NAME,
    merchant_address: value("merchant_address"),
    merchant_tax_number: value("merchant_tax_number"),
    merchant_email: value("merchant_email"),
    bank_transfer_instructions: value("bank_transfer_instructions"),
    // Anything but `internal` is `external`, as the totals read it (lib/services/transactions/details.ts).
    tax_mode: value("tax_mode") === "internal" ? "internal" : "external",
    updated_at: latest,
  };
}

/**
 * Sets the fields sent, in one database transaction. Null removes a value (back to its default);
 * so does a blank address or tax number (decision: a form's emptied field means "none", not "").
 * Changing the tax mode changes only transactions priced from now on: stored details stay.
 */
export async function updateAccountSettings(input: UpdateAccountSettingsInput): Promise<AccountSettings> {
  await sqlTransaction(async (client) => {
    for (const field of FIELDS) {
      const sent = input[field];
      if (sent === undefined) continue;
      const key = ACCOUNT_SETTING_KEYS[field];
      const text = typeof sent === "string" ? sent.trim() : sent;
      if (text === null || text === "") {
        await query("DELETE FROM settings WHERE key = $1", [key], client);
      } else {
        await query(
          `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, now())
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
          [key, text],
          client,
        );
      }
    }
  });
  return getAccountSettings();
}
