/**
 * The dashboard's manual invoice while it is being put together step by step, and the request
 * bodies it becomes: POST /transactions/preview for the live totals and POST /transactions for
 * "Create draft invoice". Pure (no React), so it is unit-tested with plain values.
 */
import { amountProblem, type Discount } from "../schemas/discount.ts";
import type { Interval, Price, TaxMode } from "../schemas/price.ts";
import {
  type BillingDetailsInput,
  type CreateTransactionInput,
  MANUAL_CURRENCIES,
  type NonCatalogueDiscountInput,
  type PreviewTransactionInput,
  type TransactionItemInput,
} from "../schemas/transaction.ts";
import type { Address, Business, Customer } from "./customers.ts";
import { readMoney } from "./money.ts";

export const INVOICE_CURRENCIES = MANUAL_CURRENCIES;

export const STEPS = [
  { id: "customer", title: "Customer" },
  { id: "address", title: "Address and business" },
  { id: "items", title: "Items" },
  { id: "discount", title: "Discount" },
  { id: "terms", title: "Payment terms and details" },
] as const;
export type StepId = (typeof STEPS)[number]["id"];

export interface CatalogueLine {
  key: string;
  kind: "catalogue";
  price: Price;
  productName: string;
  quantity: string;
}

export interface CustomLine {
  key: string;
  kind: "custom";
  name: string;
  /** In the currency's major unit, as typed ("10.50"). */
  amount: string;
  taxMode: TaxMode;
  quantity: string;
}

export type DraftLine = CatalogueLine | CustomLine;

export type DraftDiscount =
  | { kind: "none" }
  | { kind: "catalogue"; discount: Discount | null }
  | {
      kind: "custom";
      type: "percentage" | "flat";
      /** A percentage ("10" for 10%) or an amount in the major unit ("5.00"). */
      amount: string;
      description: string;
    };

/** Net N days, the usual invoice terms; `custom` takes any interval and frequency. */
export const TERM_PRESETS = ["7", "14", "30", "60"] as const;
export type TermPreset = (typeof TERM_PRESETS)[number] | "custom";

export interface InvoiceDraft {
  customer: Customer | null;
  address: Address | null;
  business: Business | null;
  currency: string;
  lines: DraftLine[];
  discount: DraftDiscount;
  terms: { preset: TermPreset; interval: Interval; frequency: string };
  purchaseOrderNumber: string;
  /** Pay by card from the hosted invoice page (billing_details.enable_checkout). */
  acceptCards: boolean;
  additionalInformation: string;
}

export function emptyDraft(): InvoiceDraft {
  return {
    customer: null,
    address: null,
    business: null,
    currency: "USD",
    lines: [],
    discount: { kind: "none" },
    terms: { preset: "30", interval: "day", frequency: "30" },
    purchaseOrderNumber: "",
    acceptCards: true,
    additionalInformation: "",
  };
}

/** The fields of a line the form shows errors beside. */
export type LineField = "name" | "amount" | "quantity" | "price";
export type LineProblems = Record<string, Partial<Record<LineField, string>>>;

function readQuantity(text: string): number | null {
  return /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : null;
}

/**
 * The items of the request, in the order of the lines, and what stops a line from being read
 * (a line with a problem is left out, so the preview still prices the others).
 */
export function itemBodies(draft: InvoiceDraft): { items: TransactionItemInput[]; problems: LineProblems } {
  const items: TransactionItemInput[] = [];
  const problems: LineProblems = {};
  for (const line of draft.lines) {
    const problem: Partial<Record<LineField, string>> = {};
    const quantity = readQuantity(line.quantity);
    if (quantity === null) problem.quantity = "Enter a whole number, such as 1.";
    if (line.kind === "catalogue") {
      if (quantity !== null) items.push({ price_id: line.price.id, quantity });
    } else {
      const name = line.name.trim();
      if (name === "") problem.name = "Enter what the item is.";
      const money = readMoney(line.amount, draft.currency);
      if (!money.ok) problem.amount = money.message;
      else if (money.value === null) problem.amount = "Enter the unit price.";
      if (Object.keys(problem).length === 0 && money.ok && money.value !== null && quantity !== null) {
        items.push({
          quantity,
          price: {
            description: name,
            name,
            tax_mode: line.taxMode,
            unit_price: { amount: money.value, currency_code: draft.currency as Price["unit_price"]["currency_code"] },
            product: { name, tax_category: "standard" },
          },
        } as TransactionItemInput);
      }
    }
    if (Object.keys(problem).length > 0) problems[line.key] = problem;
  }
  return { items, problems };
}

export type DiscountField = "amount" | "description" | "discount";

/** The discount part of a request, or the problem that stops the discount from being read. */
export function discountBody(
  draft: InvoiceDraft,
):
  | { ok: true; value: { discount_id?: string; discount?: NonCatalogueDiscountInput } }
  | { ok: false; field: DiscountField; message: string } {
  const d = draft.discount;
  if (d.kind === "none") return { ok: true, value: {} };
  if (d.kind === "catalogue") {
    if (!d.discount) return { ok: false, field: "discount", message: "Choose a discount, or choose No discount." };
    return { ok: true, value: { discount_id: d.discount.id } };
  }
  // Decision: a custom discount needs no description from the user; the API requires one, so the
  // amount in words stands in.
  let amount: string;
  if (d.type === "percentage") {
    amount = d.amount.trim().replace(",", ".");
    if (!/^\d+(\.\d+)?$/.test(amount)) {
      return { ok: false, field: "amount", message: "Enter a percentage from 0.01 to 100, such as 10." };
    }
  } else {
    const money = readMoney(d.amount, draft.currency);
    if (!money.ok) return { ok: false, field: "amount", message: money.message };
    if (money.value === null) return { ok: false, field: "amount", message: "Enter the amount to take off." };
    amount = money.value;
  }
  // The API's own rule for discount amounts (lib/schemas/discount.ts), so the step says it first.
  const problem = amountProblem(d.type, amount);
  if (problem) {
    const message = d.type === "percentage" ? "Enter a percentage from 0.01 to 100, such as 10." : `Amount ${problem}.`;
    return { ok: false, field: "amount", message };
  }
  const description =
    d.description.trim() ||
    (d.type === "percentage" ? `${amount}% discount` : `${d.amount.trim()} ${draft.currency} discount`);
  return { ok: true, value: { discount: { type: d.type, amount, description } } };
}

export function paymentTerms(draft: InvoiceDraft): { interval: Interval; frequency: number } | null {
  if (draft.terms.preset !== "custom") return { interval: "day", frequency: Number(draft.terms.preset) };
  const frequency = readQuantity(draft.terms.frequency);
  return frequency === null ? null : { interval: draft.terms.interval, frequency };
}

/** What the live totals preview sends, or null while there is no item to price. */
export function previewBody(draft: InvoiceDraft): PreviewTransactionInput | null {
  const { items } = itemBodies(draft);
  if (items.length === 0) return null;
  const discount = discountBody(draft);
  return {
    items,
    customer_id: draft.customer?.id ?? null,
    address_id: draft.customer ? (draft.address?.id ?? null) : null,
    business_id: draft.customer ? (draft.business?.id ?? null) : null,
    currency_code: draft.currency as PreviewTransactionInput["currency_code"],
    ...(discount.ok ? discount.value : {}),
  } as PreviewTransactionInput;
}

/** The manual (invoiced) transaction "Create draft invoice" sends. */
export function createBody(draft: InvoiceDraft): CreateTransactionInput {
  const { items } = itemBodies(draft);
  const discount = discountBody(draft);
  const terms = paymentTerms(draft);
  const billing: BillingDetailsInput = {
    // On by default: the hosted invoice page then offers "Pay by card" (the checkout of the invoice).
    enable_checkout: draft.acceptCards,
    purchase_order_number: draft.purchaseOrderNumber.trim() || null,
    additional_information: draft.additionalInformation.trim() || null,
    // An unreadable custom term is sent as typed so that the API names the field.
    payment_terms: terms ?? {
      interval: draft.terms.interval,
      frequency: Number(draft.terms.frequency) as number,
    },
  };
  return {
    items,
    collection_mode: "manual",
    customer_id: draft.customer?.id ?? null,
    address_id: draft.address?.id ?? null,
    business_id: draft.business?.id ?? null,
    currency_code: draft.currency as CreateTransactionInput["currency_code"],
    billing_details: billing,
    ...(discount.ok ? discount.value : {}),
  } as CreateTransactionInput;
}

/** The step where an API error about `field` (a request path) is shown. */
export function stepOfField(field: string): StepId {
  if (/^(customer_id|collection_mode)\b/.test(field)) return "customer";
  if (/^(address_id|business_id)\b/.test(field)) return "address";
  // The currency is chosen with the items (their amounts are in it).
  if (/^(items|currency_code)\b/.test(field)) return "items";
  if (/^(discount_id|discount)\b/.test(field)) return "discount";
  return "terms";
}

/** `items[2].price.unit_price.amount` → line 2's `amount`; null for a field not about one line. */
export function lineOfField(field: string): { index: number; field: LineField | null } | null {
  const match = /^items\[(\d+)\](?:\.(.*))?$/.exec(field);
  if (!match) return null;
  const rest = match[2] ?? "";
  const lineField: LineField | null = rest.startsWith("quantity")
    ? "quantity"
    : rest.startsWith("price.unit_price")
      ? "amount"
      : /^price\.(name|description|product)/.test(rest)
        ? "name"
        : rest.startsWith("price_id") || rest === ""
          ? "price"
          : null;
  return { index: Number(match[1]), field: lineField };
}

/** An API field error as a step's alert says it: "Line 2: must be …", "Payment terms frequency: …". */
export function fieldErrorText(field: string, message: string): string {
  const line = lineOfField(field);
  const where = line
    ? `Line ${line.index + 1}`
    : field
        .replace(/^billing_details\./, "")
        .replace(/\[\d+\]/g, "")
        .replace(/[._]/g, " ");
  return `${where.charAt(0).toUpperCase()}${where.slice(1)}: ${message}`;
}
