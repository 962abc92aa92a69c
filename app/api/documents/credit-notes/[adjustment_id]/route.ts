import { route } from "@/lib/http/route";
import { adjustmentParams, signedLinkQuery } from "@/lib/schemas/document";
import { creditNotePdf } from "@/lib/services/credit-notes";
import { checkDocumentLink, pdfFile } from "@/lib/services/documents";

/** A signed credit-note link (from GET /adjustments/{adjustment_id}/credit-note): the signature authenticates it. */
export const GET = route(
  {
    summary: "Open a signed credit note link: the PDF.",
    response: "pdf",
    permission: "signed",
    params: adjustmentParams,
    query: signedLinkQuery,
  },
  async ({ input }) => {
    const id = input.params.adjustment_id;
    const disposition = await checkDocumentLink("credit_note", id, input.query);
    const { bytes, fileName } = await creditNotePdf(id);
    return pdfFile(bytes, fileName, disposition);
  },
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
