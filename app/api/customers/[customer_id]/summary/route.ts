import { route } from "@/lib/http/route";
import { customerParams, customerSummarySchema } from "@/lib/schemas/customer";
import { customerSummary } from "@/lib/services/customer-summary";

export const GET = route(
  {
    summary: "Get a customer's lifetime spend and amount due per currency (ours, for the dashboard).",
    response: customerSummarySchema,
    permission: "transaction.read",
    params: customerParams,
  },
  ({ input }) => customerSummary(input.params.customer_id),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
