/**
 * Transactions (spec: Transaction, States and transitions, PATCH /transactions/{transaction_id}),
 * transaction previews and pricing previews: request bodies, query parameters, path parameters and
 * the response shape. Client-safe: the dashboard's invoice forms use these schemas too.
 *
 * Where the spec is silent the API family's shapes are followed (non-catalogue `price` and
 * `discount` objects, `billing_details`, `checkout`, the list filters with `[LT]`, `[LTE]`, `[GT]`,
 * `[GTE]`); the limits that family does not publish are ours and named here.
 */
import { z } from "zod";
import type { CurrencyCode } from "../billing/currencies.ts";
import { TRANSACTION_STATUSES, type TransactionStatus } from "../billing/transaction-states.ts";
import { addressSchema } from "./address.ts";
import { adjustmentSchema, adjustmentTotalsSchema } from "./adjustment.ts";
import { businessSchema } from "./business.ts";
import {
  countryCode,
  csv,
  customData,
  dateTime,
  entityId,
  includeParam,
  listQuery,
  maxText,
  requiredText,
} from "./common.ts";
import { customerSchema } from "./customer.ts";
import { amountProblem, DISCOUNT_TYPES, discountSchema } from "./discount.ts";
import { paymentSchema } from "./payment.ts";
import {
  currencyCode,
  duration,
  FREQUENCY_MAX,
  INTERVALS,
  money,
  PRICE_DESCRIPTION_MAX,
  PRICE_NAME_MAX,
  priceSchema,
  QUANTITY_MAX,
  QUANTITY_MIN,
  quantity,
  refineTrialPeriod,
  taxMode,
  unitPriceOverrides,
} from "./price.ts";
import { createProductBody, productSchema } from "./product.ts";

export { TRANSACTION_STATUSES, type TransactionStatus };

/** What a create may ask for: a transaction is created `draft` or `ready` (billing is a PATCH). */
export const CREATE_STATUSES = ["draft", "ready"] as const;

export const COLLECTION_MODES = ["automatic", "manual"] as const;
export type CollectionMode = (typeof COLLECTION_MODES)[number];

/** How a transaction was created (the API family's values; the API creates `api` ones). */
export const TRANSACTION_ORIGINS = [
  "api",
  "subscription_charge",
  "subscription_payment_method_change",
  "subscription_recurring",
  "subscription_update",
  "web",
] as const;
export type TransactionOrigin = (typeof TRANSACTION_ORIGINS)[number];

/** Manually-collected (invoiced) transactions must be in one of these (spec: Transaction). */
export const MANUAL_CURRENCIES: readonly CurrencyCode[] = ["USD", "EUR", "GBP"];

/** Spec: Limits, transaction `items`. */
export const MAX_ITEMS = 100;

/** Ours (the API family publishes none): long enough for any purchase order and invoice note. */
export const PURCHASE_ORDER_NUMBER_MAX = 100;
export const ADDITIONAL_INFORMATION_MAX = 1500;
export const CHECKOUT_URL_MAX = 2048;
export const DISCOUNT_DESCRIPTION_MAX = 500;

/**
 * `include` values of a transaction (spec: PATCH /transactions/{transaction_id} names `adjustment`,
 * the Transaction part `adjustments`: both are accepted and add `adjustments`).
 */
export const TRANSACTION_INCLUDES = [
  "address",
  "adjustment",
  "adjustments",
  "adjustments_totals",
  "available_payment_methods",
  "business",
  "customer",
  "discount",
] as const;
export type TransactionInclude = (typeof TRANSACTION_INCLUDES)[number];

export const transactionInclude = includeParam(TRANSACTION_INCLUDES);

// ---------------------------------------------------------------------------------------------
// Response shape

const amountTotals = z.object({ subtotal: z.string(), discount: z.string(), tax: z.string(), total: z.string() });
const period = z.object({ starts_at: z.string(), ends_at: z.string() });
const paymentTerms = z.object({ interval: z.enum(INTERVALS), frequency: z.number().int() });

export const transactionTotalsSchema = z.object({
  subtotal: z.string(),
  discount: z.string(),
  tax: z.string(),
  total: z.string(),
  credit: z.string(),
  credit_to_balance: z.string(),
  balance: z.string(),
  grand_total: z.string(),
  grand_total_tax: z.string(),
  fee: z.string().nullable(),
  earnings: z.string().nullable(),
  currency_code: z.string(),
});

export const transactionLineItemSchema = z.object({
  id: z.string(),
  price_id: z.string(),
  quantity: z.number().int(),
  proration: z.unknown().nullable(),
  tax_rate: z.string(),
  unit_totals: amountTotals,
  totals: amountTotals,
  // The id is null for a non-catalogue product a preview shows before it is created (its timestamps
  // are the preview's moment, lib/services/transactions/items.ts unsavedAt).
  product: productSchema.extend({ id: z.string().nullable() }),
});

export const transactionDetailsSchema = z.object({
  tax_rates_used: z.array(z.object({ tax_rate: z.string(), totals: amountTotals })),
  totals: transactionTotalsSchema,
  adjusted_totals: z.object({
    subtotal: z.string(),
    tax: z.string(),
    total: z.string(),
    grand_total: z.string(),
    grand_total_tax: z.string(),
    fee: z.string().nullable(),
    retained_fee: z.string(),
    earnings: z.string().nullable(),
    currency_code: z.string(),
  }),
  /** Null until the transaction is completed (lib/billing/totals.ts payoutTotals). */
  payout_totals: z
    .object({
      subtotal: z.string(),
      discount: z.string(),
      tax: z.string(),
      total: z.string(),
      credit: z.string(),
      balance: z.string(),
      grand_total: z.string(),
      grand_total_tax: z.string(),
      credit_to_balance: z.string(),
      fee: z.string(),
      earnings: z.string(),
      currency_code: z.string(),
      exchange_rate: z.string(),
      fee_rate: z.string(),
    })
    .nullable(),
  /**
   * Null until the transaction is completed and has an approved adjustment, as the API family
   * sends it (lib/billing/adjustments.ts adjustedPayoutTotals).
   */
  adjusted_payout_totals: z
    .object({
      subtotal: z.string(),
      tax: z.string(),
      total: z.string(),
      fee: z.string(),
      retained_fee: z.string(),
      chargeback_fee: z.object({ amount: z.string(), original: z.null() }),
      earnings: z.string(),
      currency_code: z.string(),
      exchange_rate: z.string(),
    })
    .nullable(),
  line_items: z.array(transactionLineItemSchema),
});
export type TransactionDetails = z.infer<typeof transactionDetailsSchema>;

export const billingDetailsSchema = z.object({
  enable_checkout: z.boolean(),
  /** "" when none was given, as in the API family. */
  purchase_order_number: z.string(),
  additional_information: z.string().nullable(),
  payment_terms: paymentTerms,
});
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

/** The transaction as the API returns it (spec: Transaction), in the spec's field order. */
export const transactionSchema = z.object({
  id: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  customer_id: z.string().nullable(),
  address_id: z.string().nullable(),
  business_id: z.string().nullable(),
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  currency_code: z.string(),
  origin: z.enum(TRANSACTION_ORIGINS),
  subscription_id: z.string().nullable(),
  invoice_id: z.string().nullable(),
  invoice_number: z.string().nullable(),
  collection_mode: z.enum(COLLECTION_MODES),
  discount_id: z.string().nullable(),
  billing_details: billingDetailsSchema.nullable(),
  billing_period: period.nullable(),
  items: z.array(
    z.object({
      price_id: z.string(),
      price: priceSchema,
      quantity: z.number().int(),
      proration: z.unknown().nullable(),
    }),
  ),
  details: transactionDetailsSchema,
  payments: z.array(paymentSchema),
  checkout: z.object({ url: z.string().nullable() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  billed_at: z.string().nullable(),
  revised_at: z.string().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

/**
 * A transaction as the endpoints that take `include` return it: the included entities come last,
 * each only when asked for (TRANSACTION_INCLUDES; `adjustment` adds `adjustments`). As in the API
 * family, the customer, address, business and discount are left out when the transaction has none,
 * and the adjustments when it has none (lib/db/entities/transaction.ts).
 */
export const transactionResponseSchema = transactionSchema.extend({
  address: addressSchema.optional(),
  adjustments: z.array(adjustmentSchema).optional(),
  adjustments_totals: adjustmentTotalsSchema
    .omit({ currency_code: true })
    .extend({
      breakdown: z.object({ credit: z.string(), refund: z.string(), chargeback: z.string() }),
      currency_code: z.string(),
    })
    .optional(),
  available_payment_methods: z.array(z.string()).optional(),
  business: businessSchema.optional(),
  customer: customerSchema.optional(),
  // The discount as a transaction has it: never with its group or revision.
  discount: discountSchema.omit({ discount_group: true, revision_id: true }).optional(),
});

/** A price or product in a preview: a non-catalogue one not (yet) saved has a null ID. */
const previewPrice = priceSchema.extend({
  id: z.string().nullable(),
  product_id: z.string().nullable(),
});
const previewProduct = transactionLineItemSchema.shape.product;
const previewAddressSchema = z.object({ postal_code: z.string().nullable(), country_code: z.string() }).nullable();

/** POST /transactions/preview: the totals a transaction with these items would have; nothing is saved. */
export const transactionPreviewResultSchema = z.object({
  customer_id: z.string().nullable(),
  address_id: z.string().nullable(),
  business_id: z.string().nullable(),
  currency_code: z.string(),
  discount_id: z.string().nullable(),
  customer_ip_address: z.string().nullable(),
  address: previewAddressSchema,
  ignore_trials: z.boolean(),
  items: z.array(
    z.object({ price: previewPrice, quantity: z.number().int(), include_in_totals: z.boolean(), proration: z.null() }),
  ),
  details: z.object({
    tax_rates_used: transactionDetailsSchema.shape.tax_rates_used,
    totals: transactionTotalsSchema,
    line_items: z.array(
      transactionLineItemSchema.omit({ id: true }).extend({ price_id: z.string().nullable(), product: previewProduct }),
    ),
  }),
  available_payment_methods: z.array(z.string()),
});

/** POST /pricing-preview: prices localized for a place, with formatted totals; nothing is saved. */
export const pricingPreviewSchema = z.object({
  customer_id: z.string().nullable(),
  address_id: z.string().nullable(),
  business_id: z.string().nullable(),
  currency_code: z.string(),
  discount_id: z.string().nullable(),
  address: previewAddressSchema,
  customer_ip_address: z.string().nullable(),
  items: z.array(z.object({ price_id: z.string().nullable(), quantity: z.number().int() })),
  details: z.object({
    line_items: z.array(
      z.object({
        price: previewPrice,
        quantity: z.number().int(),
        tax_rate: z.string(),
        unit_totals: amountTotals,
        formatted_unit_totals: amountTotals,
        totals: amountTotals,
        formatted_totals: amountTotals,
        product: previewProduct,
        discounts: z.array(z.object({ discount: discountSchema, total: z.string(), formatted_total: z.string() })),
      }),
    ),
  }),
  available_payment_methods: z.array(z.string()),
});

// ---------------------------------------------------------------------------------------------
// Request bodies

const bool = z.boolean({ error: "must be true or false" });

export const itemQuantity = z
  .number({ error: "must be a whole number" })
  .int({ error: "must be a whole number" })
  .min(QUANTITY_MIN, `must be ${QUANTITY_MIN} to ${QUANTITY_MAX}`)
  .max(QUANTITY_MAX, `must be ${QUANTITY_MIN} to ${QUANTITY_MAX}`);

/** A new product for a non-catalogue price: a product's create body without `type` (it is `custom`). */
export const nonCatalogueProduct = createProductBody.omit({ type: true });
export type NonCatalogueProductInput = z.infer<typeof nonCatalogueProduct>;

/**
 * A non-catalogue price (the API family's shape): a price's create body without `product_id` and
 * `type`, for an existing product (`product_id`) or a new one (`product`). It is created as a
 * price of type `custom`, so the transaction's items always name a price.
 */
export const nonCataloguePrice = z
  .strictObject(
    {
      description: requiredText(PRICE_DESCRIPTION_MAX),
      name: requiredText(PRICE_NAME_MAX).nullable().optional(),
      billing_cycle: duration.nullable().optional(),
      trial_period: duration.nullable().optional(),
      tax_mode: taxMode.optional(),
      unit_price: money,
      unit_price_overrides: unitPriceOverrides.optional(),
      quantity: quantity.optional(),
      custom_data: customData.optional(),
      product_id: entityId("pro").optional(),
      product: nonCatalogueProduct.optional(),
    },
    { error: "must be a non-catalogue price object" },
  )
  .superRefine(refineTrialPeriod)
  .superRefine((value, ctx) => {
    if ((value.product_id === undefined) === (value.product === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["product_id"],
        message: "send either product_id (an existing product) or product (a new one), not both",
      });
    }
  });
export type NonCataloguePriceInput = z.infer<typeof nonCataloguePrice>;

/** An item has either `price_id` (catalogue) or `price` (non-catalogue). */
function onePrice(value: { price_id?: unknown; price?: unknown }, ctx: z.RefinementCtx): void {
  if ((value.price_id === undefined) === (value.price === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["price_id"],
      message: "send either price_id (a catalogue price) or price (a non-catalogue price), not both",
    });
  }
}

const itemFields = {
  price_id: entityId("pri").optional(),
  price: nonCataloguePrice.optional(),
  quantity: itemQuantity,
};
const itemError = { error: "must be an object with quantity and price_id or price" };

export const transactionItem = z.strictObject(itemFields, itemError).superRefine(onePrice);
export type TransactionItemInput = z.infer<typeof transactionItem>;

/** A preview's item: `include_in_totals` false lists it without counting it in the totals. */
export const previewItem = z
  .strictObject({ ...itemFields, include_in_totals: bool.nullable().optional() }, itemError)
  .superRefine(onePrice);
export type PreviewItemInput = z.infer<typeof previewItem>;

function itemList<T extends z.ZodType>(item: T) {
  return z
    .array(item, { error: "must be an array of items" })
    .min(1, `must have 1 to ${MAX_ITEMS} items`)
    .max(MAX_ITEMS, `must have 1 to ${MAX_ITEMS} items`);
}

/** A non-catalogue discount (the API family's shape), created as a discount of mode `custom`. */
export const nonCatalogueDiscount = z
  .strictObject(
    {
      amount: z.string({ error: 'must be a string, such as "10" or "1000"' }),
      description: requiredText(DISCOUNT_DESCRIPTION_MAX),
      type: z.enum(DISCOUNT_TYPES, { error: "must be percentage, flat or flat_per_seat" }),
      recur: bool.optional(),
      maximum_recurring_intervals: z
        .number({ error: "must be a whole number or null" })
        .int("must be a whole number")
        .min(1, "must be at least 1")
        .max(2_147_483_647, "must be at most 2147483647")
        .nullable()
        .optional(),
      custom_data: customData.optional(),
      restrict_to: z
        .array(z.string().regex(/^(pro|pri)_[a-z0-9]{26}$/, "must be a product (pro_) or price (pri_) ID"))
        .nullable()
        .optional(),
    },
    { error: "must be a non-catalogue discount object or null" },
  )
  .superRefine((value, ctx) => {
    if (typeof value.amount === "string" && (DISCOUNT_TYPES as readonly string[]).includes(value.type)) {
      const problem = amountProblem(value.type, value.amount);
      if (problem) ctx.addIssue({ code: "custom", path: ["amount"], message: problem });
    }
    if (value.recur !== true && typeof value.maximum_recurring_intervals === "number") {
      ctx.addIssue({
        code: "custom",
        path: ["maximum_recurring_intervals"],
        message: "requires recur to be true",
      });
    }
  });
export type NonCatalogueDiscountInput = z.infer<typeof nonCatalogueDiscount>;

/** `billing_details` (spec: Transaction): payment terms required, the rest optional. */
export const billingDetails = z.strictObject(
  {
    enable_checkout: bool.optional(),
    purchase_order_number: maxText(PURCHASE_ORDER_NUMBER_MAX).nullable().optional(),
    additional_information: maxText(ADDITIONAL_INFORMATION_MAX).nullable().optional(),
    payment_terms: z.strictObject(
      {
        interval: z.enum(INTERVALS, { error: `must be one of ${INTERVALS.join(", ")}` }),
        frequency: z
          .number({ error: "must be a whole number" })
          .int({ error: "must be a whole number" })
          .min(1, "must be at least 1")
          .max(FREQUENCY_MAX, `must be at most ${FREQUENCY_MAX}`),
      },
      { error: "must be an object with interval and frequency" },
    ),
  },
  { error: "must be an object with payment_terms, or null" },
);
export type BillingDetailsInput = z.infer<typeof billingDetails>;

/** `billing_period`: `starts_at` before `ends_at`. */
export const billingPeriod = z
  .strictObject(
    { starts_at: dateTime, ends_at: dateTime },
    { error: "must be an object with starts_at and ends_at, or null" },
  )
  .superRefine((value, ctx) => {
    if (Date.parse(value.ends_at) <= Date.parse(value.starts_at)) {
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: "must be after starts_at" });
    }
  });
export type BillingPeriodInput = z.infer<typeof billingPeriod>;

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * `checkout`: the URL of the merchant's page that opens the checkout (an approved payment link in
 * the API family); the service appends `_ptxn=<transaction ID>`. `url` null removes it.
 */
export const checkout = z.strictObject(
  {
    url: z
      .string({ error: "must be an absolute https URL or null" })
      .max(CHECKOUT_URL_MAX, `must be at most ${CHECKOUT_URL_MAX} characters`)
      .refine(isHttpsUrl, "must be an absolute https URL, such as https://example.com/pay")
      .nullable(),
  },
  { error: "must be an object with url, or null" },
);
export type CheckoutInput = z.infer<typeof checkout>;

const collectionMode = z.enum(COLLECTION_MODES, { error: "must be automatic or manual" });

const referenceFields = {
  customer_id: entityId("ctm").nullable().optional(),
  address_id: entityId("add").nullable().optional(),
  business_id: entityId("biz").nullable().optional(),
  custom_data: customData.optional(),
  currency_code: currencyCode.optional(),
  collection_mode: collectionMode.optional(),
  discount_id: entityId("dsc").nullable().optional(),
  discount: nonCatalogueDiscount.nullable().optional(),
  billing_details: billingDetails.nullable().optional(),
  billing_period: billingPeriod.nullable().optional(),
  checkout: checkout.nullable().optional(),
};

function oneDiscount(value: { discount_id?: unknown; discount?: unknown }, ctx: z.RefinementCtx): void {
  if (value.discount_id != null && value.discount != null) {
    ctx.addIssue({
      code: "custom",
      path: ["discount"],
      message: "send either discount_id (a catalogue discount) or discount (a non-catalogue one), not both",
    });
  }
}

export const createTransactionBody = z
  .strictObject({
    items: itemList(transactionItem),
    status: z
      .enum(CREATE_STATUSES, {
        error: "must be draft or ready: a transaction is billed with PATCH once it is ready",
      })
      .optional(),
    ...referenceFields,
  })
  .superRefine(oneDiscount);
export type CreateTransactionInput = z.infer<typeof createTransactionBody>;

/**
 * Every field optional. `status` takes any status name here so that a move the service refuses
 * (to `completed`, say) gets the API family's `transaction_invalid_status_change` naming it,
 * rather than a field error; only `billed` and `canceled` are ever accepted.
 */
export const updateTransactionBody = z
  .strictObject({
    status: z.enum(TRANSACTION_STATUSES, { error: `must be one of ${TRANSACTION_STATUSES.join(", ")}` }).optional(),
    ...referenceFields,
    origin: z.enum(TRANSACTION_ORIGINS, { error: `must be one of ${TRANSACTION_ORIGINS.join(", ")}` }).optional(),
    items: itemList(transactionItem).optional(),
  })
  .superRefine(oneDiscount);
export type UpdateTransactionInput = z.infer<typeof updateTransactionBody>;

/** An address for a preview without a stored one: the country (and postal code) set the tax. */
export const previewAddress = z.strictObject(
  { country_code: countryCode, postal_code: maxText(200).nullable().optional() },
  { error: "must be an object with country_code, or null" },
);
export type PreviewAddressInput = z.infer<typeof previewAddress>;

/** Accepted and echoed; locating a customer by IP address is not done (send `address`). */
const customerIpAddress = z
  .string({ error: "must be an IPv4 or IPv6 address" })
  .refine(
    (value) => z.ipv4().safeParse(value).success || z.ipv6().safeParse(value).success,
    "must be an IPv4 or IPv6 address",
  )
  .nullable()
  .optional();

function oneAddress(value: { address_id?: unknown; address?: unknown }, ctx: z.RefinementCtx): void {
  if (value.address_id != null && value.address != null) {
    ctx.addIssue({
      code: "custom",
      path: ["address"],
      message: "send either address_id (a stored address) or address, not both",
    });
  }
}

/** POST /transactions/preview: a transaction's items and references, nothing saved. */
export const previewTransactionBody = z
  .strictObject({
    items: itemList(previewItem),
    customer_id: entityId("ctm").nullable().optional(),
    address_id: entityId("add").nullable().optional(),
    business_id: entityId("biz").nullable().optional(),
    currency_code: currencyCode.nullable().optional(),
    discount_id: entityId("dsc").nullable().optional(),
    discount: nonCatalogueDiscount.nullable().optional(),
    customer_ip_address: customerIpAddress,
    address: previewAddress.nullable().optional(),
    ignore_trials: bool.nullable().optional(),
  })
  .superRefine(oneDiscount)
  .superRefine(oneAddress);
export type PreviewTransactionInput = z.infer<typeof previewTransactionBody>;

/** POST /pricing-preview: catalogue prices only, each priced on its own. */
export const pricingPreviewBody = z
  .strictObject({
    items: itemList(
      z.strictObject(
        { price_id: entityId("pri"), quantity: itemQuantity },
        { error: "must be an object with price_id and quantity" },
      ),
    ),
    customer_id: entityId("ctm").nullable().optional(),
    address_id: entityId("add").nullable().optional(),
    business_id: entityId("biz").nullable().optional(),
    currency_code: currencyCode.nullable().optional(),
    discount_id: entityId("dsc").nullable().optional(),
    customer_ip_address: customerIpAddress,
    address: previewAddress.nullable().optional(),
  })
  .superRefine(oneAddress);
export type PricingPreviewInput = z.infer<typeof pricingPreviewBody>;

// ---------------------------------------------------------------------------------------------
// Path and query

export const transactionParams = z.object({ transaction_id: entityId("txn") });

export const transactionQuery = z.object({ include: transactionInclude.optional() });
export type TransactionQuery = z.infer<typeof transactionQuery>;

/** Date-time filters: `created_at=` (exactly), `created_at[LT]=`, `[LTE]`, `[GT]`, `[GTE]`. */
export const RANGE_OPERATORS = { LT: "<", LTE: "<=", GT: ">", GTE: ">=" } as const;
export type RangeOperator = keyof typeof RANGE_OPERATORS;

const RANGE_FIELDS = ["created_at", "updated_at", "billed_at"] as const;
export type RangeField = (typeof RANGE_FIELDS)[number];

function rangeParams<F extends string>(field: F) {
  return {
    [field]: dateTime.optional(),
    [`${field}[LT]`]: dateTime.optional(),
    [`${field}[LTE]`]: dateTime.optional(),
    [`${field}[GT]`]: dateTime.optional(),
    [`${field}[GTE]`]: dateTime.optional(),
  } as Record<F | `${F}[${RangeOperator}]`, z.ZodOptional<typeof dateTime>>;
}

/** order_by: keyset pagination needs an indexed, never-NULL key (billed_at: not yet billed first). */
export const TRANSACTION_ORDER_FIELDS = ["id", "created_at", "updated_at", "billed_at"] as const;

export const listTransactionsQuery = z.object({
  ...listQuery(TRANSACTION_ORDER_FIELDS),
  id: csv(entityId("txn")).optional(),
  status: csv(z.enum(TRANSACTION_STATUSES, { error: `must be one of ${TRANSACTION_STATUSES.join(", ")}` })).optional(),
  customer_id: csv(entityId("ctm")).optional(),
  subscription_id: csv(entityId("sub")).optional(),
  invoice_number: csv(z.string().max(200, "must be at most 200 characters")).optional(),
  collection_mode: collectionMode.optional(),
  origin: csv(z.enum(TRANSACTION_ORIGINS, { error: `must be one of ${TRANSACTION_ORIGINS.join(", ")}` })).optional(),
  /**
   * Ours: `true` keeps the unresolved payment failures — transactions whose latest payment attempt
   * failed and that are neither paid nor canceled since; `false` the others.
   */
  payment_failed: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .optional(),
  ...rangeParams("created_at"),
  ...rangeParams("updated_at"),
  ...rangeParams("billed_at"),
  include: transactionInclude.optional(),
});
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuery>;

/** The date-time filters a list query holds: [field, operator (null: exactly), value]. */
export function rangeFilters(query: ListTransactionsQuery): [RangeField, RangeOperator | null, string][] {
  const out: [RangeField, RangeOperator | null, string][] = [];
  const values = query as unknown as Record<string, string | undefined>;
  for (const field of RANGE_FIELDS) {
    if (values[field] !== undefined) out.push([field, null, values[field]]);
    for (const op of Object.keys(RANGE_OPERATORS) as RangeOperator[]) {
      const value = values[`${field}[${op}]`];
      if (value !== undefined) out.push([field, op, value]);
    }
  }
  return out;
}
