/** GET /metrics/refunds (lib/services/metrics/adjustments.ts). */
import { route } from "@/lib/http/route";
import { amountMetricsSchema, metricsQuery } from "@/lib/schemas/metrics";
import { refundMetrics } from "@/lib/services/metrics/adjustments";

export const GET = route(
  { summary: "Refunds per day.", response: amountMetricsSchema, permission: "metrics.read", query: metricsQuery },
  ({ input }) => refundMetrics(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
