import { CUSTOMER } from "../db/entities/customer.ts";
import {
  type Columns,
  type EntityTable,
  foreignKeyViolation,
  getJson,
  insertJson,
  type JsonPage,
  jsonb,
  listJson,
  Params,
  type Queryable,
  query,
  type RawJson,
  uniqueViolation,
  updateJson,
} from "../db/sql.ts";
import { ApiError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type { CreateCustomerInput, Customer, ListCustomersQuery, UpdateCustomerInput } from "../schemas/customer.ts";

export async function getCustomer(id: string): Promise<RawJson<Customer>> {
  const customer = await getJson(CUSTOMER, "t.id = $1", [id]);
  if (!customer) throw notFound(id);
  return customer;
}

export async function customerExists(id: string, on?: Queryable): Promise<boolean> {
  return (await query("SELECT 1 FROM customers WHERE id = $1", [id], on)).length > 0;
}

/**
 * Emails are unique among active customers, without regard to case: the partial unique index
 * `customers_active_email_key` enforces it, also under concurrency. When a write hits it, the
 * error names the customer that holds the email, as the API family does (`customer_already_exists`:
 * more than the central mapping's 409 `conflict` on `email`, lib/errors.ts fromDatabaseError).
 */
async function emailConflict(error: unknown, email: string | undefined): Promise<never> {
  if (uniqueViolation(error) === "customers_active_email_key" && email !== undefined) {
    const [holder] = await query<{ id: string }>(
      "SELECT id FROM customers WHERE lower(email) = lower($1) AND status = 'active'",
      [email],
    );
    if (holder)
      throw new ApiError("customer_already_exists", `customer email conflicts with customer of id ${holder.id}`);
  }
  throw error;
}

/** `on`: a database transaction to write in (the client-side library's checkout writes three things at once). */
export async function createCustomer(input: CreateCustomerInput, on?: Queryable): Promise<RawJson<Customer>> {
  try {
    return await insertJson(
      CUSTOMER,
      {
        id: newId("ctm"),
        email: input.email,
        name: input.name ?? null,
        custom_data: jsonb(input.custom_data ?? null),
        locale: input.locale ?? "en",
      },
      "customer.created",
      on,
    );
  } catch (error) {
    return emailConflict(error, input.email);
  }
}

export async function updateCustomer(id: string, input: UpdateCustomerInput): Promise<RawJson<Customer>> {
  let updated: RawJson<Customer> | null;
  try {
    updated = await updateJson(
      CUSTOMER,
      { sql: "t.id = $1", values: [id] },
      {
        email: input.email,
        name: input.name,
        locale: input.locale,
        status: input.status,
        custom_data: jsonb(input.custom_data),
      },
      "customer.updated",
    );
  } catch (error) {
    // The email in conflict is the new one, or (on unarchiving) the customer's current one.
    const [current] = await query<{ email: string }>("SELECT email FROM customers WHERE id = $1", [id]);
    return emailConflict(error, input.email ?? current?.email);
  }
  if (!updated) throw notFound(id);
  return updated;
}

export function listCustomers(query: ListCustomersQuery): Promise<JsonPage> {
  const params = new Params();
  // As in the API family: only active customers unless `status` asks for others.
  const filters = [params.oneOf("t.status", query.status ?? ["active"])];
  if (query.id) filters.push(params.oneOf("t.id", query.id));
  if (query.email)
    filters.push(
      params.oneOf(
        "lower(t.email)",
        query.email.map((e) => e.toLowerCase()),
      ),
    );
  if (query.search) {
    const term = query.search.trim();
    const like = params.add(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    filters.push(`(t.id = ${params.add(term)} OR t.email ILIKE ${like} OR t.name ILIKE ${like})`);
  }
  return listJson(CUSTOMER, { filters, params, orderBy: query.order_by, after: query.after, perPage: query.per_page });
}

/**
 * The 404 for an entity `id` under customer `customerId` (an address, a business) that was not
 * found: it names the customer when the customer does not exist, else the entity. An entity of
 * another customer is not found, exactly like an unknown one, so IDs do not leak across customers.
 * Such rows exist only for existing customers (a foreign key), so the customer is looked up only
 * after the entity was not found.
 */
export async function notFoundUnderCustomer(customerId: string, id: string): Promise<never> {
  throw notFound((await customerExists(customerId)) ? id : customerId);
}

/** Inserts an entity that belongs to a customer, with its event: 404 naming a customer that does not exist. */
export async function insertForCustomer<T>(
  entity: EntityTable<T>,
  customerId: string,
  columns: Columns,
  eventType: string,
  on?: Queryable,
): Promise<RawJson<T>> {
  if (!(await customerExists(customerId, on))) throw notFound(customerId);
  try {
    return await insertJson(entity, { ...columns, customer_id: customerId }, eventType, on);
  } catch (error) {
    // Customers are never deleted (the foreign key restricts it); this only covers a race. The
    // customer is in the path, so 404 rather than the central mapping's invalid_field on customer_id.
    if (foreignKeyViolation(error)) throw notFound(customerId);
    throw error;
  }
}
