import { randomInt } from "node:crypto";
import type pg from "pg";
import { DISCOUNT, DISCOUNT_STATUS_SQL, discountEntity } from "../db/entities/discount.ts";
import {
  insertJson,
  type JsonPage,
  jsonb,
  jsonObject,
  listJson,
  Params,
  type Queryable,
  query,
  RawJson,
  sqlTransaction,
  uniqueViolation,
  updateJson,
} from "../db/sql.ts";
import { ApiError, type FieldError, invalidFields, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import {
  type CreateDiscountInput,
  DISCOUNT_DEFAULTS,
  type Discount,
  type DiscountType,
  discountRuleProblems,
  type ListDiscountsQuery,
  storedCurrencyCode,
  type UpdateDiscountInput,
} from "../schemas/discount.ts";
import { assertChangeable } from "./archived.ts";

/** A discount as an answer carries it, with its current revision (for the Service-Revision-Id header). */
export interface DiscountWithRevision {
  discount: RawJson<Discount>;
  revisionId: string;
}

export async function getDiscount(id: string, include?: readonly string[]): Promise<DiscountWithRevision> {
  const [row] = await query<{ j: string; revision_id: string }>(
    `SELECT ${jsonObject(discountEntity(include))}::text AS j, t.revision_id FROM discounts t WHERE t.id = $1`,
    [id],
  );
  if (!row) throw notFound(id);
  return { discount: new RawJson(row.j), revisionId: row.revision_id };
}

/** `[]` restricts to nothing a customer could buy, so it is read as null: every product and price. */
function restriction(ids: string[] | null | undefined): string[] | null | undefined {
  return ids?.length === 0 ? null : ids;
}

/**
 * Problems with the IDs a body names: each `restrict_to` entry must be an existing product or
 * price, `discount_group_id` an existing discount group. Archived ones are accepted: they exist,
 * and restricting to (or grouping under) them is harmless and undone by unarchiving.
 */
async function referenceProblems(
  restrictTo: string[] | null | undefined,
  discountGroupId: string | null | undefined,
  on?: Queryable,
): Promise<FieldError[]> {
  const problems: FieldError[] = [];
  if (restrictTo && restrictTo.length > 0) {
    const rows = await query<{ id: string }>(
      "SELECT id FROM products WHERE id = ANY($1) UNION ALL SELECT id FROM prices WHERE id = ANY($1)",
      [restrictTo],
      on,
    );
    const found = new Set(rows.map((row) => row.id));
    restrictTo.forEach((id, i) => {
      if (!found.has(id)) {
        const what = id.startsWith("pro_") ? "product" : "price";
        problems.push({ field: `restrict_to[${i}]`, message: `no ${what} has the ID ${id}` });
      }
    });
  }
  if (discountGroupId) {
    const rows = await query("SELECT 1 FROM discount_groups WHERE id = $1", [discountGroupId], on);
    if (rows.length === 0) {
      problems.push({ field: "discount_group_id", message: `no discount group has the ID ${discountGroupId}` });
    }
  }
  return problems;
}

const CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const GENERATED_CODE_LENGTH = 10;
/** Attempts at a generated code before giving up (36^10 codes: a clash is already unlikely). */
const GENERATED_CODE_ATTEMPTS = 5;

/**
 * As in the API family: a discount enabled for checkout without a code gets a random code of 10
 * letters and digits (at creation, and when a change would leave it enabled without one).
 */
function generatedCode(): string {
  let code = "";
  for (let i = 0; i < GENERATED_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/**
 * Codes are unique without regard to case: the unique index `discounts_code_key` on lower(code)
 * enforces it, also under concurrency. A write that hits it gets 409 `conflict` naming the discount
 * holding the code (with a field error on `code`, so a form can show it beside the field). Kept
 * beside the central mapping of database errors (lib/errors.ts, fromDatabaseError), which would
 * say the same without naming the discount.
 */
async function codeConflict(error: unknown, code: string | null | undefined): Promise<never> {
  if (uniqueViolation(error) === "discounts_code_key" && code) {
    const [holder] = await query<{ id: string }>("SELECT id FROM discounts WHERE lower(code) = lower($1)", [code]);
    const message = holder ? `is already used by discount ${holder.id}` : "is already used by another discount";
    throw new ApiError("conflict", `Discount code ${code} ${message}; codes are unique without regard to case.`, {
      errors: [{ field: "code", message }],
    });
  }
  throw error;
}

function isCodeClash(error: unknown): boolean {
  return uniqueViolation(error) === "discounts_code_key";
}

export async function createDiscount(input: CreateDiscountInput): Promise<RawJson<Discount>> {
  const restrictTo = restriction(input.restrict_to);
  const problems = await referenceProblems(restrictTo, input.discount_group_id);
  if (problems.length > 0) throw invalidFields(problems);
  const enabled = input.enabled_for_checkout ?? DISCOUNT_DEFAULTS.enabled_for_checkout;
  for (let attempt = 1; ; attempt++) {
    const code = input.code ?? (enabled ? generatedCode() : null);
    try {
      return await insertJson(
        DISCOUNT,
        {
          id: newId("dsc"),
          revision_id: newId("dscrev"),
          description: input.description,
          enabled_for_checkout: enabled,
          code,
          type: input.type,
          mode: input.mode ?? DISCOUNT_DEFAULTS.mode,
          amount: input.amount,
          currency_code: storedCurrencyCode(input.type, input.currency_code) ?? null,
          recur: input.recur ?? DISCOUNT_DEFAULTS.recur,
          maximum_recurring_intervals: input.maximum_recurring_intervals ?? null,
          usage_limit: input.usage_limit ?? null,
          restrict_to: restrictTo ?? null,
          restricted: Boolean(restrictTo),
          expires_at: input.expires_at ?? null,
          discount_group_id: input.discount_group_id ?? null,
          custom_data: jsonb(input.custom_data ?? null),
        },
        "discount.created",
      );
    } catch (error) {
      const generated = input.code == null;
      if (generated && isCodeClash(error) && attempt < GENERATED_CODE_ATTEMPTS) continue;
      return codeConflict(error, code);
    }
  }
}

/** The stored values the rules and the PATCH need, read under the row lock. */
interface CurrentDiscount {
  status: string;
  revision_id: string;
  type: string;
  amount: string;
  currency_code: string | null;
  recur: boolean;
  maximum_recurring_intervals: number | null;
  enabled_for_checkout: boolean;
  code: string | null;
  discount_group_id: string | null;
}

async function lockDiscount(client: pg.PoolClient, id: string): Promise<CurrentDiscount | undefined> {
  const [current] = await query<CurrentDiscount>(
    `SELECT t.status, t.revision_id, t.type, trim_scale(t.amount)::text AS amount, t.currency_code, t.recur,
            t.maximum_recurring_intervals, t.enabled_for_checkout, t.code, t.discount_group_id
       FROM discounts t WHERE t.id = $1 FOR UPDATE`,
    [id],
    client,
  );
  return current;
}

/**
 * Changes discount `id`. When `revision` is given (the `dsc_…@dscrev_…` path form) the change
 * applies only if it is still the discount's current revision, else 409 `conflict`: two staff
 * members editing the same discount cannot silently overwrite each other. The row is locked
 * (SELECT … FOR UPDATE) from the check to the write, so of two concurrent PATCHes naming the same
 * revision exactly one succeeds. Every change moves the discount to a new revision.
 *
 * Order of refusals: 404 unknown discount, 409 stale revision, 400 entity_archived, 400
 * invalid_field (the cross-field rules on the discount as it would be, then unknown IDs), 409 code
 * in use.
 */
export async function updateDiscount(
  id: string,
  revision: string | null,
  input: UpdateDiscountInput,
): Promise<DiscountWithRevision> {
  const restrictTo = restriction(input.restrict_to);
  for (let attempt = 1; ; attempt++) {
    let code: string | null | undefined = input.code;
    let generated = false;
    try {
      return await sqlTransaction(async (client) => {
        const current = await lockDiscount(client, id);
        if (!current) throw notFound(id);
        if (revision !== null && revision !== current.revision_id) {
          throw new ApiError(
            "conflict",
            `Discount ${id} was changed since revision ${revision}: its current revision is ${current.revision_id}. ` +
              `Get the discount, apply your change to it and send it to ${id}@${current.revision_id}.`,
          );
        }
        assertChangeable(id, current.status, input);

        // The rules between fields hold for the discount as it will be, not only for the body.
        const problems: FieldError[] = discountRuleProblems({
          type: input.type ?? current.type,
          amount: input.amount ?? current.amount,
          currency_code: input.currency_code !== undefined ? input.currency_code : current.currency_code,
          recur: input.recur ?? current.recur,
          maximum_recurring_intervals:
            input.maximum_recurring_intervals !== undefined
              ? input.maximum_recurring_intervals
              : current.maximum_recurring_intervals,
        });
        // Only IDs the body names are checked: a group it keeps needs no second look.
        const groupId = input.discount_group_id !== current.discount_group_id ? input.discount_group_id : undefined;
        problems.push(...(await referenceProblems(restrictTo, groupId, client)));
        if (problems.length > 0) throw invalidFields(problems);

        const enabled = input.enabled_for_checkout ?? current.enabled_for_checkout;
        if (enabled && (code === undefined ? current.code : code) === null) {
          code = generatedCode();
          generated = true;
        }
        const revisionId = newId("dscrev");
        const updated = await updateJson(
          DISCOUNT,
          { sql: "t.id = $1", values: [id] },
          {
            revision_id: revisionId,
            status: input.status,
            description: input.description,
            enabled_for_checkout: input.enabled_for_checkout,
            code,
            type: input.type,
            mode: input.mode,
            amount: input.amount,
            currency_code: storedCurrencyCode((input.type ?? current.type) as DiscountType, input.currency_code),
            recur: input.recur,
            maximum_recurring_intervals: input.maximum_recurring_intervals,
            usage_limit: input.usage_limit,
            restrict_to: restrictTo,
            restricted: restrictTo === undefined ? undefined : restrictTo !== null,
            expires_at: input.expires_at,
            discount_group_id: input.discount_group_id,
            custom_data: jsonb(input.custom_data),
          },
          "discount.updated",
          client,
        );
        // The row is locked, so it is still there.
        if (!updated) throw notFound(id);
        return { discount: updated, revisionId };
      });
    } catch (error) {
      if (generated && isCodeClash(error) && attempt < GENERATED_CODE_ATTEMPTS) continue;
      return codeConflict(error, code);
    }
  }
}

export function listDiscounts(query: ListDiscountsQuery): Promise<JsonPage> {
  const params = new Params();
  // As in the API family: only active discounts unless `status` asks for others.
  const statuses = [...new Set<string>(query.status ?? ["active"])];
  // The stored status narrows first (on the (status, id) index); expired and used are active rows.
  const stored = [...new Set(statuses.map((s) => (s === "archived" ? "archived" : "active")))];
  const filters = [params.oneOf("t.status", stored)];
  const derived = statuses.filter((s) => s !== "archived");
  if (derived.length > 0 && derived.length < 3) filters.push(params.oneOf(`(${DISCOUNT_STATUS_SQL})`, statuses));
  if (query.id) filters.push(params.oneOf("t.id", query.id));
  if (query.code)
    filters.push(
      params.oneOf(
        "lower(t.code)",
        query.code.map((c) => c.toLowerCase()),
      ),
    );
  if (query.discount_group_id) filters.push(params.oneOf("t.discount_group_id", query.discount_group_id));
  if (query.mode) filters.push(`t.mode = ${params.add(query.mode)}`);
  if (query.search) {
    const term = query.search.trim();
    const like = params.add(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    filters.push(`(t.id = ${params.add(term)} OR t.code ILIKE ${like} OR t.description ILIKE ${like})`);
  }
  return listJson(discountEntity(query.include), {
    filters,
    params,
    orderBy: query.order_by,
    after: query.after,
    perPage: query.per_page,
  });
}
