/**
 * What an invoice shows, from a transaction as the API returns it (with `include=customer,
 * address,business`: the snapshots taken when they were added, or their revision) and the
 * merchant's details. Pure: no database, so it is tested with plain values.
 */
import { invoiceDueDate } from "../billing/payments.ts";
import type { Address } from "../schemas/address.ts";
import type { Business } from "../schemas/business.ts";
import type { Customer } from "../schemas/customer.ts";
import type { Transaction } from "../schemas/transaction.ts";
import type { InvoiceData, Merchant, Recipient } from "./invoice.ts";

export interface InvoiceTransaction extends Transaction {
  customer?: Pick<Customer, "name" | "email"> | null;
  address?: Pick<Address, "first_line" | "second_line" | "city" | "postal_code" | "region" | "country_code"> | null;
  business?: Pick<Business, "name" | "company_number" | "tax_identifier"> | null;
  /** Only its checkout `code` is shown: a discount's `description` is internal (the dashboard says so). */
  discount?: { code?: string | null } | null;
}

/** Statuses in which a transaction has an invoice (paid ones are marked paid). */
const INVOICED_MANUAL = new Set(["billed", "paid", "past_due", "completed"]);
const INVOICED_AUTOMATIC = new Set(["paid", "completed"]);
const PAID = new Set(["paid", "completed"]);

/**
 * Why the transaction has no invoice PDF, or null when it has one. As the API family: a
 * manually-collected transaction has one once billed (a demand for payment) and after; an
 * automatically-collected one once completed (proof of payment); a zero-value one never.
 */
export function invoiceUnavailableReason(
  t: Pick<Transaction, "id" | "status" | "collection_mode" | "invoice_number" | "details">,
): string | null {
  const invoiced = t.collection_mode === "manual" ? INVOICED_MANUAL : INVOICED_AUTOMATIC;
  if (!invoiced.has(t.status)) {
    const when =
      t.collection_mode === "manual"
        ? "a manually-collected transaction has one once it is billed (issue the invoice with PATCH status billed)"
        : "an automatically-collected transaction has one once it is completed (paid)";
    return `Transaction ${t.id} is ${t.status} and has no invoice: ${when}.`;
  }
  if (!t.invoice_number) return `Transaction ${t.id} has no invoice number, so it has no invoice.`;
  if (/^-?0+$/.test(t.details.totals.grand_total) && /^-?0+$/.test(t.details.totals.total)) {
    return `Transaction ${t.id} is a zero-value transaction: zero-value transactions have no invoice.`;
  }
  return null;
}

const countryNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

function countryName(code: string): string {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** An address as it is written on an envelope: street lines, "postal code city", region, country. */
export function addressLines(address: InvoiceTransaction["address"]): string[] {
  if (!address) return [];
  const cityLine = [address.postal_code, address.city].filter(Boolean).join(" ");
  return [address.first_line, address.second_line, cityLine, address.region, countryName(address.country_code)].filter(
    (line): line is string => typeof line === "string" && line.trim() !== "",
  );
}

/** Who the documents of transaction `t` are addressed to (its snapshots). */
export function recipient(t: InvoiceTransaction): Recipient {
  return {
    name: t.customer?.name ?? null,
    email: t.customer?.email ?? null,
    businessName: t.business?.name ?? null,
    companyNumber: t.business?.company_number ?? null,
    taxIdentifier: t.business?.tax_identifier ?? null,
    addressLines: addressLines(t.address),
  };
}

export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** The invoice of transaction `t` (which must have one: see invoiceUnavailableReason). */
export function invoiceDataFromTransaction(t: InvoiceTransaction, merchant: Merchant): InvoiceData {
  const issuedAt = t.billed_at ?? t.updated_at;
  const terms = t.collection_mode === "manual" ? (t.billing_details?.payment_terms ?? null) : null;
  const paid = PAID.has(t.status);
  const totals = t.details.totals;
  const prices = new Map(t.items.map((item) => [item.price_id, item.price]));
  const amountDue = paid ? "0" : totals.balance;
  return {
    invoiceNumber: t.invoice_number ?? t.id,
    transactionId: t.id,
    currency: t.currency_code,
    issuedAt,
    dueAt: terms ? (invoiceDueDate(issuedAt, t.billing_details)?.toISOString() ?? null) : null,
    paymentTerms: terms,
    purchaseOrderNumber: text(t.billing_details?.purchase_order_number),
    additionalInformation: text(t.billing_details?.additional_information),
    billingPeriod: t.billing_period ? { startsAt: t.billing_period.starts_at, endsAt: t.billing_period.ends_at } : null,
    merchant,
    billTo: recipient(t),
    lines: t.details.line_items.map((line) => {
      const product = text(line.product.name) ?? "Item";
      const price = prices.get(line.price_id);
      const priceText = text(price?.name); // the price's description is internal ("not shown to customers")
      return {
        description: product,
        detail: priceText && priceText !== product ? priceText : null,
        quantity: line.quantity,
        unitPrice: line.unit_totals.subtotal,
        taxRate: line.tax_rate,
        amount: line.totals.subtotal,
      };
    }),
    taxRates: t.details.tax_rates_used.map((used) => ({
      rate: used.tax_rate,
      taxable: (BigInt(used.totals.subtotal) - BigInt(used.totals.discount)).toString(),
      tax: used.totals.tax,
    })),
    totals: {
      subtotal: totals.subtotal,
      discount: totals.discount,
      tax: totals.tax,
      total: totals.total,
      credit: totals.credit,
      grandTotal: totals.grand_total,
    },
    discountCode: text(t.discount?.code),
    amountPaid: paid ? totals.grand_total : (BigInt(totals.grand_total) - BigInt(totals.balance)).toString(),
    amountDue,
    paid,
  };
}
