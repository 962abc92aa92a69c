import { route } from "@/lib/http/route";
import { reportParams, reportSchema } from "@/lib/schemas/report";
import { getReport } from "@/lib/services/reports/reports";

export const GET = route(
  { summary: "Get a report.", response: reportSchema, permission: "report.read", params: reportParams },
  ({ input }) => getReport(input.params.report_id),
);

// Reports cannot be changed or deleted: they expire.
export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
