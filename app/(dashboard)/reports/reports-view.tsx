"use client";

import { type FormEvent, useId, useRef, useState } from "react";
import { Button } from "@/components/button";
import { type Column, DataTable } from "@/components/data-table";
import { DownloadDocumentButton } from "@/components/download-document-button";
import { FormActions, FormError, SelectField, TextField, useFocusOnError } from "@/components/form";
import { DateCell } from "@/components/list-page";
import { PageHeader, Section } from "@/components/page-header";
import { PaginationControls, useCursorPagination } from "@/components/pagination";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { ApiClientError, type FieldError } from "@/lib/dashboard/api";
import { humanize } from "@/lib/dashboard/display";
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
import { REPORT_TYPE_LABELS, REPORT_TYPES, type ReportType } from "@/lib/schemas/report";

const EMPTY_FORM: ReportForm = { type: "transactions", from: "", to: "", values: {} };

/** The API's `filters[i]…` errors, moved to the form input that made filter i. */
function errorsBySource(errors: FieldError[], sources: string[]) {
  const fields: Record<string, string> = {};
  const other: FieldError[] = [];
  for (const error of errors) {
    const match = /^filters\[(\d+)\]/.exec(error.field);
    const source = match ? sources[Number(match[1])] : error.field === "type" ? "type" : undefined;
    if (source) fields[source] ??= error.message;
    else other.push(error);
  }
  return { fields, other };
}

function NewReportForm() {
  const [form, setForm] = useState<ReportForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<{
    fields: Record<string, string>;
    other: FieldError[];
    message: string | null;
  }>();
  const [requestId, setRequestId] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);
  const create = useCreateReport();
  const toast = useToast();
  const hintId = useId();
  useFocusOnError(formRef, errors);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = reportFormErrors(form);
    if (Object.keys(local).length > 0) {
      // Shown at the fields (the first one in error gets the focus), with no form-level message.
      setErrors({ fields: local, other: [], message: null });
      return;
    }
    const { filters, sources } = reportFilters(form);
    try {
      const report = await create.mutateAsync({ type: form.type, filters });
      setErrors(undefined);
      setRequestId(undefined);
      toast.show(`${reportTypeLabel(report.type)} report requested: it is being generated.`, "success");
    } catch (error) {
      if (error instanceof ApiClientError) {
        const { fields, other } = errorsBySource(error.errors, sources);
        setErrors({ fields, other, message: error.message });
        setRequestId(error.requestId);
      } else {
        setErrors({ fields: {}, other: [], message: (error as Error).message });
      }
    }
  };

  const field = (name: string) => errors?.fields[name] ?? null;

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="New report" className="space-y-4">
      <FormError message={errors?.message ?? null} other={errors?.other} requestId={requestId} />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          label="Report type"
          value={form.type}
          error={field("type")}
          onChange={(event) => setForm({ ...form, type: event.target.value as ReportType, values: {} })}
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
          value={form.from}
          error={field("from")}
          hint="UTC day, included."
          onChange={(event) => setForm({ ...form, from: event.target.value })}
        />
        <TextField
          label="Updated until"
          type="date"
          value={form.to}
          error={field("to")}
          hint="UTC day, included."
          onChange={(event) => setForm({ ...form, to: event.target.value })}
        />
      </div>
      {valueFilters(form.type).length > 0 && (
        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="mb-2 text-sm font-medium text-slate-700">Only rows with</legend>
          {valueFilters(form.type).map(([name, values]) => (
            <SelectField
              key={name}
              label={humanize(name)}
              value={form.values[name] ?? ""}
              error={field(name)}
              onChange={(event) => setForm({ ...form, values: { ...form.values, [name]: event.target.value } })}
            >
              <option value="">Any</option>
              {values.map((value) => (
                <option key={value} value={value}>
                  {name === "currency_code" ? value : humanize(value)}
                </option>
              ))}
            </SelectField>
          ))}
        </fieldset>
      )}
      <p id={hintId} className="text-xs text-slate-500">
        Without dates, the report has what was updated in the last 30 days. Reports are CSV files, ready to download for
        14 days.
      </p>
      <FormActions>
        <Button type="submit" pending={create.isPending} pendingLabel="Requesting…" aria-describedby={hintId}>
          Create report
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setForm(EMPTY_FORM);
            setErrors(undefined);
          }}
        >
          Reset
        </Button>
      </FormActions>
    </form>
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

const COLUMNS: Column<Report>[] = [
  {
    key: "type",
    header: "Report",
    cell: (r) => (
      <div className="min-w-0">
        <p className="font-medium text-slate-900">{reportTypeLabel(r.type)}</p>
        <p className="mt-0.5 max-w-md break-words text-xs text-slate-500">{describeFilters(r)}</p>
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
