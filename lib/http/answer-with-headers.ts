/**
 * An answer of one entity in the envelope route() writes (`{"data":…,"meta":{"request_id":…}}`),
 * with response headers of its own: for a route whose answer carries something beside its body.
 * GET and PATCH /discounts/{discount_id} send the discount's current revision in
 * `Service-Revision-Id` this way (the family's discount schema has no field for it).
 */
import { toJsonText } from "../json.ts";
import { jsonText } from "./response.ts";

/** Our header naming a discount's current revision (`dscrev_…`), for `PATCH /discounts/dsc_…@dscrev_…`. */
export const REVISION_HEADER = "Service-Revision-Id";

export function answerWithHeaders(
  data: unknown,
  requestId: string,
  headers: Record<string, string>,
  status = 200,
): Response {
  const meta = `{"request_id":${JSON.stringify(requestId)}}`;
  return jsonText(`{"data":${toJsonText(data)},"meta":${meta}}`, status, requestId, headers);
}
