"use client";

import type { FormEvent } from "react";
import { Button } from "@/components/button";
import { type Column, DataTable } from "@/components/data-table";
import { DownloadDocumentButton } from "@/components/download-document-button";
import { FormShell, useForm } from "@/components/entity-form";
import { SelectField, TextField } from "@/components/form";
import { DateCell } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { PaginationControls, useCursorPagination } from "@/components/pagination";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { humanize } from "@/lib/dashboard/display";
import { useAccountTimeZone } from "@/lib/dashboard/metrics";
import {
  describeFilters,
  fetchReportUrl,
  type Report,
  type ReportForm,
  reportFilters,
  reportFormErrors,
  reportTypeLabel,
  useCreateReport,
  useReports,
  valueFilters,
} from "@/lib/dashboard/reports";
import { createReportBody, REPORT_TYPE_LABELS, REPORT_TYPES, type ReportType } from "@/lib/schemas/report";

const EMPTY_FORM: ReportForm = { type: "transactions", from: "", to: "", values: {} };

/**
 * The form that requests a report, on the form kit: the dates are checked before anything is sent,
 * and the API's `filters[i]…` errors land beside the input that made filter i.
 */
function NewReportForm() {
  const form = useForm<ReportForm>(() => EMPTY_FORM, { autoFocus: false });
  const { values } = form;
  const create = useCreateReport();
  const toast = useToast();
  const filterNames = valueFilters(values.type);
  // The dates are days of the account's time zone (Settings).
  const zone = useAccountTimeZone();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { filters, sources } = reportFilters(values, zone ?? "UTC");
    return form.run({
      fields: ["type", "from", "to", ...filterNames.map(([name]) => name)],
      rename: (field) => field.replace(/^filters\[(\d+)\].*$/, (whole, i: string) => sources[Number(i)] ?? whole),
      local: reportFormErrors(values),
      schema: createReportBody,
      body: { type: values.type, filters },
      send: async (body) => {
        const report = await create.mutateAsync(body);
        toast.show(`${reportTypeLabel(report.type)} report requested: it is being generated.`, "success");
      },
    });
  }

  return (
    <FormShell
      label="New report"
      state={form}
      onSubmit={submit}
      submitLabel="Create report"
      pendingLabel="Requesting…"
      after={
        <Button type="button" variant="ghost" onClick={() => form.reset(EMPTY_FORM)}>
          Reset
        </Button>
      }
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          label="Report type"
          {...form.bind("type")}
          onChange={(event) => {
            form.set("type", event.target.value as ReportType);
            form.set("values", {});
          }}
        >
          {REPORT_TYPES.map((type) => (
            <option key={type} value={type}>
              {REPORT_TYPE_LABELS[type]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Updated from"
          type="date"
          hint={`Day in ${zone ?? "UTC"}, included.`}
          {...form.bind("from")}
        />
        <TextField label="Updated until" type="date" hint={`Day in ${zone ?? "UTC"}, included.`} {...form.bind("to")} />
      </div>
      {filterNames.length > 0 && (
        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="mb-2 text-sm font-medium text-slate-700">Only rows with</legend>
          {filterNames.map(([name, options]) => (
            <SelectField
              key={name}
              label={humanize(name)}
              value={values.values[name] ?? ""}
              error={form.error(name)}
              onChange={(event) => form.set("values", { ...values.values, [name]: event.target.value })}
            >
              <option value="">Any</option>
              {options.map((value) => (
                <option key={value} value={value}>
                  {name === "currency_code" ? value : humanize(value)}
                </option>
              ))}
            </SelectField>
          ))}
        </fieldset>
      )}
      <p className="text-xs text-slate-500">
        Without dates, the report has what was updated in the last 30 days. Reports are CSV files, ready to download for
        14 days.
      </p>
    </FormShell>
  );
}

function ReportStatus({ report }: { report: Report }) {
  if (report.status === "pending") {
    return (
      <span className="inline-flex items-center gap-2">
        <StatusBadge status="pending" />
        <span className="text-xs text-slate-500">Generating…</span>
      </span>
    );
  }
  return <StatusBadge status={report.status} />;
}

function ReportAction({ report }: { report: Report }) {
  if (report.status === "ready" && report.rows) {
    return (
      <DownloadDocumentButton
        fetchUrl={() => fetchReportUrl(report.id)}
        document={`the ${reportTypeLabel(report.type).toLowerCase()} report`}
        pendingLabel="Preparing…"
        size="sm"
        ariaLabel={`Download CSV of the ${reportTypeLabel(report.type).toLowerCase()} report ${report.id}`}
      >
        Download CSV
      </DownloadDocumentButton>
    );
  }
  const text =
    report.status === "ready"
      ? "No rows matched"
      : report.status === "failed"
        ? "Could not be generated"
        : report.status === "expired"
          ? "Expired"
          : "Not ready yet";
  return <span className="text-xs text-slate-500">{text}</span>;
}

function ReportFilters({ report }: { report: Report }) {
  const zone = useAccountTimeZone();
  return <p className="mt-0.5 max-w-md break-words text-xs text-slate-500">{describeFilters(report, zone ?? "UTC")}</p>;
}

const COLUMNS: Column<Report>[] = [
  {
    key: "type",
    header: "Report",
    cell: (r) => (
      <div className="min-w-0">
        <p className="font-medium text-slate-900">{reportTypeLabel(r.type)}</p>
        <ReportFilters report={r} />
      </div>
    ),
  },
  { key: "status", header: "Status", cell: (r) => <ReportStatus report={r} /> },
  {
    key: "rows",
    header: "Rows",
    className: "text-right tabular-nums",
    cell: (r) => (r.rows === null ? "—" : r.rows.toLocaleString()),
  },
  { key: "created", header: "Created", className: "whitespace-nowrap", cell: (r) => <DateCell value={r.created_at} /> },
  {
    key: "expires",
    header: "Expires",
    className: "whitespace-nowrap",
    cell: (r) => (r.expires_at ? <DateCell value={r.expires_at} /> : "—"),
  },
  {
    key: "action",
    header: "",
    srHeader: "Download",
    className: "text-right",
    cell: (r) => <ReportAction report={r} />,
  },
];

export function ReportsView({ canCreate }: { canCreate: boolean }) {
  const pagination = useCursorPagination();
  const list = useReports(pagination.after);
  const rows = list.data?.data;
  return (
    // The dashboard's layout keeps its sidebar at phone width: a floor on this page's width keeps the
    // form usable there (the main area scrolls sideways) instead of squeezing it to a few letters.
    <div className="min-w-72 space-y-6">
      <PageHeader
        title="Reports"
        description="Export transactions, adjustments, the catalogue, discounts and balances as CSV files for accounting and analysis."
      />
      {canCreate && (
        <Section title="New report" id="new-report">
          <NewReportForm />
        </Section>
      )}
      <Section title="Your reports" id="report-list">
        <DataTable
          caption="Reports"
          columns={COLUMNS}
          rows={rows}
          rowKey={(r) => r.id}
          isLoading={list.isLoading}
          error={list.error}
          onRetry={() => list.refetch()}
          isRefreshing={list.isFetching && !list.isLoading && list.isPlaceholderData}
          empty={
            <EmptyState
              title="No reports yet"
              description={
                canCreate
                  ? "Choose a type and filters above to create your first report."
                  : "Reports created by an admin or developer show here, ready to download."
              }
            />
          }
          footer={
            <PaginationControls pagination={pagination} meta={list.data?.meta.pagination} shown={rows?.length ?? 0} />
          }
        />
      </Section>
    </div>
  );
}
