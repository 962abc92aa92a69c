import { route } from "@/lib/http/route";
import { pricingPreviewBody } from "@/lib/schemas/transaction";
import { pricingPreview } from "@/lib/services/transactions/pricing-preview";

// Nothing is saved, so reading is enough: transaction.read.
export const POST = route({ permission: "transaction.read", body: pricingPreviewBody }, ({ input }) =>
  pricingPreview(input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
