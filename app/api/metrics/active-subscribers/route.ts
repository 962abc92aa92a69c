/** GET /metrics/active-subscribers (lib/services/metrics/subscriptions.ts). */
import { route } from "@/lib/http/route";
import { countMetricsSchema, metricsQuery } from "@/lib/schemas/metrics";
import { activeSubscribersMetrics } from "@/lib/services/metrics/subscriptions";

export const GET = route(
  {
    summary: "Active subscribers per day.",
    response: countMetricsSchema,
    permission: "metrics.read",
    query: metricsQuery,
  },
  ({ input }) => activeSubscribersMetrics(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
