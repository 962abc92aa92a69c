import { route } from "@/lib/http/route";
import { pricingPreviewBody, pricingPreviewSchema } from "@/lib/schemas/transaction";
import { pricingPreview } from "@/lib/services/transactions/pricing-preview";

// Nothing is saved, so reading is enough: transaction.read.
export const POST = route(
  {
    summary: "Preview prices for a customer's location (nothing is saved).",
    response: pricingPreviewSchema,
    permission: "transaction.read",
    body: pricingPreviewBody,
  },
  ({ input }) => pricingPreview(input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
