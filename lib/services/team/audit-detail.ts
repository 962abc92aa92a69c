/**
 * What an audit entry keeps of the change it records, so that the dashboard can say it in business
 * words ("Issued invoice INV-000001 ($617.85) to Becker Design") long after the entities changed:
 * a small whitelist of the request's body and of the answer (never whole bodies: no card data,
 * custom data or secrets), flat, strings only. `recordAudit` adds, in its INSERT, the names of the
 * customer and business the change concerns and the invoice number of a refund's transaction, as
 * they are then. Pure: tested with plain values.
 */

/** The detail of an audit entry (all optional; a field the answer does not have is left out). */
export interface AuditDetail {
  /** The top-level fields the request body set (what a PATCH changed), at most MAX_FIELDS. */
  fields?: string[];
  /** A status the request asked for (`PATCH /transactions/…` `{status: "billed"}` issues the invoice). */
  requested_status?: string;
  /** What the entity's answer says after the change. */
  status?: string;
  invoice_number?: string;
  name?: string;
  email?: string;
  role?: string;
  code?: string;
  description?: string;
  type?: string;
  /** An adjustment's action: refund, credit, chargeback... */
  action?: string;
  /** Minor units of `currency_code`: a transaction's grand total, an adjustment's total, a price's unit price. */
  amount?: string;
  currency_code?: string;
  customer_id?: string;
  business_id?: string;
  transaction_id?: string;
  product_id?: string;
  /** A subscription's scheduled change (cancel or pause at the period's end). */
  scheduled_change?: string;
  /** Filled in by recordAudit's INSERT from the IDs above. */
  customer_name?: string;
  business_name?: string;
}

const MAX_FIELDS = 20;
const MAX_TEXT = 200;

const ID = /^[a-z]+_[a-z0-9]{26}$/;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.slice(0, MAX_TEXT) : undefined;
}

function id(value: unknown): string | undefined {
  return typeof value === "string" && ID.test(value) ? value : undefined;
}

function amount(value: unknown): string | undefined {
  return typeof value === "string" && /^-?\d{1,30}$/.test(value) ? value : undefined;
}

type Json = Record<string, any>;

function object(value: unknown): Json | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
}

/**
 * The detail of a request to `pathname` with the parsed `body` (anything) and the answer's `data`
 * JSON text (or nothing); null when there is nothing to keep.
 */
export function auditDetail(pathname: string, body: unknown, answer: string | undefined): AuditDetail | null {
  const detail: AuditDetail = {};
  const request = object(body);
  if (request) {
    const fields = Object.keys(request).slice(0, MAX_FIELDS);
    if (fields.length > 0) detail.fields = fields;
    const status = text(request.status);
    if (status) detail.requested_status = status;
  }
  let data: Json | null = null;
  if (answer) {
    try {
      data = object(JSON.parse(answer));
    } catch {
      data = null;
    }
  }
  if (data) {
    const prefix = typeof data.id === "string" ? data.id.split("_")[0] : pathname.split("/").at(-1);
    detail.status = text(data.status);
    detail.invoice_number = text(data.invoice_number);
    detail.name = text(data.name);
    detail.email = text(data.email);
    detail.role = text(data.role);
    detail.code = text(data.code);
    detail.description = text(data.description);
    detail.type = text(data.type);
    detail.customer_id = id(data.customer_id);
    detail.business_id = id(data.business_id);
    detail.transaction_id = id(data.transaction_id);
    detail.product_id = id(data.product_id);
    detail.currency_code = text(data.currency_code);
    detail.scheduled_change = text(object(data.scheduled_change)?.action);
    if (prefix === "txn") detail.amount = amount(object(object(data.details)?.totals)?.grand_total);
    if (prefix === "adj") {
      detail.action = text(data.action);
      detail.amount = amount(object(data.totals)?.total);
    }
    if (prefix === "pri") {
      const unit = object(data.unit_price);
      detail.amount = amount(unit?.amount);
      detail.currency_code = text(unit?.currency_code);
    }
    // A discount's amount: minor units for flat types, a percentage ("12.5") for percentage ones.
    if (prefix === "dsc" && typeof data.amount === "string" && /^\d{1,30}(\.\d{1,10})?$/.test(data.amount)) {
      detail.amount = data.amount;
    }
  }
  // A change under a customer (…/customers/ctm_…/addresses, a removed payment method) concerns it.
  detail.customer_id ??= id(/\/customers\/([a-z]+_[a-z0-9]{26})/.exec(pathname)?.[1]);
  for (const key of Object.keys(detail) as (keyof AuditDetail)[]) if (detail[key] === undefined) delete detail[key];
  return Object.keys(detail).length > 0 ? detail : null;
}
