"use client";

import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { DataTable } from "@/components/data-table";
import { DownloadDocumentButton } from "@/components/download-document-button";
import { EntityText } from "@/components/entity-text";
import { FormActions, FormError, TextAreaField, useFocusOnError } from "@/components/form";
import { MoneyField } from "@/components/money-input";
import { Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import {
  type Adjustment,
  adjustmentsOf,
  canCredit,
  canRefund,
  leftByLine,
  useCreateAdjustment,
} from "@/lib/dashboard/adjustments";
import { formatDateTime, humanize } from "@/lib/dashboard/display";
import { fetchCreditNoteUrl, hasCreditNote } from "@/lib/dashboard/documents";
import { type FormErrorState, formErrors } from "@/lib/dashboard/form";
import { formatMoney, readMoney } from "@/lib/dashboard/money";
import { Allowed } from "@/lib/dashboard/permissions";
import type { TransactionWithIncludes } from "@/lib/dashboard/transactions";
import type { CreateAdjustmentInput } from "@/lib/schemas/adjustment";
import { Amount } from "../transaction-parts";

type Action = "refund" | "credit";

const ACTION_TEXT: Record<Action, { verb: string; noun: string; done: string; explain: string }> = {
  refund: {
    verb: "Refund",
    noun: "refund",
    done: "Refund approved.",
    explain: "Returns money to the customer's payment method. The fee is returned in proportion.",
  },
  credit: {
    verb: "Credit",
    noun: "credit",
    done: "Credit recorded.",
    explain: "Lowers what the customer owes on this invoice. No money moves.",
  },
};

const STATUS_TONES = { approved: "green", pending_approval: "amber", rejected: "red", reversed: "slate" } as const;

/**
 * A transaction's adjustments (refunds and credits) with its adjusted totals, and the form that
 * makes one: "Refund" for completed transactions, "Credit" for issued (manual) invoices.
 */
export function AdjustmentsSection({ transaction: t }: { transaction: TransactionWithIncludes }) {
  const [open, setOpen] = useState<Action | null>(null);
  const adjustments = adjustmentsOf(t);
  const refundable = canRefund(t.status);
  const creditable = canCredit(t.status, t.collection_mode);
  const left = leftByLine(t);
  const anythingLeft = [...left.values()].some((split) => split.total > 0n);

  return (
    <Section
      title="Adjustments"
      description="Refunds and credits of this transaction. The transaction itself stays as it was billed."
      actions={
        !open && anythingLeft ? (
          <>
            {refundable && (
              <Allowed permission="adjustment.write" action="refund transactions">
                <Button onClick={() => setOpen("refund")}>Refund</Button>
              </Allowed>
            )}
            {creditable && (
              <Allowed permission="adjustment.write" action="credit transactions">
                <Button onClick={() => setOpen("credit")}>Credit</Button>
              </Allowed>
            )}
          </>
        ) : undefined
      }
    >
      <div className="space-y-4">
        {open && <AdjustmentForm transaction={t} action={open} onDone={() => setOpen(null)} />}
        <DataTable
          caption="Adjustments"
          columns={[
            { key: "action", header: "Action", cell: (a: Adjustment) => humanize(a.action) },
            {
              key: "status",
              header: "Status",
              cell: (a: Adjustment) => <StatusBadge status={a.status} tone={STATUS_TONES[a.status]} />,
            },
            {
              key: "amount",
              header: "Amount",
              className: "text-right",
              cell: (a: Adjustment) => <Amount amount={a.totals.total} currency={a.currency_code} />,
            },
            { key: "reason", header: "Reason", cell: (a: Adjustment) => a.reason },
            { key: "date", header: "Date", cell: (a: Adjustment) => formatDateTime(a.created_at) },
            {
              key: "credit_note",
              header: "",
              srHeader: "Credit note",
              className: "text-right",
              cell: (a: Adjustment) => <CreditNoteButton adjustment={a} />,
            },
          ]}
          rows={adjustments}
          rowKey={(a) => a.id}
          isLoading={false}
          empty={
            <EmptyState
              title="No adjustments"
              description="Refunds and credits made against this transaction appear here."
            />
          }
        />
        {adjustments.length > 0 && <AdjustedTotals transaction={t} />}
      </div>
    </Section>
  );
}

/** Downloads the credit note of an approved refund or credit (nothing for other adjustments). */
function CreditNoteButton({ adjustment: a }: { adjustment: Adjustment }) {
  if (!hasCreditNote(a)) return null;
  const what = `${humanize(a.action).toLowerCase()} of ${formatMoney(a.totals.total, a.currency_code)}`;
  return (
    <DownloadDocumentButton
      fetchUrl={() => fetchCreditNoteUrl(a.id)}
      document={`the credit note of the ${what}`}
      pendingLabel="Preparing…"
      variant="ghost"
      size="sm"
      ariaLabel={`Download credit note (${what})`}
    >
      Credit note
    </DownloadDocumentButton>
  );
}

function AdjustedTotals({ transaction: t }: { transaction: TransactionWithIncludes }) {
  const adjusted = t.details.adjusted_totals;
  const rows: [string, string | null][] = [
    ["Adjusted tax", adjusted.tax],
    ["Adjusted total", adjusted.total],
    ["Adjusted fee", adjusted.fee],
    ["Adjusted earnings", adjusted.earnings],
  ];
  return (
    <dl aria-label="Adjusted totals" className="grid gap-3 rounded-md bg-slate-50 p-4 text-sm sm:grid-cols-4">
      {rows
        .filter(([, amount]) => amount !== null)
        .map(([term, amount]) => (
          <div key={term}>
            <dt className="text-slate-600">{term}</dt>
            <dd className="mt-0.5 font-semibold text-slate-900">
              <Amount amount={amount as string} currency={adjusted.currency_code} />
            </dd>
          </div>
        ))}
    </dl>
  );
}

/** The form's field for the amount of line `id`. */
const amountField = (id: string) => `amount:${id}`;

function AdjustmentForm({
  transaction: t,
  action,
  onDone,
}: {
  transaction: TransactionWithIncludes;
  action: Action;
  onDone: () => void;
}) {
  const text = ACTION_TEXT[action];
  const currency = t.currency_code;
  const left = leftByLine(t);
  const lines = t.details.line_items.filter((line) => (left.get(line.id)?.total ?? 0n) > 0n);
  const totalLeft = lines.reduce((sum, line) => sum + (left.get(line.id)?.total ?? 0n), 0n);

  const [type, setType] = useState<"full" | "partial">("full");
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const [body, setBody] = useState<CreateAdjustmentInput | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);
  const create = useCreateAdjustment(t.id);
  const toast = useToast();

  /** The request, or the problems the form can see without asking the server. */
  function build(): { body: CreateAdjustmentInput; lineIds: string[] } | FormErrorState {
    const fields: Record<string, string> = {};
    if (reason.trim() === "") fields.reason = "Say why, for the customer's credit note and your records.";
    const items: NonNullable<CreateAdjustmentInput["items"]> = [];
    const lineIds: string[] = [];
    if (type === "partial") {
      for (const line of lines) {
        const read = readMoney(amounts[line.id] ?? "", currency);
        if (!read.ok) fields[amountField(line.id)] = read.message;
        else if (read.value !== null && read.value !== "0") {
          items.push({ item_id: line.id, type: "partial", amount: read.value });
          lineIds.push(line.id);
        }
      }
      if (items.length === 0 && Object.keys(fields).every((f) => f === "reason")) {
        return { fields, message: `Enter an amount for at least one line to ${text.noun}.`, other: [] };
      }
    }
    if (Object.keys(fields).length > 0) return { fields, message: null, other: [] };
    const request: CreateAdjustmentInput =
      type === "full"
        ? { action, transaction_id: t.id, reason: reason.trim(), type: "full" }
        : { action, transaction_id: t.id, reason: reason.trim(), type: "partial", items };
    return { body: request, lineIds };
  }

  const [sentLines, setSentLines] = useState<string[]>([]);

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const built = build();
    if ("fields" in built) {
      setErrors(built);
      return;
    }
    setErrors(null);
    create.reset();
    setSentLines(built.lineIds);
    setBody(built.body);
  }

  async function confirm() {
    if (!body) return;
    try {
      await create.mutateAsync(body);
      toast.show(text.done);
      setBody(null);
      onDone();
    } catch (error) {
      // The server's field errors go beside their fields: items[k] is the k-th line sent.
      const fields = ["reason", "type", ...lines.map((line) => amountField(line.id))];
      const rename = (field: string) =>
        field.replace(/^items\[(\d+)\].*$/, (_, k: string) => amountField(sentLines[Number(k)] ?? ""));
      setErrors(formErrors(error, fields, rename));
      setBody(null);
    }
  }

  const total =
    body?.type === "full" ? totalLeft : (body?.items ?? []).reduce((s, i) => s + BigInt(i.amount ?? "0"), 0n);
  const productName = (line: (typeof lines)[number]) =>
    typeof line.product.name === "string" && line.product.name ? line.product.name : line.price_id;

  return (
    <>
      <form
        ref={form}
        aria-label={`${text.verb} transaction`}
        onSubmit={review}
        noValidate
        className="space-y-4 rounded-md border border-slate-200 bg-slate-50/60 p-4"
      >
        <div>
          <h3 className="text-sm font-semibold text-slate-900">{text.verb} this transaction</h3>
          <p className="mt-0.5 text-sm text-slate-600">{text.explain}</p>
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">What to {text.noun}</legend>
          <div className="mt-2 flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" name="type" checked={type === "full"} onChange={() => setType("full")} />
              Everything left ({formatMoney(totalLeft.toString(), currency)})
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="type" checked={type === "partial"} onChange={() => setType("partial")} />
              Part of it, line by line
            </label>
          </div>
          {errors?.fields.type && <p className="mt-1 text-sm text-red-700">{errors.fields.type}</p>}
        </fieldset>

        {type === "partial" && (
          <div className="grid gap-3 sm:grid-cols-2">
            {lines.map((line) => {
              const rest = left.get(line.id)?.total ?? 0n;
              return (
                <MoneyField
                  key={line.id}
                  label={`${text.verb} for ${productName(line)}`}
                  currency={currency}
                  value={amounts[line.id] ?? ""}
                  onValueChange={(value) => setAmounts((a) => ({ ...a, [line.id]: value }))}
                  hint={`${formatMoney(rest.toString(), currency)} left to ${text.noun}, tax included.`}
                  error={errors?.fields[amountField(line.id)]}
                />
              );
            })}
          </div>
        )}

        <TextAreaField
          label="Reason"
          required
          mono={false}
          rows={2}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={errors?.fields.reason}
          hint="Shown on the credit note."
        />

        <FormError message={errors?.message ?? null} other={errors?.other} requestId={errors?.requestId} />
        <FormActions>
          <Button type="submit">Review {text.noun}</Button>
          <Button type="button" variant="secondary" onClick={onDone}>
            Cancel
          </Button>
        </FormActions>
      </form>
      <ConfirmDialog
        open={body !== null}
        title={`${text.verb} ${formatMoney(total.toString(), currency)}?`}
        description={
          action === "refund"
            ? "The amount goes back to the customer's payment method. Refunds cannot be undone."
            : "The invoice's amount due goes down by this amount. Credits cannot be undone."
        }
        confirmLabel={`${text.verb} ${formatMoney(total.toString(), currency)}`}
        cancelLabel="Go back"
        tone="danger"
        pending={create.isPending}
        error={
          create.error && !(errors && Object.keys(errors.fields).length) ? (
            <EntityText text={create.error.message} />
          ) : undefined
        }
        onConfirm={confirm}
        onCancel={() => setBody(null)}
      />
    </>
  );
}
