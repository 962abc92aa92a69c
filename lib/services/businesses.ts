import { BUSINESS } from "../db/entities/business.ts";
import { getJson, type JsonPage, jsonb, listJson, Params, type RawJson, updateJson } from "../db/sql.ts";
import { notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type {
  Business,
  BusinessContact,
  CreateBusinessInput,
  ListBusinessesQuery,
  UpdateBusinessInput,
} from "../schemas/business.ts";
import { customerExists, insertForCustomer, notFoundUnderCustomer } from "./customers.ts";

/**
 * Contacts are stored in the response shape, `{name, email}` with `name` "" when not given (a string
 * in the API family, which requires one; we take a contact without). (jsonb orders an object's keys
 * shorter first, so `name` stays before `email`.)
 */
function storedContacts(
  contacts: { name?: string | null; email: string }[] | undefined,
): BusinessContact[] | undefined {
  return contacts?.map((contact) => ({ name: contact.name ?? "", email: contact.email }));
}

/**
 * The business `id` of customer `customerId`. The customer must exist (a 404 names it). A business
 * row exists only for an existing customer (the foreign key), so the customer is checked only when
 * the business is not found.
 */
export async function getBusiness(customerId: string, id: string): Promise<RawJson<Business>> {
  const business = await getJson(BUSINESS, "t.id = $1 AND t.customer_id = $2", [id, customerId]);
  return business ?? notFoundUnderCustomer(customerId, id);
}

export async function createBusiness(customerId: string, input: CreateBusinessInput): Promise<RawJson<Business>> {
  return insertForCustomer(
    BUSINESS,
    customerId,
    {
      id: newId("biz"),
      name: input.name,
      company_number: input.company_number ?? null,
      tax_identifier: input.tax_identifier ?? null,
      contacts: jsonb(storedContacts(input.contacts ?? [])),
      custom_data: jsonb(input.custom_data ?? null),
    },
    "business.created",
  );
}

/** `contacts`, when sent, replaces the whole list. */
export async function updateBusiness(
  customerId: string,
  id: string,
  input: UpdateBusinessInput,
): Promise<RawJson<Business>> {
  const updated = await updateJson(
    BUSINESS,
    { sql: "t.id = $1 AND t.customer_id = $2", values: [id, customerId] },
    {
      name: input.name,
      company_number: input.company_number,
      tax_identifier: input.tax_identifier,
      contacts: jsonb(storedContacts(input.contacts)),
      status: input.status,
      custom_data: jsonb(input.custom_data),
    },
    "business.updated",
  );
  return updated ?? notFoundUnderCustomer(customerId, id);
}

/**
 * A customer's businesses, or (customerId null: GET /businesses, ours, the dashboard's search) the
 * businesses of every customer.
 */
export async function listBusinesses(customerId: string | null, query: ListBusinessesQuery): Promise<JsonPage> {
  const params = new Params();
  const filters = [
    // As in the API family: only active businesses unless `status` asks for others.
    params.oneOf("t.status", query.status ?? ["active"]),
  ];
  if (customerId !== null) filters.unshift(`t.customer_id = ${params.add(customerId)}`);
  if (query.id) filters.push(params.oneOf("t.id", query.id));
  if (query.search) {
    const term = query.search.trim();
    const like = params.add(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const columns = ["name", "company_number", "tax_identifier"];
    filters.push(`(t.id = ${params.add(term)} OR ${columns.map((c) => `t.${c} ILIKE ${like}`).join(" OR ")})`);
  }
  const page = await listJson(BUSINESS, {
    filters,
    params,
    orderBy: query.order_by,
    after: query.after,
    perPage: query.per_page,
  });
  // A page with businesses proves the customer exists; an empty one may be of an unknown customer.
  if (customerId !== null && page.lastId === null && !(await customerExists(customerId))) throw notFound(customerId);
  return page;
}
