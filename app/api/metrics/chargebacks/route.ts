/** GET /metrics/chargebacks (lib/services/metrics/adjustments.ts). */
import { route } from "@/lib/http/route";
import { countMetricsSchema, metricsQuery } from "@/lib/schemas/metrics";
import { chargebackMetrics } from "@/lib/services/metrics/adjustments";

export const GET = route(
  { summary: "Chargebacks per day.", response: countMetricsSchema, permission: "metrics.read", query: metricsQuery },
  ({ input }) => chargebackMetrics(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
