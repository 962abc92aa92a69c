"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { DataTable } from "@/components/data-table";
import { DownloadDocumentButton } from "@/components/download-document-button";
import { FormShell, useForm } from "@/components/entity-form";
import { EntityText } from "@/components/entity-text";
import { TextAreaField } from "@/components/form";
import { MoneyField } from "@/components/money-input";
import { Section } from "@/components/page-header";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { SummaryList, SummaryRow } from "@/components/summary-rows";
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
import { formatMoney, readMoney } from "@/lib/dashboard/money";
import { Allowed } from "@/lib/dashboard/permissions";
import type { TransactionWithIncludes } from "@/lib/dashboard/transactions";
import { type CreateAdjustmentInput, createAdjustmentBody } from "@/lib/schemas/adjustment";
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

interface AdjustmentValues {
  type: "full" | "partial";
  /** The amount typed for each line, by line ID. */
  amounts: Record<string, string>;
  reason: string;
}

/**
 * A refund or credit in two steps on the form kit: the form (what, how much, why), checked by the
 * form and by the API's own schema, then a confirmation with the computed amounts. Confirming sends
 * it; the server's refusal comes back to the form, each field's reason beside that field.
 */
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
  const fields = ["reason", "type", ...lines.map((line) => amountField(line.id))];

  const form = useForm<AdjustmentValues>(() => ({ type: "full", amounts: {}, reason: "" }));
  const { values } = form;
  /** The body under review (step 2), with the line of each of its items. */
  const [review, setReview] = useState<{ body: CreateAdjustmentInput; lineIds: string[] } | null>(null);
  const create = useCreateAdjustment(t.id);
  const toast = useToast();

  // The server's items[k] is the k-th line sent.
  const rename = (lineIds: string[]) => (field: string) =>
    field.replace(/^items\[(\d+)\].*$/, (_, k: string) => amountField(lineIds[Number(k)] ?? ""));

  /** The request, and the problems the form sees without asking the server. */
  function build() {
    const local: Record<string, string> = {};
    if (values.reason.trim() === "") local.reason = "Say why, for the customer's credit note and your records.";
    const items: NonNullable<CreateAdjustmentInput["items"]> = [];
    const lineIds: string[] = [];
    if (values.type === "partial") {
      for (const line of lines) {
        const read = readMoney(values.amounts[line.id] ?? "", currency);
        if (!read.ok) local[amountField(line.id)] = read.message;
        else if (read.value !== null && read.value !== "0") {
          items.push({ item_id: line.id, type: "partial", amount: read.value });
          lineIds.push(line.id);
        }
      }
      const amountsRead = lines.every((line) => !local[amountField(line.id)]);
      const [firstLine] = lines;
      if (items.length === 0 && amountsRead && firstLine) {
        local[amountField(firstLine.id)] = `Enter an amount for at least one line to ${text.noun}.`;
      }
    }
    const reason = values.reason.trim();
    const body: CreateAdjustmentInput =
      values.type === "full"
        ? { action, transaction_id: t.id, reason, type: "full" }
        : { action, transaction_id: t.id, reason, type: "partial", items };
    return { body, lineIds, local };
  }

  /** Step 1 to step 2: nothing is sent yet. */
  function toReview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { body, lineIds, local } = build();
    create.reset();
    return form.run({
      fields,
      rename: rename(lineIds),
      local,
      schema: createAdjustmentBody,
      body,
      send: async (checked) => setReview({ body: checked, lineIds }),
    });
  }

  /** Step 2: sends it; a refusal goes back to the form (step 1) with its reasons. */
  function confirm() {
    if (!review) return;
    return form.run({
      fields,
      rename: rename(review.lineIds),
      body: review.body,
      send: async (body) => {
        await create.mutateAsync(body);
        toast.show(text.done);
        setReview(null);
        onDone();
      },
      handle: () => {
        setReview(null);
        return false;
      },
    });
  }

  const productName = (line: (typeof lines)[number]) =>
    typeof line.product.name === "string" && line.product.name ? line.product.name : line.price_id;
  const reviewed = review?.body;
  const reviewedLines =
    reviewed?.type === "full"
      ? lines.map((line) => ({ line, amount: left.get(line.id)?.total ?? 0n }))
      : (reviewed?.items ?? []).flatMap((item) => {
          const line = lines.find((l) => l.id === item.item_id);
          return line ? [{ line, amount: BigInt(item.amount ?? "0") }] : [];
        });
  const total = reviewedLines.reduce((sum, { amount }) => sum + amount, 0n);
  const money = (amount: bigint) => formatMoney(amount.toString(), currency);

  return (
    <>
      <FormShell
        label={`${text.verb} transaction`}
        state={form}
        onSubmit={toReview}
        submitLabel={`Review ${text.noun}`}
        onCancel={onDone}
        renderDetail={(detail) => <EntityText text={detail} />}
        allowed={{ permission: "adjustment.write", action: `${text.noun} transactions` }}
        className="rounded-md border border-slate-200 bg-slate-50/60 p-4"
      >
        <div>
          <h3 className="text-sm font-semibold text-slate-900">{text.verb} this transaction</h3>
          <p className="mt-0.5 text-sm text-slate-600">{text.explain}</p>
        </div>
        <fieldset aria-describedby={form.error("type") ? "adjustment-type-error" : undefined}>
          <legend className="text-sm font-medium text-slate-700">What to {text.noun}</legend>
          <div className="mt-2 flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="type"
                checked={values.type === "full"}
                onChange={() => form.set("type", "full")}
              />
              Everything left ({money(totalLeft)})
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="type"
                checked={values.type === "partial"}
                onChange={() => form.set("type", "partial")}
              />
              Part of it, line by line
            </label>
          </div>
          {form.error("type") && (
            <p id="adjustment-type-error" className="mt-1 text-sm text-red-700">
              {form.error("type")}
            </p>
          )}
        </fieldset>

        {values.type === "partial" && (
          <div className="grid gap-3 sm:grid-cols-2">
            {lines.map((line) => (
              <MoneyField
                key={line.id}
                label={`${text.verb} for ${productName(line)}`}
                currency={currency}
                value={values.amounts[line.id] ?? ""}
                onValueChange={(value) => form.set("amounts", { ...values.amounts, [line.id]: value })}
                hint={`${money(left.get(line.id)?.total ?? 0n)} left to ${text.noun}, tax included.`}
                error={form.error(amountField(line.id))}
              />
            ))}
          </div>
        )}

        <TextAreaField
          label="Reason"
          required
          mono={false}
          rows={2}
          {...form.bind("reason")}
          hint="Shown on the credit note."
        />
      </FormShell>
      <ConfirmDialog
        open={review !== null}
        wide
        title={`${text.verb} ${money(total)}?`}
        description={
          action === "refund"
            ? "The amount goes back to the customer's payment method. Refunds cannot be undone."
            : "The invoice's amount due goes down by this amount. Credits cannot be undone."
        }
        confirmLabel={`${text.verb} ${money(total)}`}
        cancelLabel="Go back"
        tone="danger"
        pending={form.pending}
        onConfirm={confirm}
        onCancel={() => setReview(null)}
      >
        <SummaryList label={`What the ${text.noun} covers`}>
          {reviewedLines.map(({ line, amount }) => (
            <SummaryRow key={line.id} term={productName(line)}>
              {money(amount)}
            </SummaryRow>
          ))}
          <SummaryRow term={`Total ${text.noun}, tax included`} strong>
            {money(total)}
          </SummaryRow>
          {reviewed?.reason && <SummaryRow term="Reason">{reviewed.reason}</SummaryRow>}
        </SummaryList>
      </ConfirmDialog>
    </>
  );
}
