import { route } from "@/lib/http/route";
import { previewTransactionBody, transactionPreviewResultSchema } from "@/lib/schemas/transaction";
import { previewTransaction } from "@/lib/services/transactions/preview";

// Nothing is saved, so reading is enough: transaction.read.
export const POST = route(
  {
    summary: "Preview a transaction's totals (nothing is saved).",
    response: transactionPreviewResultSchema,
    permission: "transaction.read",
    body: previewTransactionBody,
  },
  ({ input }) => previewTransaction(input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
