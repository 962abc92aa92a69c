/**
 * Who customer emails go to, and the merchant's look and links in them (the decisions: events.ts,
 * the customer's current email first, and the billing contacts of an invoice's business).
 */
import { query } from "../../db/sql.ts";
import type { AccountSettings } from "../../schemas/account-settings.ts";
import { absoluteLogoUrl } from "../account-settings.ts";
import { createPortalSession } from "../portal/sessions.ts";

export interface Recipient {
  email: string;
  name: string | null;
}

/**
 * The billing contacts of business `businessId` (the family's business `contacts`, "typically used
 * for sending invoices"): its current list, one each by address (case-insensitive), leaving out
 * the addresses in `except` (the customer's, already emailed).
 */
export async function billingContactsOf(businessId: unknown, except: readonly string[]): Promise<Recipient[]> {
  if (typeof businessId !== "string") return [];
  const [row] = await query<{ contacts: { name?: string | null; email?: string }[] }>(
    "SELECT contacts FROM businesses WHERE id = $1",
    [businessId],
  );
  const seen = new Set(except.map((address) => address.toLowerCase()));
  const contacts: Recipient[] = [];
  for (const contact of Array.isArray(row?.contacts) ? row.contacts : []) {
    if (typeof contact?.email !== "string" || contact.email === "") continue;
    const key = contact.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    contacts.push({ email: contact.email, name: contact.name || null });
  }
  return contacts;
}

export async function customerOf(
  customerId: unknown,
  snapshot?: { email?: string; name?: string | null },
): Promise<Recipient | null> {
  if (typeof customerId !== "string") return null;
  const [row] = await query<{ email: string | null; name: string | null }>(
    "SELECT email, name FROM customers WHERE id = $1",
    [customerId],
  );
  const email = row?.email ?? snapshot?.email ?? null;
  return email ? { email, name: row?.name ?? snapshot?.name ?? null } : null;
}

/** The merchant's look in emails: its logo (absolute URL) and the zone its dates are printed in. */
export function branding(settings: AccountSettings): { logoUrl: string | null; timeZone: string } {
  return { logoUrl: absoluteLogoUrl(settings.logo_url), timeZone: settings.timezone };
}

/** A portal link (24 hours) for the customer, to the subscription's payment method page when given. */
export async function portalLink(customerId: string, subscriptionId?: string | null): Promise<string | null> {
  try {
    const session = await createPortalSession(customerId, { subscription_ids: subscriptionId ? [subscriptionId] : [] });
    return subscriptionId
      ? (session.urls.subscriptions[0]?.update_subscription_payment_method ?? session.urls.general.overview)
      : session.urls.general.overview;
  } catch {
    return null;
  }
}

export async function portalLinkOrThrow(customerId: string): Promise<string> {
  const session = await createPortalSession(customerId, { subscription_ids: [] });
  return session.urls.general.overview;
}
