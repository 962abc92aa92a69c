/**
 * The merchant's logo, public (checkout, hosted invoice pages and emails show it to customers):
 * `/logo?v=<version>`. The version is the content hash the account settings answer in `logo_url`,
 * so the answer is cached for a year; a changed logo gets a new URL. A request for another
 * version (an old link) still gets the current logo, cached briefly.
 */
import { fileResponse, notFoundText } from "@/lib/http/file-response";
import { logoFile } from "@/lib/services/account-settings";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const logo = await logoFile(new URL(request.url).searchParams.get("v"));
  return logo ? fileResponse(logo) : notFoundText("No logo");
}
