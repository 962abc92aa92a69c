import { route } from "@/lib/http/route";
import { adjustmentParams, documentPdfQuery, documentUrlSchema } from "@/lib/schemas/document";
import { creditNoteUrl } from "@/lib/services/credit-notes";

export const GET = route(
  {
    summary: "Get a signed link to an adjustment's credit note PDF.",
    response: documentUrlSchema,
    permission: "adjustment.read",
    params: adjustmentParams,
    query: documentPdfQuery,
  },
  ({ input }) => creditNoteUrl(input.params.adjustment_id, input.query.disposition),
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
