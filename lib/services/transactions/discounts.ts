/**
 * A transaction's discount: a catalogue discount (`discount_id`) or a non-catalogue one
 * (`discount`, saved as a discount of mode `custom`), and its redemptions.
 *
 * Discount redemptions (spec: Discount, redemption rules). A discount's `times_used` counts a
 * redemption when the transaction is billed (the invoice is issued; the completion of an
 * automatically-collected transaction is the other moment, with payments), under a lock of the
 * discount's row that also re-checks `usage_limit`; canceling a billed transaction gives the
 * redemption back (the invoice is void). Applying a discount to a draft or ready transaction only
 * checks that it can still be redeemed.
 */
import type pg from "pg";
import { DISCOUNT } from "../../db/entities/discount.ts";
import { insertJson, jsonb, query } from "../../db/sql.ts";
import { invalidField } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { NonCatalogueDiscountInput } from "../../schemas/transaction.ts";
import type { DiscountRef, Problems } from "./references.ts";

/** The IDs of `restrict_to` that name no product or price, as field errors. */
export async function restrictToProblems(
  ids: readonly string[],
  problems: Problems,
  client: pg.PoolClient,
): Promise<void> {
  if (ids.length === 0) return;
  const rows = await query<{ id: string }>(
    "SELECT id FROM products WHERE id = ANY($1) UNION ALL SELECT id FROM prices WHERE id = ANY($1)",
    [ids],
    client,
  );
  const found = new Set(rows.map((row) => row.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) problems.field(`discount.restrict_to[${i}]`, `no product or price has the ID ${id}`);
  });
}

/** A non-catalogue discount, as the engine sees it before it is saved (in the transaction's currency). */
export function customDiscount(input: NonCatalogueDiscountInput, currency: string): DiscountRef {
  return {
    id: "",
    mode: "custom",
    type: input.type,
    amount: input.amount,
    currency_code: input.type === "percentage" ? null : currency,
    restrict_to: input.restrict_to?.length ? input.restrict_to : null,
    json: "",
  };
}

/**
 * Saves a non-catalogue discount as a discount of mode `custom` (not redeemable at checkout, no
 * code), with its `discount.created` event. Returns its ID.
 */
export async function saveCustomDiscount(
  input: NonCatalogueDiscountInput,
  currency: string,
  client: pg.PoolClient,
): Promise<string> {
  const id = newId("dsc");
  const restrictTo = input.restrict_to?.length ? input.restrict_to : null;
  await insertJson(
    DISCOUNT,
    {
      id,
      revision_id: newId("dscrev"),
      description: input.description,
      enabled_for_checkout: false,
      code: null,
      type: input.type,
      mode: "custom",
      amount: input.amount,
      currency_code: input.type === "percentage" ? null : currency,
      recur: input.recur ?? false,
      maximum_recurring_intervals: input.maximum_recurring_intervals ?? null,
      usage_limit: null,
      restrict_to: restrictTo,
      restricted: restrictTo !== null,
      expires_at: null,
      discount_group_id: null,
      custom_data: jsonb(input.custom_data ?? null),
    },
    "discount.created",
    client,
  );
  return id;
}

/**
 * Counts the redemption of discount `id` by a transaction being billed, under a lock of the
 * discount's row, refusing it when the discount's usage_limit is already reached.
 */
export async function redeemDiscount(client: pg.PoolClient, id: string): Promise<void> {
  const [row] = await query<{ usage_limit: number | null; times_used: number }>(
    "SELECT usage_limit, times_used FROM discounts WHERE id = $1 FOR UPDATE",
    [id],
    client,
  );
  if (!row) return;
  if (row.usage_limit !== null && row.times_used >= row.usage_limit) {
    throw invalidField(
      "discount_id",
      `${id} has reached its usage_limit (${row.usage_limit}): remove it (discount_id null) to bill the transaction`,
    );
  }
  await countRedemption(client, id);
}

/**
 * Counts one redemption of discount `id` (`times_used`), without checking `usage_limit`: for a
 * caller that checked it when the discount was applied (a subscription's discount) or that must
 * count it anyway (a transaction completed without being billed: the customer has paid).
 */
export async function countRedemption(client: pg.PoolClient, id: string): Promise<void> {
  await query("UPDATE discounts SET times_used = times_used + 1 WHERE id = $1", [id], client);
}

/** Gives back the redemption of a billed transaction that is canceled (its invoice is void). */
export async function releaseDiscount(client: pg.PoolClient, id: string): Promise<void> {
  await query("UPDATE discounts SET times_used = greatest(times_used - 1, 0) WHERE id = $1", [id], client);
}
