"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/button";
import { FormError } from "@/components/form";
import { PageHeader } from "@/components/page-header";
import { useToast } from "@/components/toast";
import { ApiClientError, api } from "@/lib/dashboard/api";
import type { EntityResponse } from "@/lib/dashboard/hooks";
import {
  createBody,
  type DraftLine,
  discountBody,
  emptyDraft,
  fieldErrorText,
  type InvoiceDraft,
  itemBodies,
  type LineProblems,
  lineOfField,
  paymentTerms,
  STEPS,
  type StepId,
  stepOfField,
} from "@/lib/dashboard/invoice-draft";
import { Allowed } from "@/lib/dashboard/permissions";
import { usePreselectCurrency } from "@/lib/dashboard/settings";
import { type TransactionWithIncludes, transactionKeys } from "@/lib/dashboard/transactions";
import { transactionPath } from "../transaction-parts";
import { AddressStep } from "./address-step";
import { CustomerStep } from "./customer-step";
import { DiscountStep } from "./discount-step";
import { ItemsStep } from "./items-step";
import { StepFrame } from "./step-frame";
import { type TermsField, TermsStep } from "./terms-step";
import { TotalsPreview } from "./totals-preview";

const BACK = { href: "/transactions", label: "Transactions" };

/** The API's errors, sorted onto the step (and line, and field) they belong to. */
interface ServerErrors {
  byStep: Partial<Record<StepId, string[]>>;
  lines: LineProblems;
  terms: Partial<Record<TermsField, string>>;
  /** A refusal that names no field (the detail). */
  message: string | null;
  requestId?: string;
}

const NO_SERVER_ERRORS: ServerErrors = { byStep: {}, lines: {}, terms: {}, message: null };

function sortErrors(error: unknown, draft: InvoiceDraft): ServerErrors {
  if (!(error instanceof ApiClientError)) {
    return { ...NO_SERVER_ERRORS, message: error instanceof Error ? error.message : "Something went wrong." };
  }
  const out: ServerErrors = { byStep: {}, lines: {}, terms: {}, message: null, requestId: error.requestId };
  for (const { field, message } of error.errors) {
    const step = stepOfField(field);
    const line = lineOfField(field);
    const draftLine = line ? draft.lines[line.index] : undefined;
    if (line && draftLine && line.field) {
      const key = draftLine.key;
      out.lines[key] = { ...out.lines[key], [line.field]: message };
    }
    const termsField = /^billing_details\.(payment_terms|purchase_order_number|additional_information)/.exec(field);
    if (termsField) out.terms[termsField[1] as TermsField] ??= message;
    const list = out.byStep[step] ?? [];
    list.push(fieldErrorText(field, message));
    out.byStep[step] = list;
  }
  if (error.errors.length === 0) out.message = error.message;
  return out;
}

/**
 * A manual invoice, step by step: customer, address and business, items, discount, terms. The
 * totals beside the steps are priced live by the API. "Create draft invoice" creates the
 * transaction (collection mode manual) and opens it, where "Issue invoice" bills it.
 */
export function NewInvoice() {
  const [draft, setDraft] = useState<InvoiceDraft>(emptyDraft);
  const [stepIndex, setStepIndex] = useState(0);
  const [reached, setReached] = useState(0);
  const [moved, setMoved] = useState(false);
  const [tried, setTried] = useState<Partial<Record<StepId, boolean>>>({});
  const [server, setServer] = useState<ServerErrors>(NO_SERVER_ERRORS);
  const [creating, setCreating] = useState(false);
  const router = useRouter();
  const toast = useToast();
  const client = useQueryClient();
  // stepIndex moves only between STEPS' indices (goTo).
  const step = STEPS[stepIndex] ?? STEPS[0];
  // An edit answers the API's last refusal: its messages go until the next attempt.
  const update = (patch: Partial<InvoiceDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setServer(NO_SERVER_ERRORS);
  };

  // The account's default currency, unless a currency was chosen or items were added first.
  const currencyChosen = useRef(false);
  const linesAdded = draft.lines.length > 0;
  usePreselectCurrency(
    (currency) => setDraft((d) => (d.lines.length === 0 ? { ...d, currency } : d)),
    () => currencyChosen.current || linesAdded,
  );

  const local = itemBodies(draft);
  const discount = discountBody(draft);

  /** What stops `id` from being complete, as the step shows it. */
  function problemsOf(id: StepId): string[] {
    switch (id) {
      case "customer":
        if (!draft.customer) return ["Choose a customer, or create a new one."];
        if (!draft.customer.name) return ["The customer needs a name: invoices are addressed to it."];
        return [];
      case "address":
        return draft.address ? [] : ["Choose the billing address, or add one: its country sets the tax."];
      case "items":
        if (draft.lines.length === 0) return ["Add at least one item."];
        return Object.keys(local.problems).length > 0 ? ["Some lines need attention."] : [];
      case "discount":
        return discount.ok ? [] : [discount.message];
      case "terms":
        return paymentTerms(draft)
          ? []
          : ["Enter the payment terms as a whole number of days, weeks, months or years."];
    }
  }

  function goTo(index: number) {
    setStepIndex(index);
    setReached((r) => Math.max(r, index));
    setMoved(true);
  }

  function next() {
    setTried((t) => ({ ...t, [step.id]: true }));
    if (problemsOf(step.id).length === 0) goTo(stepIndex + 1);
  }

  async function create() {
    setTried(Object.fromEntries(STEPS.map((s) => [s.id, true])));
    const firstIncomplete = STEPS.findIndex((s) => problemsOf(s.id).length > 0);
    if (firstIncomplete >= 0) {
      goTo(firstIncomplete);
      return;
    }
    setCreating(true);
    setServer(NO_SERVER_ERRORS);
    try {
      const created = (
        await api<EntityResponse<TransactionWithIncludes>>("/transactions", { method: "POST", body: createBody(draft) })
      ).data;
      await client.invalidateQueries({ queryKey: transactionKeys.lists });
      toast.show("Draft invoice created. Issue it when it is ready to send.");
      router.push(transactionPath(created.id));
    } catch (error) {
      const sorted = sortErrors(error, draft);
      setServer(sorted);
      const firstWithError = STEPS.findIndex((s) => (sorted.byStep[s.id]?.length ?? 0) > 0);
      if (firstWithError >= 0 && firstWithError !== stepIndex) goTo(firstWithError);
      setCreating(false);
    }
  }

  const stepProblems = [...(tried[step.id] ? problemsOf(step.id) : []), ...(server.byStep[step.id] ?? [])];
  const lineProblems: LineProblems = { ...local.problems };
  for (const [key, fields] of Object.entries(server.lines)) lineProblems[key] = { ...fields, ...lineProblems[key] };

  function setLines(lines: DraftLine[]) {
    update({ lines });
  }

  const isLast = stepIndex === STEPS.length - 1;
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        back={BACK}
        title="New invoice"
        description="Bill a customer by invoice: the transaction is created as a draft with manual collection, and you issue it from its page."
      />

      <nav aria-label="Invoice steps" className="mb-6">
        <ol className="flex flex-wrap gap-2">
          {STEPS.map((s, index) => {
            const current = index === stepIndex;
            const done = index < stepIndex || (index <= reached && problemsOf(s.id).length === 0);
            return (
              <li key={s.id}>
                <button
                  type="button"
                  onClick={() => goTo(index)}
                  disabled={index > reached}
                  aria-current={current ? "step" : undefined}
                  className={`flex items-center gap-2 rounded-full border px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50 ${
                    current
                      ? "border-brand-600 bg-brand-600 text-white"
                      : done
                        ? "border-brand-200 bg-brand-50 text-brand-700"
                        : "border-slate-300 bg-white text-slate-700"
                  }`}
                >
                  <span aria-hidden="true">{done && !current ? "✓" : index + 1}</span>
                  {s.title}
                  {done && !current && <span className="sr-only"> (done)</span>}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <StepFrame
          key={step.id}
          number={stepIndex + 1}
          title={step.title}
          problems={stepProblems}
          focusOnMount={moved}
          onBack={stepIndex > 0 ? () => goTo(stepIndex - 1) : undefined}
          next={
            isLast ? (
              <Allowed permission="transaction.write" action="create invoices">
                <Button onClick={create} pending={creating} pendingLabel="Creating…">
                  Create draft invoice
                </Button>
              </Allowed>
            ) : (
              <Button onClick={next}>Continue</Button>
            )
          }
        >
          {step.id === "customer" && (
            <CustomerStep
              customer={draft.customer}
              onChange={(customer) => {
                setServer(NO_SERVER_ERRORS);
                setDraft((d) =>
                  d.customer?.id === customer?.id
                    ? { ...d, customer }
                    : { ...d, customer, address: null, business: null },
                );
              }}
            />
          )}
          {step.id === "address" && draft.customer && (
            <AddressStep
              customer={draft.customer}
              address={draft.address}
              business={draft.business}
              onAddress={(address) => update({ address })}
              onBusiness={(business) => update({ business })}
            />
          )}
          {step.id === "items" && (
            <ItemsStep
              draft={draft}
              problems={lineProblems}
              showProblems={Boolean(tried.items) || Object.keys(server.lines).length > 0}
              onCurrency={(currency) => {
                currencyChosen.current = true;
                update({ currency });
              }}
              onLines={setLines}
            />
          )}
          {step.id === "discount" && (
            <DiscountStep
              draft={draft}
              error={tried.discount && !discount.ok ? discount : null}
              onChange={(value) => update({ discount: value })}
            />
          )}
          {step.id === "terms" && (
            <>
              <TermsStep draft={draft} errors={server.terms} onChange={update} />
              <FormError message={server.message} requestId={server.requestId} />
            </>
          )}
        </StepFrame>

        <TotalsPreview draft={draft} />
      </div>
    </div>
  );
}
