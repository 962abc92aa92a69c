import { db, json, type Tx, transaction } from "../db.ts";
import { emit } from "../events/outbox.ts";
import { rfc3339 } from "../format.ts";
import type { Address as AddressRow } from "../generated/prisma/client.ts";
import { invalidField, notFound } from "../http/errors.ts";
import type { Page } from "../http/pagination.ts";
import { newId } from "../ids.ts";
import {
  type Address,
  type CreateAddressInput,
  type ListAddressesQuery,
  postalCodeProblem,
  type UpdateAddressInput,
} from "../schemas/address.ts";
import { getCustomer } from "./customers.ts";
import { paginate } from "./pagination.ts";

export function serializeAddress(row: AddressRow): Address {
  return {
    id: row.id,
    customer_id: row.customerId,
    description: row.description,
    first_line: row.firstLine,
    second_line: row.secondLine,
    city: row.city,
    postal_code: row.postalCode,
    region: row.region,
    country_code: row.countryCode,
    custom_data: (row.customData as Address["custom_data"]) ?? null,
    status: row.status as Address["status"],
    created_at: rfc3339(row.createdAt),
    updated_at: rfc3339(row.updatedAt),
    import_meta: (row.importMeta as Address["import_meta"]) ?? null,
  };
}

/**
 * The address `id` of customer `customerId`. The customer must exist (a 404 names it); an address
 * of another customer is not found, exactly like an unknown one, so IDs do not leak across customers.
 */
export async function getAddress(customerId: string, id: string): Promise<AddressRow> {
  await getCustomer(customerId);
  const row = await db().address.findFirst({ where: { id, customerId } });
  if (!row) throw notFound(id);
  return row;
}

/** Locks the address's row for the rest of the transaction (the update checks it against the request). */
async function lockAddress(tx: Tx, customerId: string, id: string): Promise<AddressRow> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM addresses WHERE id = ${id} AND customer_id = ${customerId} FOR UPDATE`;
  if (rows.length === 0) throw notFound(id);
  return tx.address.findUniqueOrThrow({ where: { id } });
}

// Customers are never deleted (the foreign key restricts it), so checking that the customer exists
// before the transaction is as good as inside it.
export async function createAddress(customerId: string, input: CreateAddressInput): Promise<Address> {
  await getCustomer(customerId);
  return transaction(async (tx) => {
    const row = await tx.address.create({
      data: {
        id: newId("add"),
        customerId,
        description: input.description ?? null,
        firstLine: input.first_line ?? null,
        secondLine: input.second_line ?? null,
        city: input.city ?? null,
        postalCode: input.postal_code ?? null,
        region: input.region ?? null,
        countryCode: input.country_code,
        customData: json(input.custom_data),
      },
    });
    const address = serializeAddress(row);
    await emit(tx, "address.created", address);
    return address;
  });
}

export async function updateAddress(customerId: string, id: string, input: UpdateAddressInput): Promise<Address> {
  await getCustomer(customerId);
  return transaction(async (tx) => {
    const current = await lockAddress(tx, customerId, id);
    // The postal-code rule holds for the address as it will be. It is checked when the request
    // changes the country or the postal code, so that an address stored before the rule (imported)
    // can still be archived or have its other fields edited.
    if (input.country_code !== undefined || input.postal_code !== undefined) {
      const country = input.country_code ?? current.countryCode;
      const postalCode = input.postal_code !== undefined ? input.postal_code : current.postalCode;
      const problem = postalCodeProblem(country, postalCode);
      if (problem) throw invalidField("postal_code", problem);
    }
    const row = await tx.address.update({
      where: { id },
      data: {
        description: input.description,
        firstLine: input.first_line,
        secondLine: input.second_line,
        city: input.city,
        postalCode: input.postal_code,
        region: input.region,
        countryCode: input.country_code,
        status: input.status,
        customData: json(input.custom_data),
      },
    });
    const address = serializeAddress(row);
    await emit(tx, "address.updated", address);
    return address;
  });
}

export async function listAddresses(customerId: string, query: ListAddressesQuery): Promise<Page<AddressRow>> {
  await getCustomer(customerId);
  const where: Record<string, unknown> = {
    customerId,
    // As in the API family: only active addresses unless `status` asks for others.
    status: { in: query.status ?? ["active"] },
  };
  if (query.id) where.id = { in: query.id };
  if (query.search) {
    const term = query.search.trim();
    const contains = { contains: term, mode: "insensitive" };
    where.AND = [
      {
        OR: [
          { id: term },
          { description: contains },
          { firstLine: contains },
          { secondLine: contains },
          { city: contains },
          { region: contains },
          { postalCode: contains },
        ],
      },
    ];
  }
  return paginate(db().address as never, {
    table: "addresses",
    where,
    after: query.after,
    perPage: query.per_page,
    orderBy: query.order_by,
  });
}
