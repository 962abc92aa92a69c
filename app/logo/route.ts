/**
 * The merchant's logo, public (checkout, hosted invoice pages and emails show it to customers):
 * `/logo?v=<version>`. The version is the content hash the account settings answer in `logo_url`,
 * so the answer is cached for a year; a changed logo gets a new URL. A request for another
 * version (an old link) still gets the current logo, cached briefly.
 */
import { getLogo } from "@/lib/services/account-settings";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const logo = await getLogo();
  if (!logo) {
    return new Response("No logo", {
      status: 404,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  }
  const current = new URL(request.url).searchParams.get("v") === logo.version;
  return new Response(Buffer.from(logo.bytes), {
    status: 200,
    headers: {
      "content-type": logo.contentType,
      "content-length": String(logo.bytes.byteLength),
      "cache-control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
      etag: `"${logo.version}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "cross-origin",
    },
  });
}
