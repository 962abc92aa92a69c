/**
 * Adjustments (refunds and credits of billed or completed transactions) and transaction revisions:
 * request bodies, query parameters and the response shape, as the API family has them.
 * Client-safe: the dashboard's refund dialog uses these schemas too.
 */
import { z } from "zod";
import {
  ADJUSTMENT_ACTIONS,
  ADJUSTMENT_ITEM_TYPES,
  ADJUSTMENT_STATUSES,
  ADJUSTMENT_TAX_MODES,
  ADJUSTMENT_TYPES,
  ALL_ADJUSTMENT_ACTIONS,
} from "../billing/adjustments.ts";
import { csv, entityId, listQuery, maxText, requiredText } from "./common.ts";

export {
  ADJUSTMENT_ACTIONS,
  ADJUSTMENT_ITEM_TYPES,
  ADJUSTMENT_STATUSES,
  ADJUSTMENT_TAX_MODES,
  ADJUSTMENT_TYPES,
  ALL_ADJUSTMENT_ACTIONS,
};

/** Ours (the API family publishes none): room for a support note. */
export const ADJUSTMENT_REASON_MAX = 1024;

// ---------------------------------------------------------------------------------------------
// Response shape

const splitTotals = z.object({ subtotal: z.string(), tax: z.string(), total: z.string() });

export const adjustmentItemSchema = z.object({
  id: z.string(),
  item_id: z.string(),
  type: z.enum(ADJUSTMENT_ITEM_TYPES),
  amount: z.string(),
  proration: z.unknown().nullable(),
  totals: splitTotals,
});

export const adjustmentTotalsSchema = z.object({
  subtotal: z.string(),
  tax: z.string(),
  total: z.string(),
  fee: z.string(),
  retained_fee: z.string(),
  earnings: z.string(),
  currency_code: z.string(),
});

/** The adjustment as the API returns it, in the API family's field order. */
export const adjustmentSchema = z.object({
  id: z.string(),
  action: z.enum(ALL_ADJUSTMENT_ACTIONS),
  type: z.enum(ADJUSTMENT_TYPES),
  transaction_id: z.string(),
  subscription_id: z.string().nullable(),
  customer_id: z.string(),
  reason: z.string(),
  credit_applied_to_balance: z.boolean().nullable(),
  currency_code: z.string(),
  status: z.enum(ADJUSTMENT_STATUSES),
  items: z.array(adjustmentItemSchema),
  totals: adjustmentTotalsSchema,
  payout_totals: z
    .object({
      subtotal: z.string(),
      tax: z.string(),
      total: z.string(),
      fee: z.string(),
      retained_fee: z.string(),
      chargeback_fee: z.object({ amount: z.string(), original: z.unknown().nullable() }).nullable(),
      earnings: z.string(),
      currency_code: z.string(),
    })
    .nullable(),
  tax_rates_used: z.array(z.object({ tax_rate: z.string(), totals: splitTotals })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;

// ---------------------------------------------------------------------------------------------
// POST /adjustments

const positiveAmount = z
  .string({ error: "must be a whole number of the currency's minor unit, written as a string" })
  .regex(/^\d+$/, { error: "must be a whole number of the currency's minor unit, written as a string", abort: true })
  .refine((value) => BigInt(value) > 0n, "must be more than zero")
  .refine((value) => value.length <= 18, "is too large");

export const adjustmentItemInput = z.strictObject({
  item_id: entityId("txnitm"),
  type: z.enum(ADJUSTMENT_ITEM_TYPES, { error: `must be one of ${ADJUSTMENT_ITEM_TYPES.join(", ")}` }),
  amount: positiveAmount.nullable().optional(),
});
export type AdjustmentItemInput = z.infer<typeof adjustmentItemInput>;

export const createAdjustmentBody = z
  .strictObject({
    action: z.enum(ADJUSTMENT_ACTIONS, { error: `must be one of ${ADJUSTMENT_ACTIONS.join(", ")}` }),
    transaction_id: entityId("txn"),
    reason: requiredText(ADJUSTMENT_REASON_MAX),
    /** The API family's default is `partial` (with items). */
    type: z.enum(ADJUSTMENT_TYPES, { error: `must be one of ${ADJUSTMENT_TYPES.join(", ")}` }).optional(),
    /** Whether item amounts include tax (`internal`, the default) or tax is added (`external`). */
    tax_mode: z.enum(ADJUSTMENT_TAX_MODES, { error: `must be one of ${ADJUSTMENT_TAX_MODES.join(", ")}` }).optional(),
    items: z.array(adjustmentItemInput).max(100, "must have at most 100 items").nullable().optional(),
  })
  .superRefine((body, ctx) => {
    const type = body.type ?? "partial";
    if (type === "full") {
      if (body.items?.length) {
        ctx.addIssue({ code: "custom", path: ["items"], message: "must be left out when type is full" });
      }
      if (body.tax_mode !== undefined) {
        ctx.addIssue({ code: "custom", path: ["tax_mode"], message: "can be sent only when type is partial" });
      }
      return;
    }
    if (!body.items?.length) {
      ctx.addIssue({
        code: "custom",
        path: ["items"],
        message: "must list at least one item of the transaction when type is partial (or send type full)",
      });
      return;
    }
    const seen = new Map<string, number>();
    body.items.forEach((item, i) => {
      const first = seen.get(item.item_id);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["items", i, "item_id"],
          message: `lists ${item.item_id} again (it is items[${first}]): each item may appear once`,
        });
      } else seen.set(item.item_id, i);
    });
  });
export type CreateAdjustmentInput = z.infer<typeof createAdjustmentBody>;

// ---------------------------------------------------------------------------------------------
// GET /adjustments

/** The API family orders adjustments by `id` only. */
export const ADJUSTMENT_ORDER_FIELDS = ["id"] as const;

export const listAdjustmentsQuery = z.object({
  ...listQuery(ADJUSTMENT_ORDER_FIELDS),
  id: csv(entityId("adj")).optional(),
  transaction_id: csv(entityId("txn")).optional(),
  subscription_id: csv(entityId("sub")).optional(),
  customer_id: csv(entityId("ctm")).optional(),
  status: csv(z.enum(ADJUSTMENT_STATUSES, { error: `must be one of ${ADJUSTMENT_STATUSES.join(", ")}` })).optional(),
  action: z.enum(ALL_ADJUSTMENT_ACTIONS, { error: `must be one of ${ALL_ADJUSTMENT_ACTIONS.join(", ")}` }).optional(),
});
export type ListAdjustmentsQuery = z.infer<typeof listAdjustmentsQuery>;

// ---------------------------------------------------------------------------------------------
// POST /transactions/{transaction_id}/revise

const notRevisable = (why: string) =>
  z
    .unknown()
    .refine(() => false, { message: `cannot be revised: ${why}` })
    .optional();

/**
 * What a revision may change (the API family's body): the customer's name, the business's name,
 * company number and tax identifier, and the address apart from its country and postal code
 * (those decide the tax, which a revision does not change).
 */
export const reviseTransactionBody = z
  .strictObject({
    customer: z.strictObject({ name: requiredText(1024) }).optional(),
    business: z
      .strictObject({
        name: requiredText(1024).optional(),
        company_number: maxText(1024).nullable().optional(),
        tax_identifier: maxText(1024).nullable().optional(),
      })
      .optional(),
    address: z
      .strictObject({
        first_line: maxText(1024).nullable().optional(),
        second_line: maxText(1024).nullable().optional(),
        city: maxText(200).nullable().optional(),
        region: maxText(200).nullable().optional(),
        country_code: notRevisable("the country decides the tax of the transaction"),
        postal_code: notRevisable("the postal code decides the tax of the transaction"),
      })
      .optional(),
  })
  .superRefine((body, ctx) => {
    const sent = (value: object | undefined) => value !== undefined && Object.keys(value).length > 0;
    if (!sent(body.customer) && !sent(body.business) && !sent(body.address)) {
      ctx.addIssue({
        code: "custom",
        path: ["customer"],
        message: "send at least one of customer, business or address with a field to revise",
      });
    }
  });
export type ReviseTransactionInput = z.infer<typeof reviseTransactionBody>;
