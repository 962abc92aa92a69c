/**
 * The credit note PDF: a pure function from plain data to the PDF's bytes, in the invoice's
 * layout. A credit note records money given back against an issued invoice (an adjustment of
 * action `refund` or `credit` in the API family): its number and date, the invoice it corrects,
 * the reason, each line refunded or credited with its tax, and the totals. Amounts are positive
 * minor-unit strings of `currency` (what is credited), as the adjustments entity holds them.
 *
 * `GET /adjustments/{adjustment_id}/credit-note` builds CreditNoteData from the adjustment, its
 * transaction (with include=customer,address,business for `billTo`) and the merchant's details.
 */

import {
  COLORS,
  type Column,
  createDocument,
  documentFileName,
  drawHeader,
  drawNote,
  drawRecipient,
  drawTable,
  drawTotals,
  finishDocument,
  type Merchant,
  type Recipient,
  type TotalRow,
} from "./layout.ts";
import { documentDate, documentMoney, percentText } from "./print-format.ts";

export type { Merchant, Recipient };

export interface CreditNoteLine {
  /** The product's name (of the transaction line the adjustment item refers to). */
  description: string;
  detail?: string | null;
  /** Units refunded, when the item is per unit; null for a partial amount. */
  quantity: number | null;
  /** Net of tax. */
  amount: string;
  /** A decimal fraction, "0.2" for 20%. */
  taxRate: string;
  tax: string;
  /** amount + tax. */
  total: string;
}

export interface CreditNoteData {
  /** The credit note's own number, e.g. "CN-000001" (or the adjustment ID). */
  creditNoteNumber: string;
  /** When the adjustment was created, RFC 3339. */
  issuedAt: string;
  /** The invoice it corrects (the transaction's invoice_number), when it had one. */
  invoiceNumber: string | null;
  transactionId: string;
  /** The adjustment's action: `refund` (money back) or `credit` (to the customer's balance). */
  action: string;
  reason: string;
  currency: string;
  merchant: Merchant;
  billTo: Recipient;
  lines: CreditNoteLine[];
  totals: { subtotal: string; tax: string; total: string };
}

/** The credit note's file name, `credit-note-CN-000001.pdf` (only safe characters). */
export function creditNoteFileName(creditNoteNumber: string): string {
  return documentFileName("credit-note", creditNoteNumber);
}

const ACTIONS: Record<string, string> = {
  refund: "Refund to the original payment method",
  credit: "Credit to the customer's balance",
  chargeback: "Chargeback",
  chargeback_reverse: "Chargeback reversal",
  chargeback_warning: "Chargeback warning",
};

export async function renderCreditNotePdf(data: CreditNoteData): Promise<Uint8Array> {
  const money = (amount: string) => documentMoney(amount, data.currency);
  const doc = { kind: "Credit note", number: data.creditNoteNumber, merchant: data.merchant, issuedAt: data.issuedAt };
  const w = await createDocument(doc);

  const facts: [string, string][] = [
    ["Credit note number", data.creditNoteNumber],
    ["Date", documentDate(data.issuedAt, data.merchant.timeZone)],
  ];
  if (data.invoiceNumber) facts.push(["Original invoice", data.invoiceNumber]);
  facts.push(["Transaction", data.transactionId]);
  facts.push(["Type", ACTIONS[data.action] ?? data.action]);
  facts.push(["Currency", data.currency]);
  await drawHeader(w, { merchant: data.merchant, title: "Credit note", facts });

  drawRecipient(w, "Credit to", data.billTo, {
    label: `Total credited (${data.currency})`,
    value: money(data.totals.total),
    note: data.invoiceNumber ? `Against invoice ${data.invoiceNumber}` : null,
    color: COLORS.paid,
  });

  const columns: Column<CreditNoteLine>[] = [
    { header: "Description", cell: (line) => line.description, detail: (line) => line.detail },
    { header: "Qty", width: 40, align: "right", cell: (line) => (line.quantity === null ? "" : String(line.quantity)) },
    { header: "Amount", width: 80, align: "right", cell: (line) => money(line.amount) },
    { header: "Tax rate", width: 55, align: "right", cell: (line) => percentText(line.taxRate) },
    { header: "Tax", width: 70, align: "right", cell: (line) => money(line.tax) },
    { header: "Total", width: 80, align: "right", cell: (line) => money(line.total) },
  ];
  drawTable(w, columns, data.lines);

  const rows: TotalRow[] = [
    { label: "Subtotal", value: money(data.totals.subtotal) },
    { label: "Tax", value: money(data.totals.tax) },
    { label: `Total credited (${data.currency})`, value: money(data.totals.total), emphasis: "strong" },
  ];
  drawTotals(w, rows);

  drawNote(w, "Reason", data.reason);
  if (data.invoiceNumber) {
    drawNote(
      w,
      "Note",
      `This credit note reduces the amount of invoice ${data.invoiceNumber} by ${money(data.totals.total)}.`,
    );
  }

  return finishDocument(w, doc);
}
