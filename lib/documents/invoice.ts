/**
 * The invoice PDF: a pure function from plain data (InvoiceData, built from a transaction by
 * invoice-data.ts) to the PDF's bytes. Amounts are minor-unit strings of `currency`.
 *
 * What it holds, as an invoice must: the merchant (name, address, tax number, email), the title
 * and number, the issue date, the due date with the payment terms, the purchase order number, the
 * customer (person, business, company number, tax identifier, address), each line (description,
 * quantity, unit price and amount net of tax, tax rate), the subtotal, the discount, the tax per
 * rate, the total, credit applied, the grand total, what is paid and what is still due, the
 * currency; a "Paid" mark once paid; while unpaid, how to pay it (the bank-transfer instructions of
 * the settings, and the hosted invoice page as a "Pay online" link with its QR code). Pages are
 * numbered in the footer.
 */

import {
  COLORS,
  type Column,
  createDocument,
  documentFileName,
  drawHeader,
  drawHowToPay,
  drawNote,
  drawRecipient,
  drawTable,
  drawTotals,
  finishDocument,
  type Merchant,
  type Recipient,
  type TotalRow,
} from "./layout.ts";
import { documentMoney, percentText, documentDate as printDate, termsText } from "./print-format.ts";

export type { Merchant, Recipient };

export interface InvoiceLine {
  /** What was sold: the product's name. */
  description: string;
  /** A second line under it: the price's description, the billing period. */
  detail?: string | null;
  quantity: number;
  /** One unit, before discount, net of tax. */
  unitPrice: string;
  /** A decimal fraction, "0.2" for 20%. */
  taxRate: string;
  /** The line before discount, net of tax (quantity × unit price). */
  amount: string;
}

export interface InvoiceTaxRate {
  rate: string;
  /** What the rate applies to (after discount). */
  taxable: string;
  tax: string;
}

export interface InvoiceData {
  invoiceNumber: string;
  /** The transaction the invoice is for (printed as a reference). */
  transactionId: string;
  currency: string;
  /** When the invoice was issued (the transaction's billed_at), RFC 3339. */
  issuedAt: string;
  /** Null for an invoice paid at checkout (automatic collection): nothing is due later. */
  dueAt: string | null;
  paymentTerms: { interval: string; frequency: number } | null;
  purchaseOrderNumber: string | null;
  additionalInformation: string | null;
  billingPeriod: { startsAt: string; endsAt: string } | null;
  merchant: Merchant;
  billTo: Recipient;
  lines: InvoiceLine[];
  taxRates: InvoiceTaxRate[];
  totals: { subtotal: string; discount: string; tax: string; total: string; credit: string; grandTotal: string };
  /** The discount's checkout code, shown beside its amount (never its internal description). */
  discountCode?: string | null;
  amountPaid: string;
  amountDue: string;
  paid: boolean;
  /**
   * How to pay by bank transfer (account settings `bank_transfer_instructions`), printed under
   * "How to pay" while the invoice is unpaid.
   */
  bankTransferInstructions?: string | null;
  /**
   * The hosted invoice page (a signed link), printed as "Pay online" with its QR code while the
   * invoice is unpaid: the customer opens it to see the invoice, pay by card when it takes cards,
   * or read the bank details.
   */
  payOnlineUrl?: string | null;
  /**
   * A preview of an invoice not issued yet (the dashboard's "Preview PDF" before "Issue invoice"):
   * stamped DRAFT, "Invoice number" reads "Preview (not issued)", and no number is taken.
   */
  preview?: boolean;
}

/** What a preview prints where the invoice number will be. */
export const PREVIEW_INVOICE_NUMBER = "DRAFT";

/** The invoice's file name, `invoice-INV-000001.pdf` (only safe characters). */
export function invoiceFileName(invoiceNumber: string): string {
  return documentFileName("invoice", invoiceNumber);
}

export async function renderInvoicePdf(data: InvoiceData): Promise<Uint8Array> {
  const money = (amount: string) => documentMoney(amount, data.currency);
  const documentDate = (value: string) => printDate(value, data.merchant.timeZone);
  const doc = { kind: "Invoice", number: data.invoiceNumber, merchant: data.merchant, issuedAt: data.issuedAt };
  const w = await createDocument(doc);

  const facts: [string, string][] = [
    ["Invoice number", data.preview ? "Preview (not issued)" : data.invoiceNumber],
    ["Invoice date", documentDate(data.issuedAt)],
  ];
  if (data.dueAt) facts.push(["Due date", documentDate(data.dueAt)]);
  if (data.paymentTerms) facts.push(["Payment terms", `Net ${termsText(data.paymentTerms)}`]);
  if (data.purchaseOrderNumber) facts.push(["Purchase order", data.purchaseOrderNumber]);
  if (data.billingPeriod) {
    facts.push([
      "Billing period",
      `${documentDate(data.billingPeriod.startsAt)} - ${documentDate(data.billingPeriod.endsAt)}`,
    ]);
  }
  facts.push(["Currency", data.currency]);
  await drawHeader(w, {
    merchant: data.merchant,
    title: "Invoice",
    stamp: data.preview
      ? { text: "DRAFT", color: COLORS.muted }
      : data.paid
        ? { text: "PAID", color: COLORS.paid }
        : null,
    facts,
  });

  drawRecipient(
    w,
    "Bill to",
    data.billTo,
    data.paid
      ? {
          label: `Amount paid (${data.currency})`,
          value: money(data.amountPaid),
          color: COLORS.paid,
          note: "Thank you for your payment.",
        }
      : {
          label: `Amount due (${data.currency})`,
          value: money(data.amountDue),
          note: data.dueAt ? `Due ${documentDate(data.dueAt)}` : null,
        },
  );

  const columns: Column<InvoiceLine>[] = [
    { header: "Description", cell: (line) => line.description, detail: (line) => line.detail },
    { header: "Qty", width: 45, align: "right", cell: (line) => String(line.quantity) },
    { header: "Unit price", width: 85, align: "right", cell: (line) => money(line.unitPrice) },
    { header: "Tax", width: 50, align: "right", cell: (line) => percentText(line.taxRate) },
    { header: "Amount", width: 90, align: "right", cell: (line) => money(line.amount) },
  ];
  drawTable(w, columns, data.lines);

  const rows: TotalRow[] = [{ label: "Subtotal", value: money(data.totals.subtotal) }];
  if (data.totals.discount !== "0") {
    const label = data.discountCode ? `Discount (${data.discountCode})` : "Discount";
    rows.push({ label, value: money(negate(data.totals.discount)) });
  }
  if (data.taxRates.length === 0) rows.push({ label: "Tax", value: money(data.totals.tax) });
  for (const rate of data.taxRates) {
    rows.push({ label: `Tax ${percentText(rate.rate)} on ${money(rate.taxable)}`, value: money(rate.tax) });
  }
  rows.push({ label: "Total", value: money(data.totals.total), emphasis: "strong" });
  if (data.totals.credit !== "0") {
    rows.push({ label: "Credit applied", value: money(negate(data.totals.credit)) });
    rows.push({ label: "Grand total", value: money(data.totals.grandTotal), emphasis: "strong" });
  }
  if (data.amountPaid !== "0") rows.push({ label: "Amount paid", value: money(negate(data.amountPaid)) });
  rows.push({ label: `Amount due (${data.currency})`, value: money(data.amountDue), emphasis: "strong" });
  drawTotals(w, rows);

  if (data.additionalInformation) drawNote(w, "Additional information", data.additionalInformation);
  if (data.preview) {
    drawNote(
      w,
      "Preview",
      "This is a preview of the invoice as it would be issued now. It has no invoice number yet and is not a request for payment.",
    );
  } else if (!data.paid && data.dueAt) {
    drawNote(
      w,
      "Payment",
      `Please pay ${money(data.amountDue)} by ${documentDate(data.dueAt)}, quoting invoice number ${data.invoiceNumber}.`,
    );
  }
  if (!data.paid) {
    drawHowToPay(w, {
      bankTransfer: text(data.bankTransferInstructions),
      // A preview has no link yet: the page exists once the invoice is issued.
      payOnlineUrl: data.preview ? null : text(data.payOnlineUrl),
    });
  }

  return finishDocument(w, doc);
}

function text(value: string | null | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** "500" → "-500", "0" → "0": an amount taken off, shown with its sign. */
function negate(amount: string): string {
  if (amount === "0") return amount;
  return amount.startsWith("-") ? amount.slice(1) : `-${amount}`;
}
