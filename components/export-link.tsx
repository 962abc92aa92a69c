import { query } from "@/lib/dashboard/api";
import type { ListParams } from "@/lib/dashboard/hooks";
import { buttonClasses } from "./button";

/**
 * "Export CSV": the list with the filters on screen (every page of it, not just the one shown),
 * streamed by /exports/<list>.csv (lib/http/csv-export.ts): flat columns, amounts also as
 * decimals. With `lineItems`, a second link exports one row per line item (`rows=line_items`).
 */
export function ExportLink({
  list,
  params,
  label = "Export CSV",
  lineItems = false,
}: {
  list: string;
  params: ListParams;
  label?: string;
  lineItems?: boolean;
}) {
  const { after: _after, per_page: _perPage, ...filters } = params;
  const link = (
    <a href={`/exports/${list}.csv${query(filters)}`} download className={buttonClasses("secondary", "md")}>
      {label}
    </a>
  );
  if (!lineItems) return link;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of two links, not a form's fieldset.
    <div role="group" aria-label="Export as CSV" className="flex flex-wrap gap-2">
      {link}
      <a
        href={`/exports/${list}.csv${query({ ...filters, rows: "line_items" })}`}
        download
        className={buttonClasses("secondary", "md")}
        title="One row per line item, with the transaction's columns on each row"
      >
        Export line items
      </a>
    </div>
  );
}
