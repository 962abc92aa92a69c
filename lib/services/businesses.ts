import { db, json, type Tx, transaction } from "../db.ts";
import { emit } from "../events/outbox.ts";
import { rfc3339 } from "../format.ts";
import type { Business as BusinessRow, Prisma } from "../generated/prisma/client.ts";
import { notFound } from "../http/errors.ts";
import type { Page } from "../http/pagination.ts";
import { newId } from "../ids.ts";
import type {
  Business,
  BusinessContact,
  CreateBusinessInput,
  ListBusinessesQuery,
  UpdateBusinessInput,
} from "../schemas/business.ts";
import { getCustomer } from "./customers.ts";
import { paginate } from "./pagination.ts";

/** A contact as stored in the `contacts` JSON column (imported rows may lack a name). */
interface StoredContact {
  name?: string | null;
  email: string;
}

function serializeContacts(value: unknown): BusinessContact[] {
  if (!Array.isArray(value)) return [];
  return (value as StoredContact[]).map((contact) => ({ name: contact.name ?? null, email: contact.email }));
}

/** Contacts are stored in the response shape: `name` is null when not given. */
function storedContacts(contacts: StoredContact[] | undefined): Prisma.InputJsonValue | undefined {
  if (contacts === undefined) return undefined;
  return contacts.map((contact) => ({ name: contact.name ?? null, email: contact.email }));
}

export function serializeBusiness(row: BusinessRow): Business {
  return {
    id: row.id,
    customer_id: row.customerId,
    name: row.name,
    company_number: row.companyNumber,
    tax_identifier: row.taxIdentifier,
    status: row.status as Business["status"],
    contacts: serializeContacts(row.contacts),
    created_at: rfc3339(row.createdAt),
    updated_at: rfc3339(row.updatedAt),
    custom_data: (row.customData as Business["custom_data"]) ?? null,
    import_meta: (row.importMeta as Business["import_meta"]) ?? null,
  };
}

/**
 * The business `id` of customer `customerId`. The customer must exist (a 404 names it); a business
 * of another customer is not found, exactly like an unknown one.
 */
export async function getBusiness(customerId: string, id: string): Promise<BusinessRow> {
  await getCustomer(customerId);
  const row = await db().business.findFirst({ where: { id, customerId } });
  if (!row) throw notFound(id);
  return row;
}

/** Locks the business's row for the rest of the transaction. */
async function lockBusiness(tx: Tx, customerId: string, id: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM businesses WHERE id = ${id} AND customer_id = ${customerId} FOR UPDATE`;
  if (rows.length === 0) throw notFound(id);
}

// Customers are never deleted (the foreign key restricts it), so checking that the customer exists
// before the transaction is as good as inside it.
export async function createBusiness(customerId: string, input: CreateBusinessInput): Promise<Business> {
  await getCustomer(customerId);
  return transaction(async (tx) => {
    const row = await tx.business.create({
      data: {
        id: newId("biz"),
        customerId,
        name: input.name,
        companyNumber: input.company_number ?? null,
        taxIdentifier: input.tax_identifier ?? null,
        contacts: storedContacts(input.contacts ?? []),
        customData: json(input.custom_data),
      },
    });
    const business = serializeBusiness(row);
    await emit(tx, "business.created", business);
    return business;
  });
}

/** `contacts`, when sent, replaces the whole list. */
export async function updateBusiness(customerId: string, id: string, input: UpdateBusinessInput): Promise<Business> {
  await getCustomer(customerId);
  return transaction(async (tx) => {
    await lockBusiness(tx, customerId, id);
    const row = await tx.business.update({
      where: { id },
      data: {
        name: input.name,
        companyNumber: input.company_number,
        taxIdentifier: input.tax_identifier,
        contacts: storedContacts(input.contacts),
        status: input.status,
        customData: json(input.custom_data),
      },
    });
    const business = serializeBusiness(row);
    await emit(tx, "business.updated", business);
    return business;
  });
}

export async function listBusinesses(customerId: string, query: ListBusinessesQuery): Promise<Page<BusinessRow>> {
  await getCustomer(customerId);
  const where: Record<string, unknown> = {
    customerId,
    // As in the API family: only active businesses unless `status` asks for others.
    status: { in: query.status ?? ["active"] },
  };
  if (query.id) where.id = { in: query.id };
  if (query.search) {
    const term = query.search.trim();
    const contains = { contains: term, mode: "insensitive" };
    where.AND = [
      {
        OR: [{ id: term }, { name: contains }, { companyNumber: contains }, { taxIdentifier: contains }],
      },
    ];
  }
  return paginate(db().business as never, {
    table: "businesses",
    where,
    after: query.after,
    perPage: query.per_page,
    orderBy: query.order_by,
  });
}
