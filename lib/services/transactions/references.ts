/**
 * The entities a transaction (or a preview) names besides its prices: customer, address,
 * business and discount, each loaded and checked with the problems named by the request's field.
 *
 * Problems are collected rather than thrown one by one, so that one response names every bad
 * field of a request: unknown IDs and broken rules as 400 `invalid_field`, archived entities as
 * 400 `entity_archived` (with the same `errors` list naming the field), the former first.
 */
import type { DiscountLike } from "../../billing/totals.ts";
import { ADDRESS } from "../../db/entities/address.ts";
import { BUSINESS } from "../../db/entities/business.ts";
import { CUSTOMER } from "../../db/entities/customer.ts";
import { DISCOUNT } from "../../db/entities/discount.ts";
import { jsonObject, type Queryable, query } from "../../db/sql.ts";
import { Problems } from "../../errors.ts";

export { Problems };

export interface CustomerRef {
  id: string;
  name: string | null;
  /** The customer's API JSON: the transaction's snapshot (include=customer). */
  json: string;
}

export interface AddressRef {
  id: string;
  customerId: string;
  countryCode: string;
  postalCode: string | null;
  json: string;
}

export interface BusinessRef {
  id: string;
  customerId: string;
  json: string;
}

export interface DiscountRef extends DiscountLike {
  id: string;
  mode: string;
  json: string;
}

const ARCHIVED = "is archived: archived entities cannot be used in new transactions; set its status to active first";

export async function loadCustomer(
  id: string,
  field: string,
  problems: Problems,
  on: Queryable,
): Promise<CustomerRef | null> {
  const [row] = await query<{ name: string | null; status: string; j: string }>(
    `SELECT t.name, t.status, ${jsonObject(CUSTOMER)}::text AS j FROM customers t WHERE t.id = $1`,
    [id],
    on,
  );
  if (!row) {
    problems.field(field, `no customer has the ID ${id}`);
    return null;
  }
  if (row.status === "archived") problems.archivedField(field, `${id} ${ARCHIVED}`);
  return { id, name: row.name, json: row.j };
}

/**
 * The address `id`, which must be one of customer `customerId`'s (null: the request names no
 * customer, which an address needs).
 */
export async function loadAddress(
  id: string,
  customerId: string | null,
  field: string,
  problems: Problems,
  on: Queryable,
): Promise<AddressRef | null> {
  const [row] = await query<{
    customer_id: string;
    status: string;
    country_code: string;
    postal_code: string | null;
    j: string;
  }>(
    `SELECT t.customer_id, t.status, t.country_code, t.postal_code, ${jsonObject(ADDRESS)}::text AS j
       FROM addresses t WHERE t.id = $1`,
    [id],
    on,
  );
  if (!row) {
    problems.field(field, `no address has the ID ${id}`);
    return null;
  }
  if (customerId === null) {
    problems.field(field, "requires customer_id: an address belongs to a customer");
    return null;
  }
  if (row.customer_id !== customerId) {
    problems.field(field, `is an address of customer ${row.customer_id}, not of ${customerId}`);
    return null;
  }
  if (row.status === "archived") problems.archivedField(field, `${id} ${ARCHIVED}`);
  return { id, customerId, countryCode: row.country_code, postalCode: row.postal_code, json: row.j };
}

/** The business `id`, which must be one of customer `customerId`'s. */
export async function loadBusiness(
  id: string,
  customerId: string | null,
  field: string,
  problems: Problems,
  on: Queryable,
): Promise<BusinessRef | null> {
  const [row] = await query<{ customer_id: string; status: string; j: string }>(
    `SELECT t.customer_id, t.status, ${jsonObject(BUSINESS)}::text AS j FROM businesses t WHERE t.id = $1`,
    [id],
    on,
  );
  if (!row) {
    problems.field(field, `no business has the ID ${id}`);
    return null;
  }
  if (customerId === null) {
    problems.field(field, "requires customer_id: a business belongs to a customer");
    return null;
  }
  if (row.customer_id !== customerId) {
    problems.field(field, `is a business of customer ${row.customer_id}, not of ${customerId}`);
    return null;
  }
  if (row.status === "archived") problems.archivedField(field, `${id} ${ARCHIVED}`);
  return { id, customerId, json: row.j };
}

interface DiscountRow {
  status: string;
  type: DiscountLike["type"];
  mode: string;
  amount: string;
  currency_code: string | null;
  restrict_to: string[] | null;
  expired: boolean;
  used_up: boolean;
  j: string;
}

async function discountRow(id: string, on: Queryable): Promise<DiscountRow | undefined> {
  const [row] = await query<DiscountRow>(
    `SELECT t.status, t.type, t.mode, trim_scale(t.amount)::text AS amount, t.currency_code,
            CASE WHEN t.restricted THEN t.restrict_to END AS restrict_to,
            coalesce(t.expires_at <= now(), false) AS expired,
            coalesce(t.times_used >= t.usage_limit, false) AS used_up,
            ${jsonObject(DISCOUNT)}::text AS j
       FROM discounts t WHERE t.id = $1`,
    [id],
    on,
  );
  return row;
}

function discountRef(id: string, row: DiscountRow): DiscountRef {
  return {
    id,
    type: row.type,
    mode: row.mode,
    amount: row.amount,
    currency_code: row.currency_code,
    restrict_to: row.restrict_to,
    json: row.j,
  };
}

/**
 * A discount a request applies (`discount_id`): it must be active, not expired and not used up
 * (spec: Discount, redemption rules: expired discounts cannot be redeemed against transactions).
 * Whether its currency fits is checked once the transaction's currency is known
 * (`discountCurrencyProblem`).
 */
export async function loadDiscount(
  id: string,
  field: string,
  problems: Problems,
  on: Queryable,
): Promise<DiscountRef | null> {
  const row = await discountRow(id, on);
  if (!row) {
    problems.field(field, `no discount has the ID ${id}`);
    return null;
  }
  if (row.status === "archived") problems.archivedField(field, `${id} ${ARCHIVED}`);
  else if (row.expired) problems.field(field, `${id} has expired: expired discounts cannot be redeemed`);
  else if (row.used_up) problems.field(field, `${id} has reached its usage_limit and cannot be redeemed again`);
  return discountRef(id, row);
}

/**
 * The discount a stored transaction already has, as it is now, without the redemption checks (it
 * was checked when applied): for totals recomputed after another field changed.
 */
export async function storedDiscount(id: string, on: Queryable): Promise<DiscountRef | null> {
  const row = await discountRow(id, on);
  return row ? discountRef(id, row) : null;
}

/** A flat discount applies only to transactions in its currency. */
export function discountCurrencyProblem(discount: DiscountLike, currency: string): string | null {
  if (discount.type === "percentage" || discount.currency_code === currency) return null;
  return `is a ${discount.type} discount in ${discount.currency_code}, but the transaction is in ${currency}: a ${discount.type} discount applies only to transactions in its currency`;
}
