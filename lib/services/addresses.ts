import { ADDRESS } from "../db/entities/address.ts";
import {
  getJson,
  type JsonPage,
  jsonb,
  listJson,
  Params,
  type Queryable,
  query,
  type RawJson,
  sqlTransaction,
  updateJson,
} from "../db/sql.ts";
import { invalidField, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import {
  type Address,
  type CreateAddressInput,
  type ListAddressesQuery,
  postalCodeProblem,
  type UpdateAddressInput,
} from "../schemas/address.ts";
import { customerExists, insertForCustomer, notFoundUnderCustomer } from "./customers.ts";

/**
 * The address `id` of customer `customerId`. The customer must exist (a 404 names it). An address
 * row exists only for an existing customer (the foreign key), so the customer is checked only when
 * the address is not found.
 */
export async function getAddress(customerId: string, id: string): Promise<RawJson<Address>> {
  const address = await getJson(ADDRESS, "t.id = $1 AND t.customer_id = $2", [id, customerId]);
  return address ?? notFoundUnderCustomer(customerId, id);
}

export async function createAddress(
  customerId: string,
  input: CreateAddressInput,
  on?: Queryable,
): Promise<RawJson<Address>> {
  return insertForCustomer(
    ADDRESS,
    customerId,
    {
      id: newId("add"),
      description: input.description ?? null,
      first_line: input.first_line ?? null,
      second_line: input.second_line ?? null,
      city: input.city ?? null,
      postal_code: input.postal_code ?? null,
      region: input.region ?? null,
      country_code: input.country_code,
      custom_data: jsonb(input.custom_data ?? null),
    },
    "address.created",
    on,
  );
}

export async function updateAddress(
  customerId: string,
  id: string,
  input: UpdateAddressInput,
): Promise<RawJson<Address>> {
  const where = { sql: "t.id = $1 AND t.customer_id = $2", values: [id, customerId] };
  const columns = {
    description: input.description,
    first_line: input.first_line,
    second_line: input.second_line,
    city: input.city,
    postal_code: input.postal_code,
    region: input.region,
    country_code: input.country_code,
    status: input.status,
    custom_data: jsonb(input.custom_data),
  };
  let updated: RawJson<Address> | null;
  if (input.country_code === undefined && input.postal_code === undefined) {
    updated = await updateJson(ADDRESS, where, columns, "address.updated");
  } else {
    // The postal-code rule holds for the address as it will be, so it needs the stored address,
    // locked until the update commits. It is checked only when the request changes the country or
    // the postal code, so that an address stored before the rule (imported) can still be archived
    // or have its other fields edited.
    updated = await sqlTransaction(async (client) => {
      const [current] = await query<{ country_code: string; postal_code: string | null }>(
        "SELECT t.country_code, t.postal_code FROM addresses t WHERE t.id = $1 AND t.customer_id = $2 FOR UPDATE",
        [id, customerId],
        client,
      );
      if (!current) return null;
      const country = input.country_code ?? current.country_code;
      const postalCode = input.postal_code !== undefined ? input.postal_code : current.postal_code;
      const problem = postalCodeProblem(country, postalCode);
      if (problem) throw invalidField("postal_code", problem);
      return updateJson(ADDRESS, where, columns, "address.updated", client);
    });
  }
  return updated ?? notFoundUnderCustomer(customerId, id);
}

export async function listAddresses(customerId: string, query: ListAddressesQuery): Promise<JsonPage> {
  const params = new Params();
  const filters = [
    `t.customer_id = ${params.add(customerId)}`,
    // As in the API family: only active addresses unless `status` asks for others.
    params.oneOf("t.status", query.status ?? ["active"]),
  ];
  if (query.id) filters.push(params.oneOf("t.id", query.id));
  if (query.search) {
    const term = query.search.trim();
    const like = params.add(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const columns = ["description", "first_line", "second_line", "city", "region", "postal_code"];
    filters.push(`(t.id = ${params.add(term)} OR ${columns.map((c) => `t.${c} ILIKE ${like}`).join(" OR ")})`);
  }
  const page = await listJson(ADDRESS, {
    filters,
    params,
    orderBy: query.order_by,
    after: query.after,
    perPage: query.per_page,
  });
  // A page with addresses proves the customer exists; an empty one may be of an unknown customer.
  if (page.lastId === null && !(await customerExists(customerId))) throw notFound(customerId);
  return page;
}
