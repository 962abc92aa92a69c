import { route } from "@/lib/http/route";
import { revenueMetricsQuery, revenueMetricsSchema } from "@/lib/schemas/metrics";
import { revenueMetrics } from "@/lib/services/metrics/revenue";

export const GET = route(
  {
    summary: "Revenue per day.",
    response: revenueMetricsSchema,
    permission: "metrics.read",
    query: revenueMetricsQuery,
  },
  ({ input }) => revenueMetrics(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
