import { query } from "@/lib/dashboard/api";
import type { ListParams } from "@/lib/dashboard/hooks";
import { buttonClasses } from "./button";

/**
 * "Export CSV": the list with the filters on screen (every page of it, not just the one shown),
 * streamed by /exports/<list>.csv (lib/http/csv-export.ts).
 */
export function ExportLink({
  list,
  params,
  label = "Export CSV",
}: {
  list: string;
  params: ListParams;
  label?: string;
}) {
  const { after: _after, per_page: _perPage, ...filters } = params;
  return (
    <a href={`/exports/${list}.csv${query(filters)}`} download className={buttonClasses("secondary", "md")}>
      {label}
    </a>
  );
}
