import { route } from "@/lib/http/route";
import { signedLinkQuery } from "@/lib/schemas/document";
import { reportParams } from "@/lib/schemas/report";
import { reportCsv } from "@/lib/services/reports/download";

/** A signed report link (from GET /reports/{report_id}/download-url): the signature authenticates it. */
export const GET = route(
  {
    summary: "Open a signed report link: the CSV file.",
    response: "csv",
    permission: "signed",
    params: reportParams,
    query: signedLinkQuery,
  },
  ({ input }) => reportCsv(input.params.report_id, input.query),
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
