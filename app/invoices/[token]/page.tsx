/**
 * The hosted invoice page: public, outside the dashboard (no sign-in). The signed link in the URL
 * is the capability (lib/documents/hosted-invoice-links.ts); a tampered, expired or unknown link
 * is sent to the page that says what went wrong, with a 4xx status (app/invoices/link/route.ts).
 */
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { CheckoutShell, Notice } from "@/app/checkout/checkout-form";
import { MerchantLogo } from "@/app/checkout/merchant-logo";
import { formatMoney } from "@/lib/dashboard/money";
import { percentText } from "@/lib/documents/print-format";
import { type HostedInvoiceView, loadHostedInvoice } from "@/lib/services/hosted-invoices";

export const metadata: Metadata = { title: "Invoice", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

export default async function HostedInvoicePage({ params }: { params: Promise<{ token: string }> }) {
  // Next.js hands the segment over decoded; anything malformed is refused by the token check.
  const result = await loadHostedInvoice((await params).token);
  // A page answers 200 whatever it shows: the problem's page is a route of its own, with its status.
  if (!result.ok) redirect(`/invoices/link?reason=${result.problem}`);
  return (
    <CheckoutShell>
      <InvoiceView view={result.view} />
    </CheckoutShell>
  );
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** A day in the merchant's time zone (Settings), the same day as on the PDF, written in full: "24 November 2026". */
function date(value: string, timeZone = "UTC"): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone });
    dateFormats.set(timeZone, format);
  }
  return format.format(new Date(value));
}

const STATE_TEXT = {
  open: { label: "Open", className: "bg-sky-100 text-sky-900" },
  past_due: { label: "Past due", className: "bg-amber-100 text-amber-900" },
  paid: { label: "Paid", className: "bg-emerald-100 text-emerald-900" },
  canceled: { label: "Canceled", className: "bg-slate-200 text-slate-800" },
} as const;

function InvoiceView({ view }: { view: HostedInvoiceView }) {
  const data = view.invoice;
  const money = (amount: string) => formatMoney(amount, data.currency);
  const state = STATE_TEXT[view.state];
  const party = (lines: (string | null | undefined)[]) =>
    lines.filter((line): line is string => !!line).map((line) => <div key={line}>{line}</div>);
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <MerchantLogo url={data.merchant.logoUrl} className="mb-3" />
          <p className="text-sm text-slate-600">{data.merchant.name}</p>
          <h1 className="text-2xl font-semibold text-slate-900">Invoice {view.invoiceNumber}</h1>
          <p className="mt-1 text-sm text-slate-600">
            Issued {date(data.issuedAt, data.merchant.timeZone)}
            {data.dueAt && ` · Due ${date(data.dueAt, data.merchant.timeZone)}`}
          </p>
        </div>
        <span className={`rounded-full px-3 py-1 text-sm font-medium ${state.className}`} data-testid="invoice-state">
          {state.label}
        </span>
      </header>

      <StateNotice view={view} money={money} />

      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <section aria-label="Invoice" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <div className="grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <h2 className="font-medium text-slate-900">From</h2>
              <div className="mt-1 text-slate-700">
                {party([data.merchant.name, ...(data.merchant.address?.split("\n") ?? []), data.merchant.email])}
                {data.merchant.taxNumber && <div>Tax number: {data.merchant.taxNumber}</div>}
              </div>
            </div>
            <div>
              <h2 className="font-medium text-slate-900">Bill to</h2>
              <div className="mt-1 text-slate-700">
                {party([data.billTo.businessName, data.billTo.name, data.billTo.email, ...data.billTo.addressLines])}
                {data.billTo.taxIdentifier && <div>Tax ID: {data.billTo.taxIdentifier}</div>}
              </div>
            </div>
          </div>
          <div className="mt-5 overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Invoice lines</caption>
              <thead>
                <tr className="border-b border-slate-200 text-left text-slate-600">
                  <th scope="col" className="py-2 font-medium">
                    Description
                  </th>
                  <th scope="col" className="whitespace-nowrap py-2 pl-3 text-right font-medium">
                    Qty
                  </th>
                  <th scope="col" className="whitespace-nowrap py-2 pl-3 text-right font-medium">
                    Unit price
                  </th>
                  <th scope="col" className="whitespace-nowrap py-2 pl-3 text-right font-medium">
                    Tax
                  </th>
                  <th scope="col" className="whitespace-nowrap py-2 pl-3 text-right font-medium">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.lines.map((line, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines have no ID of their own here; their order is fixed.
                  <tr key={i} className="border-b border-slate-100 align-top">
                    <td className="py-2 pr-2">
                      <div className="text-slate-900">{line.description}</div>
                      {line.detail && <div className="text-xs text-slate-600">{line.detail}</div>}
                    </td>
                    <td className="whitespace-nowrap py-2 pl-3 text-right tabular-nums">{line.quantity}</td>
                    <td className="whitespace-nowrap py-2 pl-3 text-right tabular-nums">{money(line.unitPrice)}</td>
                    <td className="whitespace-nowrap py-2 pl-3 text-right tabular-nums">{percentText(line.taxRate)}</td>
                    <td className="whitespace-nowrap py-2 pl-3 text-right tabular-nums">{money(line.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <dl className="mt-4 ml-auto max-w-xs space-y-1 text-sm">
            <Row label="Subtotal" value={money(data.totals.subtotal)} />
            {data.totals.discount !== "0" && (
              <Row
                label={data.discountCode ? `Discount (${data.discountCode})` : "Discount"}
                value={`-${money(data.totals.discount)}`}
              />
            )}
            {data.taxRates.length === 0 ? (
              <Row label="Tax" value={money(data.totals.tax)} />
            ) : (
              data.taxRates.map((rate) => (
                <Row
                  key={rate.rate}
                  label={`Tax ${percentText(rate.rate)} on ${money(rate.taxable)}`}
                  value={money(rate.tax)}
                />
              ))
            )}
            <Row label="Total" value={money(data.totals.total)} strong />
            {data.totals.credit !== "0" && <Row label="Credit applied" value={`-${money(data.totals.credit)}`} />}
            {data.amountPaid !== "0" && <Row label="Amount paid" value={`-${money(data.amountPaid)}`} />}
            <Row label="Amount due" value={money(data.amountDue)} strong />
          </dl>
          {data.additionalInformation && (
            <p className="mt-4 whitespace-pre-line text-sm text-slate-700">{data.additionalInformation}</p>
          )}
        </section>

        <aside className="order-first space-y-4 lg:order-none">
          {view.checkoutUrl && (
            <a
              href={view.checkoutUrl}
              className="block rounded-md bg-brand-600 px-4 py-2.5 text-center text-sm font-semibold text-white hover:bg-brand-700"
            >
              Pay {money(data.amountDue)} by card
            </a>
          )}
          {view.pdfUrl && (
            <a
              href={view.pdfUrl}
              className="block rounded-md border border-slate-300 bg-white px-4 py-2.5 text-center text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Download PDF
            </a>
          )}
          {view.bankTransferInstructions && (
            <section
              aria-label="Pay by bank transfer"
              className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
            >
              <h2 className="font-medium text-slate-900">Pay by bank transfer</h2>
              <p className="mt-2 whitespace-pre-line text-slate-700">{view.bankTransferInstructions}</p>
              <p className="mt-2 text-slate-600">
                Quote invoice number <strong>{view.invoiceNumber}</strong> with your payment.
              </p>
            </section>
          )}
          {!view.checkoutUrl &&
            !view.bankTransferInstructions &&
            (view.state === "open" || view.state === "past_due") && (
              <p className="text-sm text-slate-600">
                Pay as agreed with {data.merchant.name}, quoting invoice number {view.invoiceNumber}.
              </p>
            )}
        </aside>
      </div>
    </div>
  );
}

function StateNotice({ view, money }: { view: HostedInvoiceView; money: (amount: string) => string }) {
  const notices: Record<HostedInvoiceView["state"], ReactNode> = {
    paid: (
      <Notice tone="success" title="Paid">
        This invoice has been paid ({money(view.invoice.amountPaid)}). Thank you!
      </Notice>
    ),
    canceled: (
      <Notice tone="info" title="Canceled">
        This invoice was canceled by {view.invoice.merchant.name}: there is nothing to pay.
      </Notice>
    ),
    past_due: (
      <Notice tone="error" title="Past due">
        This invoice was due {view.invoice.dueAt ? date(view.invoice.dueAt, view.invoice.merchant.timeZone) : "already"}
        . Please pay {money(view.invoice.amountDue)} now.
      </Notice>
    ),
    open: null,
  };
  return notices[view.state];
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? "font-semibold text-slate-900" : "text-slate-700"}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
