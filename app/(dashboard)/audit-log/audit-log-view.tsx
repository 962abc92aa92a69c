"use client";

import type { Column } from "@/components/data-table";
import { DateRange } from "@/components/date-range";
import { PagedTable, PER_PAGE, useListFilters } from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { PhraseText } from "@/components/phrase";
import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/states";
import { StatusFilter } from "@/components/status-filter";
import { describeAudit } from "@/lib/dashboard/activity-words";
import { formatDateTime } from "@/lib/dashboard/display";
import { usePermissions } from "@/lib/dashboard/permissions";
import { type AuditLogEntry, useAuditLog } from "@/lib/dashboard/team";
import { startOfDayIso, startOfNextDayIso } from "@/lib/dashboard/transactions";

const ACTOR_TYPES = [
  { value: "", label: "Anyone" },
  { value: "user", label: "Staff" },
  { value: "api_key", label: "API keys" },
] as const;

// What happened comes first: on a phone it is what shows before the table scrolls sideways.
const COLUMNS: Column<AuditLogEntry>[] = [
  {
    key: "what",
    header: "What",
    cell: (e) => (
      // In business words with links to what it names; the raw request is on hover, for developers.
      <div className="min-w-56 max-w-md" title={e.action}>
        <PhraseText phrase={describeAudit(e)} />
      </div>
    ),
  },
  {
    key: "when",
    header: "When",
    // Entries' IDs are time-ordered: the order by ID is the order by time.
    sortField: "id",
    className: "whitespace-nowrap",
    cell: (e) => <time dateTime={e.occurred_at}>{formatDateTime(e.occurred_at)}</time>,
  },
  {
    key: "who",
    header: "Who",
    cell: (e) => (
      <div className="flex flex-col">
        <span className="font-medium text-slate-900">{e.actor_label ?? "Unknown"}</span>
        <span className="text-xs text-slate-500">{e.actor_type === "api_key" ? "API key" : "Staff"}</span>
      </div>
    ),
  },
  {
    key: "from",
    header: "From",
    cell: (e) => (
      <span className="text-xs text-slate-600" title={e.user_agent ?? undefined}>
        {e.client_address ?? "—"}
      </span>
    ),
  },
];

export function AuditLogView() {
  const { can, role } = usePermissions();
  if (!can("audit_log.read")) {
    return (
      <>
        <PageHeader title="Audit log" description="Who changed what, when and from where." />
        <EmptyState
          title="Only owners and admins read the audit log"
          description={`Your role (${role ?? "unknown"}) cannot read the audit log.`}
        />
      </>
    );
  }
  return <AuditLogList />;
}

function AuditLogList() {
  const { params, choice, setFilters, pagination, orderBy, order } = useListFilters("");
  const actor = params.get("actor") ?? "";
  const entity = params.get("entity_id") ?? "";
  const action = params.get("action") ?? "";
  const actorType = choice("actor_type", ACTOR_TYPES);
  const range = { from: params.get("from") ?? "", to: params.get("to") ?? "" };
  const list = useAuditLog({
    actor,
    entity_id: entity,
    action,
    actor_type: actorType,
    "occurred_at[GTE]": range.from ? startOfDayIso(range.from) : undefined,
    "occurred_at[LT]": range.to ? startOfNextDayIso(range.to) : undefined,
    after: pagination.after,
    per_page: PER_PAGE,
    order_by: orderBy,
  });
  const filtered =
    actor !== "" || entity !== "" || action !== "" || actorType !== "" || range.from !== "" || range.to !== "";
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Audit log"
        description="Every change made by staff in the dashboard or by an API key, and every staff sign-in. Kept for a year."
      />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <SearchInput
          label="Who (email, key name or ID)"
          placeholder="Who: email, key name or ID"
          maxLength={320}
          initialValue={actor}
          onSearch={(term) => setFilters({ actor: term || undefined })}
        />
        <SearchInput
          label="Entity ID"
          placeholder="Entity ID, such as ctm_…"
          maxLength={100}
          initialValue={entity}
          onSearch={(term) => setFilters({ entity_id: term || undefined })}
        />
        <SearchInput
          label="Action (a trailing * matches the start)"
          placeholder="Action, such as POST /api/customers*"
          maxLength={300}
          initialValue={action}
          onSearch={(term) => setFilters({ action: term || undefined })}
        />
        <StatusFilter
          label="Actor"
          value={actorType}
          options={ACTOR_TYPES}
          onChange={(value) => setFilters({ actor_type: value || undefined })}
        />
        <DateRange
          label="Occurred"
          from={range.from}
          to={range.to}
          onChange={(value) => setFilters({ from: value.from || undefined, to: value.to || undefined })}
        />
      </div>
      <PagedTable
        caption="Audit log"
        columns={COLUMNS}
        rowKey={(e) => e.id}
        list={list}
        pagination={pagination}
        order={order}
        empty={
          <EmptyState
            title={filtered ? "Nothing matches these filters" : "Nothing recorded yet"}
            description={
              filtered ? "Change or clear the filters." : "Changes made in the dashboard or through the API show here."
            }
          />
        }
      />
    </div>
  );
}
