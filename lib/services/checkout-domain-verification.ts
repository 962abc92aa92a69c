/**
 * Apple Pay verification of a checkout domain (POST /checkout-domains/{id}/verify-payment-method):
 * the check the API family documents, made by this server. Apple verifies a merchant domain by
 * fetching https://<domain>/.well-known/apple-developer-merchantid-domain-association, which must
 * be served directly over HTTPS, answer 200 and not redirect. We fetch it the same way and call the
 * domain verified when it does, with a non-empty body.
 *
 * - The address fetched is BILLING_CHECKOUT_DOMAIN_CHECK_URL with `{domain}` replaced, by default
 *   `https://{domain}/.well-known/apple-developer-merchantid-domain-association`. Tests point it at
 *   a local stand-in (http://127.0.0.1:<port>/{domain}/…), as STRIPE_API_URL selects Stripe's.
 * - The host is resolved once and every address checked as for webhook destinations
 *   (lib/events/destination.ts: no private or loopback address in live, or in the sandbox with
 *   BILLING_WEBHOOK_ALLOW_PRIVATE=false), then the connection goes to those very addresses. A
 *   staff member cannot make the server probe its own network through this check beyond a yes/no.
 * - One GET, 5 seconds, redirects not followed, at most 64 KiB read.
 */
import type { LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { resolveDestination } from "../events/destination.ts";
import { pinnedLookup } from "../events/send.ts";

export const APPLE_ASSOCIATION_PATH = "/.well-known/apple-developer-merchantid-domain-association";
const DEFAULT_CHECK_URL = `https://{domain}${APPLE_ASSOCIATION_PATH}`;
const TIMEOUT_MS = 5_000;
const MAX_BYTES = 64 * 1024;

export type VerificationOutcome = { ok: true; url: string } | { ok: false; url: string; problem: string };

/** The address checked for `domain` (a canonical domain name: letters, digits, dots and hyphens). */
export function associationUrl(domain: string): string {
  const template = process.env.BILLING_CHECKOUT_DOMAIN_CHECK_URL?.trim() || DEFAULT_CHECK_URL;
  return template.replaceAll("{domain}", domain);
}

function get(url: URL, addresses: readonly LookupAddress[] | null): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(
      url,
      {
        method: "GET",
        headers: { "user-agent": "billing-service-domain-check/1", accept: "*/*" },
        lookup: addresses ? pinnedLookup(addresses) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        agent: false,
      },
      (response) => {
        let bytes = 0;
        let settled = false;
        const settle = () => {
          if (settled) return;
          settled = true;
          resolve({ status: response.statusCode ?? 0, bytes });
          response.destroy();
        };
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes >= MAX_BYTES) settle();
        });
        response.on("end", settle);
        response.on("error", reject);
        response.on("close", () => (settled ? undefined : reject(new Error("the connection closed early"))));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

export async function checkAppleDomainAssociation(domain: string): Promise<VerificationOutcome> {
  const url = associationUrl(domain);
  const destination = await resolveDestination(url);
  if ("problem" in destination) return { ok: false, url, problem: destination.problem };
  let answer: { status: number; bytes: number };
  try {
    answer = await get(destination.url, destination.addresses);
  } catch (error) {
    const e = error as Error & { code?: string };
    const reason = e.name === "TimeoutError" || e.name === "AbortError" ? `timed out after ${TIMEOUT_MS} ms` : e.code;
    return { ok: false, url, problem: `could not be fetched (${reason ?? e.message})` };
  }
  if (answer.status >= 300 && answer.status < 400) {
    return { ok: false, url, problem: `answered ${answer.status}, a redirect (it must be served directly)` };
  }
  if (answer.status !== 200) return { ok: false, url, problem: `answered ${answer.status}, not 200` };
  if (answer.bytes === 0) return { ok: false, url, problem: "answered an empty file" };
  return { ok: true, url };
}
