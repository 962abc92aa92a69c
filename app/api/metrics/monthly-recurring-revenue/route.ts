/** GET /metrics/monthly-recurring-revenue (lib/services/metrics/subscriptions.ts). */
import { route } from "@/lib/http/route";
import { amountMetricsSchema, metricsQuery } from "@/lib/schemas/metrics";
import { mrrMetrics } from "@/lib/services/metrics/subscriptions";

export const GET = route(
  {
    summary: "Monthly recurring revenue per day.",
    response: amountMetricsSchema,
    permission: "metrics.read",
    query: metricsQuery,
  },
  ({ input }) => mrrMetrics(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
