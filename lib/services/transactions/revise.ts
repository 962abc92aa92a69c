/**
 * POST /transactions/{transaction_id}/revise: corrects the customer information of a billed,
 * completed or past-due transaction (what its invoice shows), as the API family does.
 *
 * A revision changes the snapshots the transaction keeps of its customer, address and business
 * (`include=customer,address,business` and invoice documents show them), never the customer,
 * address and business entities themselves, and never the totals: the country and postal code,
 * which decide the tax, cannot be revised. A valid tax identifier can be replaced but not removed.
 * A transaction is revised at most once (`revised_at` is set; a second revision is 400
 * `transaction_revised_limit_reached`). Past-due transactions can be revised too: they are issued
 * invoices whose payment is late, like billed ones (the family names billed and completed).
 * Emits `transaction.revised`.
 */
import { ADDRESS } from "../../db/entities/address.ts";
import { BUSINESS } from "../../db/entities/business.ts";
import { CUSTOMER } from "../../db/entities/customer.ts";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import {
  query,
  queryExactlyOne,
  type RawJson,
  relatedJson,
  sqlTransaction,
  storableJson,
  updateJson,
} from "../../db/sql.ts";
import { ApiError, type FieldError, invalidFields, notFound } from "../../errors.ts";
import type { ReviseTransactionInput } from "../../schemas/adjustment.ts";
import type { Transaction, TransactionInclude } from "../../schemas/transaction.ts";
import { withIncludes } from "./get.ts";

/** Statuses whose customer information can be revised. */
export const REVISABLE_STATUSES: ReadonlySet<string> = new Set(["billed", "completed", "past_due"]);

type Snapshot = Record<string, unknown>;

interface Locked {
  status: string;
  revised_at: string | null;
  customer: Snapshot | null;
  address: Snapshot | null;
  business: Snapshot | null;
}

/** Copies the fields `changes` sends over `snapshot` (undefined: unchanged). */
function revised(snapshot: Snapshot, changes: Record<string, unknown>): Snapshot {
  const out = { ...snapshot };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) out[key] = value;
  return out;
}

export async function reviseTransaction(
  id: string,
  input: ReviseTransactionInput,
  include?: readonly TransactionInclude[],
): Promise<RawJson<Transaction>> {
  return sqlTransaction(async (client) => {
    // The snapshots, or the live entities for rows written without one.
    const [row] = await query<Locked>(
      `SELECT t.status, t.revised_at::text AS revised_at,
              coalesce(t.customer_snapshot, ${relatedJson(CUSTOMER, "t.id = parent.customer_id", false)}) AS customer,
              coalesce(t.address_snapshot, ${relatedJson(ADDRESS, "t.id = parent.address_id", false)}) AS address,
              coalesce(t.business_snapshot, ${relatedJson(BUSINESS, "t.id = parent.business_id", false)}) AS business
         FROM transactions t WHERE t.id = $1 FOR UPDATE OF t`,
      [id],
      client,
    );
    if (!row) throw notFound(id);
    if (!REVISABLE_STATUSES.has(row.status)) {
      throw new ApiError(
        "transaction_invalid_status_to_revise",
        `You can't revise a transaction that's not billed, completed or past due: ${id} is ${row.status}${
          row.status === "draft" || row.status === "ready" ? " (edit it with PATCH /transactions/{transaction_id})" : ""
        }.`,
      );
    }
    if (row.revised_at !== null) {
      throw new ApiError(
        "transaction_revised_limit_reached",
        `You can't revise an already revised transaction: ${id} was revised at ${row.revised_at}.`,
      );
    }

    const problems: FieldError[] = [];
    const missing = (field: string, what: string) =>
      problems.push({ field, message: `cannot be revised: transaction ${id} has no ${what}` });
    if (input.customer && !row.customer) missing("customer", "customer");
    if (input.address && !row.address) missing("address", "address");
    if (input.business && !row.business) missing("business", "business (it was billed to a person)");
    const taxId = input.business?.tax_identifier;
    if (row.business?.tax_identifier && (taxId === null || taxId?.trim() === "")) {
      problems.push({
        field: "business.tax_identifier",
        message: "cannot be removed, only replaced with another tax or VAT number",
      });
    }
    if (problems.length) throw invalidFields(problems);

    const { now } = await queryExactlyOne<{ now: string }>("SELECT now()::text AS now", [], client);
    const snapshot = (current: Snapshot | null, changes: Record<string, unknown> | undefined) =>
      changes && current ? storableJson(revised(current, changes)) : undefined;
    const written = await updateJson(
      TRANSACTION,
      { sql: "t.id = $1", values: [id] },
      {
        revised_at: now,
        customer_snapshot: snapshot(row.customer, input.customer),
        address_snapshot: snapshot(row.address, input.address),
        business_snapshot: snapshot(row.business, input.business),
      },
      "transaction.revised",
      client,
    );
    if (!written) throw notFound(id);
    return withIncludes(written, id, include, client);
  });
}
