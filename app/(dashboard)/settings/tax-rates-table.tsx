"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { type Column, DataTable } from "@/components/data-table";
import { FormShell, useForm } from "@/components/entity-form";
import { TextField } from "@/components/form";
import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { countryName } from "@/lib/dashboard/display";
import { Allowed } from "@/lib/dashboard/permissions";
import {
  fractionToPercent,
  percentToFraction,
  type TaxRateEntry,
  useResetTaxRate,
  useSetTaxRate,
  useTaxRates,
} from "@/lib/dashboard/settings";
import { taxRateText } from "@/lib/dashboard/transactions";
import { putTaxRateBody } from "@/lib/schemas/tax-rate";

/** Matches a country by name or code, ignoring case and accents. */
function matches(entry: TaxRateEntry, term: string): boolean {
  if (!term) return true;
  const fold = (text: string) =>
    text
      .normalize("NFD")
      .replace(/\p{Diacritic}/gu, "")
      .toLowerCase();
  const needle = fold(term);
  return entry.country_code.toLowerCase() === needle || fold(countryName(entry.country_code)).includes(needle);
}

const PERCENT_MESSAGE = "Enter a percentage from 0 to 100 with at most 4 decimal places, such as 20 or 7.25.";

/**
 * The rate of one country, edited in place on the form kit: a percentage input with Save and
 * Cancel in one row; Enter saves, Escape cancels. The percentage is checked against the API's own
 * rule (`putTaxRateBody`) before it is sent, and said in percent: the API speaks in fractions.
 */
function RateEditor({ entry, onDone }: { entry: TaxRateEntry; onDone: (saved: boolean) => void }) {
  const form = useForm(() => ({ rate: fractionToPercent(entry.rate) }));
  const save = useSetTaxRate();
  const name = countryName(entry.country_code);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const rate = percentToFraction(form.values.rate);
    const valid = rate !== null && putTaxRateBody.safeParse({ rate }).success;
    return form.run({
      fields: ["rate"],
      local: { rate: valid ? null : PERCENT_MESSAGE },
      body: form.dirty ? { rate: rate as string } : null,
      send: async (body) => {
        await save.mutateAsync({ country: entry.country_code, rate: body.rate });
        onDone(true);
      },
      onUnchanged: () => onDone(false),
    });
  }

  return (
    <FormShell
      label={`Tax rate for ${name}`}
      state={form}
      onSubmit={submit}
      submitLabel="Save"
      onCancel={() => onDone(false)}
      inline
    >
      <TextField
        label={`Tax rate for ${name} (%)`}
        labelHidden
        inputMode="decimal"
        // The message under the narrow input may run wider than it.
        className="w-24 [&>p]:w-max [&>p]:max-w-xs"
        {...form.bind("rate")}
      />
      <span className="pt-1.5 text-sm text-slate-600" aria-hidden="true">
        %
      </span>
    </FormShell>
  );
}

/** Every country's rate, searchable; a rate is edited in place and reset to standard after a confirmation. */
export function TaxRatesTable() {
  const rates = useTaxRates();
  const [term, setTerm] = useState("");
  const [editing, setEditing] = useState<string | null>(null);
  const [resetting, setResetting] = useState<TaxRateEntry | null>(null);
  const reset = useResetTaxRate();
  const toast = useToast();
  const rows = rates.data?.data.filter((entry) => matches(entry, term));

  const columns: Column<TaxRateEntry>[] = [
    {
      key: "country",
      header: "Country",
      cell: (r) => (
        <span>
          <span className="font-medium text-slate-900">{countryName(r.country_code)}</span>{" "}
          <span className="font-mono text-xs text-slate-500">{r.country_code}</span>
        </span>
      ),
    },
    {
      key: "standard",
      header: "Standard rate",
      className: "text-right tabular-nums",
      cell: (r) =>
        r.standard_rate === null ? <span className="text-slate-500">—</span> : taxRateText(r.standard_rate),
    },
    {
      key: "rate",
      header: "Rate charged",
      className: "tabular-nums",
      cell: (r) =>
        editing === r.country_code ? (
          <RateEditor
            entry={r}
            onDone={(saved) => {
              setEditing(null);
              if (saved) toast.show(`Tax rate for ${countryName(r.country_code)} saved.`);
            }}
          />
        ) : (
          <span className="inline-flex items-center gap-2">
            <span className="font-medium">{taxRateText(r.rate)}</span>
            {r.overridden && <StatusBadge status="custom" tone="blue" />}
          </span>
        ),
    },
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right",
      cell: (r) =>
        editing === r.country_code ? null : (
          <span className="inline-flex gap-1">
            <Allowed permission="settings.write" action="change tax rates">
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setEditing(r.country_code)}
                aria-label={`Edit tax rate for ${countryName(r.country_code)}`}
              >
                Edit
              </Button>
            </Allowed>
            {r.overridden && (
              <Allowed permission="settings.write" action="change tax rates">
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    reset.reset();
                    setResetting(r);
                  }}
                  aria-label={`Reset tax rate for ${countryName(r.country_code)} to standard`}
                >
                  Reset
                </Button>
              </Allowed>
            )}
          </span>
        ),
    },
  ];

  const standard = resetting?.standard_rate ? taxRateText(resetting.standard_rate) : "no tax";
  return (
    <div className="space-y-3">
      <SearchInput label="Search countries" placeholder="Search by country or code" onSearch={setTerm} delay={150} />
      <DataTable
        caption="Tax rates"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.country_code}
        isLoading={rates.isLoading}
        error={rates.error}
        onRetry={() => rates.refetch()}
        empty={<EmptyState title="No country matches" description="Try another name or a two-letter code." />}
      />
      <ConfirmDialog
        open={resetting !== null}
        title={`Reset ${resetting ? countryName(resetting.country_code) : ""} to the standard rate?`}
        description={`New transactions for customers there will be charged ${standard}. Existing transactions keep their totals.`}
        confirmLabel="Reset rate"
        cancelLabel="Go back"
        tone="primary"
        pending={reset.isPending}
        error={reset.error ? reset.error.message : undefined}
        onConfirm={async () => {
          if (!resetting) return;
          try {
            await reset.mutateAsync(resetting.country_code);
            toast.show(`Tax rate for ${countryName(resetting.country_code)} reset to standard.`);
            setResetting(null);
          } catch {
            // The dialog shows the reason and stays open.
          }
        }}
        onCancel={() => setResetting(null)}
      />
    </div>
  );
}
