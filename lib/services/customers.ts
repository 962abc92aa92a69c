import type { Customer as CustomerRow } from "../generated/prisma/client.ts";
import { db, json, type Tx, transaction } from "../db.ts";
import { emit } from "../events/outbox.ts";
import { rfc3339 } from "../format.ts";
import { ApiError, notFound } from "../http/errors.ts";
import type { Page } from "../http/pagination.ts";
import { newId } from "../ids.ts";
import type { CreateCustomerInput, Customer, ListCustomersQuery, UpdateCustomerInput } from "../schemas/customer.ts";
import { paginate } from "./pagination.ts";

export function serializeCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    marketing_consent: row.marketingConsent,
    status: row.status as Customer["status"],
    custom_data: (row.customData as Customer["custom_data"]) ?? null,
    locale: row.locale,
    created_at: rfc3339(row.createdAt),
    updated_at: rfc3339(row.updatedAt),
    import_meta: (row.importMeta as Customer["import_meta"]) ?? null,
  };
}

export async function getCustomer(id: string): Promise<CustomerRow> {
  const row = await db().customer.findUnique({ where: { id } });
  if (!row) throw notFound(id);
  return row;
}

/** Locks the customer's row for the rest of the transaction (changes that depend on it). */
export async function lockCustomer(tx: Tx, id: string): Promise<CustomerRow> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM customers WHERE id = ${id} FOR UPDATE`;
  if (rows.length === 0) throw notFound(id);
  return tx.customer.findUniqueOrThrow({ where: { id } });
}

/**
 * Emails are unique among active customers, without regard to case. The partial unique index
 * `customers_active_email_key` makes that hold under concurrency; this check names the holder.
 */
async function assertEmailFree(tx: Tx, email: string, exceptId?: string): Promise<void> {
  const holder = await tx.customer.findFirst({
    where: { email: { equals: email, mode: "insensitive" }, status: "active", ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (holder) throw emailConflict(holder.id);
}

function emailConflict(id: string): ApiError {
  return new ApiError("customer_already_exists", `customer email conflicts with customer of id ${id}`);
}

/** A race lost to the unique index: find who won and report it like the check above. */
async function rethrowEmailRace(error: unknown, email: string): Promise<never> {
  if ((error as { code?: string })?.code === "P2002" || String(error).includes("customers_active_email_key")) {
    const holder = await db().customer.findFirst({
      where: { email: { equals: email, mode: "insensitive" }, status: "active" },
      select: { id: true },
    });
    if (holder) throw emailConflict(holder.id);
  }
  throw error;
}

export async function createCustomer(input: CreateCustomerInput): Promise<Customer> {
  try {
    return await transaction(async (tx) => {
      await assertEmailFree(tx, input.email);
      const row = await tx.customer.create({
        data: {
          id: newId("ctm"),
          email: input.email,
          name: input.name ?? null,
          customData: json(input.custom_data),
          locale: input.locale ?? "en",
        },
      });
      const customer = serializeCustomer(row);
      await emit(tx, "customer.created", customer);
      return customer;
    });
  } catch (error) {
    return rethrowEmailRace(error, input.email);
  }
}

export async function updateCustomer(id: string, input: UpdateCustomerInput): Promise<Customer> {
  try {
    return await transaction(async (tx) => {
      const current = await lockCustomer(tx, id);
      const willBeActive = (input.status ?? current.status) === "active";
      const emailChanged = input.email !== undefined && input.email.toLowerCase() !== current.email.toLowerCase();
      if (willBeActive && (emailChanged || current.status !== "active")) {
        await assertEmailFree(tx, input.email ?? current.email, id);
      }
      const row = await tx.customer.update({
        where: { id },
        data: {
          email: input.email,
          name: input.name,
          locale: input.locale,
          status: input.status,
          customData: json(input.custom_data),
        },
      });
      const customer = serializeCustomer(row);
      await emit(tx, "customer.updated", customer);
      return customer;
    });
  } catch (error) {
    return rethrowEmailRace(error, input.email ?? "");
  }
}

export function listCustomers(query: ListCustomersQuery): Promise<Page<CustomerRow>> {
  const where: Record<string, unknown> = {
    // As in the API family: only active customers unless `status` asks for others.
    status: { in: query.status ?? ["active"] },
  };
  if (query.id) where.id = { in: query.id };
  if (query.email) where.OR = query.email.map((e) => ({ email: { equals: e, mode: "insensitive" } }));
  if (query.search) {
    const term = query.search.trim();
    where.AND = [
      {
        OR: [
          { id: term },
          { email: { contains: term, mode: "insensitive" } },
          { name: { contains: term, mode: "insensitive" } },
        ],
      },
    ];
  }
  return paginate(db().customer as never, {
    table: "customers",
    where,
    after: query.after,
    perPage: query.per_page,
    orderBy: query.order_by,
  });
}

