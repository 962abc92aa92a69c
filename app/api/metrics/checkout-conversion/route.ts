/** GET /metrics/checkout-conversion (lib/services/metrics/checkouts.ts). */
import { route } from "@/lib/http/route";
import { checkoutConversionMetricsSchema, metricsQuery } from "@/lib/schemas/metrics";
import { checkoutConversionMetrics } from "@/lib/services/metrics/checkouts";

export const GET = route(
  {
    summary: "Checkouts started and completed per day.",
    response: checkoutConversionMetricsSchema,
    permission: "metrics.read",
    query: metricsQuery,
  },
  ({ input }) => checkoutConversionMetrics(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
