import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { createReportBody, listReportsQuery } from "@/lib/schemas/report";
import { createReport, listReports } from "@/lib/services/reports/reports";

export const GET = route({ permission: "report.read", query: listReportsQuery }, async ({ input }) =>
  listOfJson(await listReports(input.query)),
);

export const POST = route({ permission: "report.write", body: createReportBody, status: 201 }, ({ input }) =>
  createReport(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
