/** GET /metrics/monthly-recurring-revenue-movements (ours, for the dashboard's MRR breakdown: lib/schemas/metrics.ts). */
import { route } from "@/lib/http/route";
import { metricsQuery } from "@/lib/schemas/metrics";
import { mrrMovementsMetrics } from "@/lib/services/metrics/subscriptions";

export const GET = route({ permission: "metrics.read", query: metricsQuery }, ({ input }) =>
  mrrMovementsMetrics(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
