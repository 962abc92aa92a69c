import { route } from "@/lib/http/route";
import { invoiceDocumentParams, signedLinkQuery } from "@/lib/schemas/document";
import { checkDocumentLink, invoicePdf, pdfFile } from "@/lib/services/documents";

/** A signed invoice link (from GET /transactions/{transaction_id}/invoice): the signature authenticates it. */
export const GET = route(
  {
    summary: "Open a signed invoice link: the PDF.",
    response: "pdf",
    permission: "signed",
    params: invoiceDocumentParams,
    query: signedLinkQuery,
  },
  async ({ input }) => {
    const id = input.params.transaction_id;
    const disposition = await checkDocumentLink("invoice", id, input.query);
    const { bytes, fileName } = await invoicePdf(id);
    return pdfFile(bytes, fileName, disposition);
  },
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
