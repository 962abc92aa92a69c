/** The customer's payments, each with its invoice PDF when it has one (app/portal/api/invoices). */
import { formatMoney } from "@/lib/dashboard/money";
import type { PortalTransaction } from "@/lib/services/portal/data";
import { dateText } from "./ui";

const STATUS: Record<string, { text: string; tone: string }> = {
  completed: { text: "Paid", tone: "bg-emerald-50 text-emerald-800 ring-emerald-600/20" },
  paid: { text: "Paid", tone: "bg-emerald-50 text-emerald-800 ring-emerald-600/20" },
  billed: { text: "Invoice issued", tone: "bg-sky-50 text-sky-800 ring-sky-600/20" },
  past_due: { text: "Payment failed", tone: "bg-red-50 text-red-800 ring-red-600/20" },
};

function description(t: PortalTransaction["transaction"]): string {
  const names = t.details.line_items.map((line) => String(line.product?.name ?? "Item"));
  const unique = [...new Set(names)];
  return unique.length > 2 ? `${unique.slice(0, 2).join(", ")} and ${unique.length - 2} more` : unique.join(", ");
}

export function PaymentsTable({ rows }: { rows: PortalTransaction[] }) {
  if (rows.length === 0) {
    return (
      <p className="text-sm text-slate-600">No payments yet. Your invoices will appear here once you are billed.</p>
    );
  }
  return (
    <ul aria-label="Payments" className="divide-y divide-slate-100">
      {rows.map(({ transaction: t, has_invoice }) => {
        const status = STATUS[t.status] ?? { text: t.status, tone: "bg-slate-100 text-slate-700 ring-slate-500/20" };
        return (
          <li key={t.id} data-testid="payment-row" className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3 text-sm">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-slate-900">{description(t)}</p>
              <p className="text-slate-600">
                {dateText(t.billed_at ?? t.created_at)}
                {t.invoice_number && <span className="ml-2 text-slate-500">{t.invoice_number}</span>}
              </p>
            </div>
            <div className="flex flex-col items-end gap-1">
              <span className="tabular-nums text-slate-900">
                {formatMoney(t.details.totals.grand_total, t.currency_code)}
              </span>
              <span
                className={`inline-flex w-fit items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${status.tone}`}
              >
                {status.text}
              </span>
            </div>
            <div className="w-full text-right sm:w-36">
              {has_invoice ? (
                <a
                  href={`/portal/api/invoices/${t.id}`}
                  download
                  className="font-medium text-brand-700 underline-offset-2 hover:underline"
                  aria-label={`Download invoice ${t.invoice_number ?? ""}`.trim()}
                >
                  Download invoice
                </a>
              ) : (
                <span className="text-slate-500">No invoice</span>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
