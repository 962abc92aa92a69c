import { route } from "@/lib/http/route";
import { transactionParams } from "@/lib/schemas/transaction";
import { pdfFile } from "@/lib/services/documents";
import { invoicePreviewPdf } from "@/lib/services/invoice-preview";

/** An extension of ours: the would-be invoice of a ready manual transaction, stamped DRAFT (no number taken). */
export const GET = route(
  {
    summary: "Preview the invoice PDF of a ready manual transaction before issuing it (stamped DRAFT).",
    response: "pdf",
    permission: "transaction.read",
    params: transactionParams,
  },
  async ({ input }) => {
    const { bytes, fileName } = await invoicePreviewPdf(input.params.transaction_id);
    return pdfFile(bytes, fileName, "inline");
  },
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
