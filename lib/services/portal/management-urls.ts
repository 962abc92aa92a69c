/**
 * `management_urls` of subscriptions in API answers (spec: Subscription; decision: portal-tokens): the
 * entity's SQL renders the plain portal links (lib/db/entities/subscription.ts); for a caller
 * whose permissions include `customer_portal_session.write`, the subscription routes pass their
 * answer through `withPortalLinks`, which swaps in links carrying a portal token for the
 * subscription's customer (24 hours, tokens.ts). Events and webhooks never carry
 * `management_urls` at all (entity.ts SUBSCRIPTION_EVENT_FIELDS), so no token is ever stored.
 *
 * These tokens belong to no stored portal session (`sid` null): making them is a pure computation,
 * so a GET of a subscription writes nothing. They are issued as of the start of the current hour
 * (so they hold 23 to 24 hours): two reads of the same subscription within an hour answer the
 * same links, so clients comparing or caching answers see no churn. Without the permission the
 * answer's JSON text passes through untouched (no parse, no cost).
 */
import type { AuthContext } from "../../http/auth.ts";
import { ListResult } from "../../http/pagination.ts";
import { RawJson } from "../../json.ts";
import { portalUrl } from "./links.ts";
import { issueToken } from "./tokens.ts";

export const PORTAL_PERMISSION = "customer_portal_session.write";

type Urls = { update_payment_method: string | null; cancel: string };
type WithUrls = { id?: string; customer_id?: string; management_urls?: Urls | null };

async function authenticate(subscriptions: WithUrls[], now: number): Promise<void> {
  const tokens = new Map<string, Promise<string>>();
  const tokenFor = (customerId: string) => {
    let token = tokens.get(customerId);
    if (!token) {
      const hour = Math.floor(now / 3_600_000) * 3_600_000;
      token = issueToken("portal", customerId, { now: hour }).then((t) => t.token);
      tokens.set(customerId, token);
    }
    return token;
  };
  for (const sub of subscriptions) {
    const urls = sub?.management_urls;
    // A preview has no `id`: its links name the subscription.
    const id = sub?.id ?? /\/portal\/subscriptions\/(sub_[a-z0-9]{26})\//.exec(urls?.cancel ?? "")?.[1];
    if (!urls || !id || !sub.customer_id) continue;
    const token = await tokenFor(sub.customer_id);
    sub.management_urls = {
      update_payment_method:
        urls.update_payment_method === null ? null : portalUrl("update_subscription_payment_method", id, token),
      cancel: portalUrl("cancel_subscription", id, token),
    };
  }
}

/** The answer of a subscription route, with authenticated management_urls when `auth` may have them. */
export async function withPortalLinks<T>(auth: AuthContext, result: T, now = Date.now()): Promise<T> {
  if (!auth.permissions.has(PORTAL_PERMISSION)) return result;
  if (result instanceof RawJson) {
    const value = result.parse() as WithUrls;
    await authenticate([value], now);
    return new RawJson(JSON.stringify(value)) as T;
  }
  if (result instanceof ListResult) {
    const data = (result.data instanceof RawJson ? result.data.parse() : result.data) as WithUrls[];
    await authenticate(data, now);
    return new ListResult(
      new RawJson(JSON.stringify(data)),
      result.perPage,
      result.hasMore,
      result.estimatedTotal,
      result.lastId,
    ) as T;
  }
  if (result && typeof result === "object" && "management_urls" in result) {
    await authenticate([result as WithUrls], now);
  }
  return result;
}
