/** GET /metrics/monthly-recurring-revenue-movements (ours, for the dashboard's MRR breakdown: lib/schemas/metrics.ts). */
import { route } from "@/lib/http/route";
import { metricsQuery, mrrMovementsMetricsSchema } from "@/lib/schemas/metrics";
import { mrrMovementsMetrics } from "@/lib/services/metrics/subscriptions";

export const GET = route(
  {
    summary: "Monthly recurring revenue movements per day (new, expansion, contraction, churn, reactivation).",
    response: mrrMovementsMetricsSchema,
    permission: "metrics.read",
    query: metricsQuery,
  },
  ({ input }) => mrrMovementsMetrics(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
