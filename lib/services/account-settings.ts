/**
 * GET and PATCH /account-settings: the merchant details (printed on invoices) and the account's
 * tax mode, kept in the `settings` key/value table under the keys below (a contract with the
 * invoice renderer, which reads them with `getAccountSettings`). An absent key means the default:
 * the name "Your company", no address, tax number or email, tax mode `external`, currency USD,
 * time zone UTC, no logo.
 *
 * `portal_plan_price_ids` (the prices the customer portal lets customers switch between) is kept
 * as a JSON array under its key; each must be a recurring price (checked when set; the portal
 * offers only those still active).
 *
 * The logo (PUT/DELETE /account-settings/logo) is kept in the same table, under two keys written
 * in one transaction: `logo` (JSON: content type, pixel size, base64 bytes; at most 256 KB decoded)
 * and `logo_version` (the first 16 hex digits of its SHA-256). Decision: no table of its own, since
 * there is one logo per deployment and the settings table already is the account's store; GET
 * /account-settings reads only the short version key, never the image, and the public `/logo`
 * route (app/logo/route.ts) reads the image by its key.
 */
import { createHash } from "node:crypto";
import { isCurrencyCode } from "../billing/currencies.ts";
import { config } from "../config.ts";
import { query, sqlTransaction, ts } from "../db/sql.ts";
import { storableJson } from "../db/storable.ts";
import { checkLogo, type LogoImage } from "../documents/logo.ts";
import { ApiError, invalidField } from "../errors.ts";
import { FileResult } from "../http/results.ts";
import {
  type AccountSettings,
  DEFAULT_CURRENCY_CODE,
  DEFAULT_MERCHANT_NAME,
  DEFAULT_TIMEZONE,
  isTimeZone,
  LOGO_CONTENT_TYPES,
  type LogoContentType,
  type UpdateAccountSettingsInput,
  type UploadLogoInput,
} from "../schemas/account-settings.ts";
import { putSetting } from "./settings.ts";
import { ACCOUNT_TAX_MODE_SETTING } from "./transactions/details.ts";

/** API field → settings key. */
export const ACCOUNT_SETTING_KEYS = {
  merchant_name: "merchant_name",
  merchant_address: "merchant_address",
  merchant_tax_number: "merchant_tax_number",
  merchant_email: "merchant_email",
  bank_transfer_instructions: "bank_transfer_instructions",
  tax_mode: ACCOUNT_TAX_MODE_SETTING,
  default_currency_code: "default_currency_code",
  timezone: "timezone",
  portal_plan_price_ids: "portal_plan_price_ids",
} as const satisfies Record<keyof UpdateAccountSettingsInput, string>;

type Field = keyof typeof ACCOUNT_SETTING_KEYS;
const FIELDS = Object.keys(ACCOUNT_SETTING_KEYS) as Field[];
export const LOGO_KEY = "logo";
export const LOGO_VERSION_KEY = "logo_version";
const KEYS = [...Object.values(ACCOUNT_SETTING_KEYS), LOGO_VERSION_KEY];

/** The path of the public logo route for a logo version (relative: pages on this origin use it). */
export function logoPath(version: string): string {
  return `/logo?v=${version}`;
}

/** The logo's absolute URL (PUBLIC_URL), for emails; null without a logo. */
export function absoluteLogoUrl(logoUrl: string | null): string | null {
  return logoUrl ? `${config.publicUrl}${logoUrl}` : null;
}

/** The stored list of price IDs (a value that no longer parses reads as none, never a 500). */
function storedPriceIds(text: string | null): string[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/** Each ID must name a recurring price: else 400 naming `portal_plan_price_ids[i]`. */
async function checkPlanPrices(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await query<{ id: string; recurring: boolean }>(
    "SELECT id, billing_cycle_interval IS NOT NULL AS recurring FROM prices WHERE id = ANY($1)",
    [ids],
  );
  const found = new Map(rows.map((row) => [row.id, row.recurring]));
  const errors = ids.flatMap((id, index) => {
    const recurring = found.get(id);
    if (recurring === undefined)
      return [{ field: `portal_plan_price_ids[${index}]`, message: `no price has the ID ${id}` }];
    if (!recurring) {
      return [
        {
          field: `portal_plan_price_ids[${index}]`,
          message: `${id} is a one-time price: customers switch between recurring prices only`,
        },
      ];
    }
    return [];
  });
  if (errors.length > 0)
    throw new ApiError("invalid_field", "Some prices cannot be offered in the portal.", { errors });
}

export async function getAccountSettings(): Promise<AccountSettings> {
  const rows = await query<{ key: string; value: string; updated_at: string }>(
    `SELECT key, value, ${ts("updated_at")} AS updated_at FROM settings WHERE key = ANY($1)`,
    [KEYS],
  );
  const raw = (key: string) => rows.find((row) => row.key === key)?.value ?? null;
  const value = (field: Field) => raw(ACCOUNT_SETTING_KEYS[field]);
  const currency = value("default_currency_code");
  const zone = value("timezone");
  const logoVersion = raw(LOGO_VERSION_KEY);
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
    // A stored value this runtime no longer knows falls back to the default (never a 500).
    default_currency_code: currency && isCurrencyCode(currency) ? currency : DEFAULT_CURRENCY_CODE,
    timezone: zone && isTimeZone(zone) ? zone : DEFAULT_TIMEZONE,
    portal_plan_price_ids: storedPriceIds(value("portal_plan_price_ids")),
    logo_url: logoVersion ? logoPath(logoVersion) : null,
    updated_at: latest,
  };
}

/**
 * Sets the fields sent, in one database transaction. Null removes a value (back to its default);
 * so does a blank address or tax number (decision: a form's emptied field means "none", not "").
 * Changing the tax mode changes only transactions priced from now on: stored details stay.
 */
export async function updateAccountSettings(input: UpdateAccountSettingsInput): Promise<AccountSettings> {
  if (input.portal_plan_price_ids) await checkPlanPrices(input.portal_plan_price_ids);
  await sqlTransaction(async (client) => {
    for (const field of FIELDS) {
      const sent = input[field];
      if (sent === undefined) continue;
      const key = ACCOUNT_SETTING_KEYS[field];
      if (Array.isArray(sent)) {
        if (sent.length === 0) await query("DELETE FROM settings WHERE key = $1", [key], client);
        else await putSetting(key, storableJson(sent), client);
        continue;
      }
      const text = typeof sent === "string" ? sent.trim() : sent;
      if (text === null || text === "") {
        await query("DELETE FROM settings WHERE key = $1", [key], client);
      } else {
        await putSetting(key, text, client);
      }
    }
  });
  return getAccountSettings();
}

async function setLogoRows(rows: [string, string][] | null): Promise<void> {
  await sqlTransaction(async (client) => {
    if (!rows) {
      await query("DELETE FROM settings WHERE key = ANY($1)", [[LOGO_KEY, LOGO_VERSION_KEY]], client);
      return;
    }
    for (const [key, value] of rows) await putSetting(key, value, client);
  });
}

/** PUT /account-settings/logo: checks the image (lib/documents/logo.ts) and replaces the logo. */
export async function uploadLogo(input: UploadLogoInput): Promise<AccountSettings> {
  const check = checkLogo(input.content_type, input.data);
  if (!check.ok) throw invalidField(check.field, check.message);
  const { image } = check;
  const version = createHash("sha256").update(image.bytes).digest("hex").slice(0, 16);
  const stored = storableJson({
    content_type: image.contentType,
    width: image.width,
    height: image.height,
    data: Buffer.from(image.bytes).toString("base64"),
  });
  await setLogoRows([
    [LOGO_KEY, stored],
    [LOGO_VERSION_KEY, version],
  ]);
  return getAccountSettings();
}

/** DELETE /account-settings/logo: removes the logo (nothing to remove is not an error). */
export async function removeLogo(): Promise<AccountSettings> {
  await setLogoRows(null);
  return getAccountSettings();
}

/** The stored logo with its version, or null (none, or a stored value that no longer parses). */
export async function getLogo(): Promise<(LogoImage & { version: string }) | null> {
  const rows = await query<{ key: string; value: string }>("SELECT key, value FROM settings WHERE key = ANY($1)", [
    [LOGO_KEY, LOGO_VERSION_KEY],
  ]);
  const logo = rows.find((row) => row.key === LOGO_KEY)?.value;
  const version = rows.find((row) => row.key === LOGO_VERSION_KEY)?.value;
  if (!logo || !version) return null;
  try {
    const parsed = JSON.parse(logo) as { content_type: string; width: number; height: number; data: string };
    if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(parsed.content_type)) return null;
    const bytes = Buffer.from(parsed.data, "base64");
    return {
      contentType: parsed.content_type as LogoContentType,
      width: parsed.width,
      height: parsed.height,
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      version,
    };
  } catch {
    return null;
  }
}

/**
 * The file of the public `/logo?v=<version>` route (app/logo/route.ts): the current logo, cached
 * for a year when `requested` is its version (a changed logo gets a new URL), briefly otherwise (an
 * old link still gets the current logo); null without one.
 */
export async function logoFile(requested: string | null): Promise<FileResult | null> {
  const logo = await getLogo();
  if (!logo) return null;
  return new FileResult({
    body: logo.bytes,
    contentType: logo.contentType,
    size: logo.bytes.byteLength,
    cacheControl: requested === logo.version ? "public, max-age=31536000, immutable" : "public, max-age=300",
    headers: {
      etag: `"${logo.version}"`,
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "cross-origin",
    },
  });
}
