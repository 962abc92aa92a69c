import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { createReportBody, listReportsQuery, reportSchema } from "@/lib/schemas/report";
import { createReport, listReports } from "@/lib/services/reports/reports";

export const GET = route(
  { summary: "List reports.", response: paginated(reportSchema), permission: "report.read", query: listReportsQuery },
  async ({ input }) => listOfJson(await listReports(input.query)),
);

export const POST = route(
  {
    summary: "Create a report (generated in the background).",
    response: reportSchema,
    permission: "report.write",
    body: createReportBody,
    status: 201,
  },
  ({ input }) => createReport(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
