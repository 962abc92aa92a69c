import { route } from "@/lib/http/route";
import { reportParams, reportUrlSchema } from "@/lib/schemas/report";
import { reportDownloadUrl } from "@/lib/services/reports/reports";

/** A link to the report's CSV, valid for 3 minutes (400 report_not_ready, _failed, _expired, _empty otherwise). */
export const GET = route(
  {
    summary: "Get a link to a report's CSV, valid for 3 minutes.",
    response: reportUrlSchema,
    permission: "report.read",
    params: reportParams,
  },
  ({ input }) => reportDownloadUrl(input.params.report_id),
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
