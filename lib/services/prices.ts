import type pg from "pg";
import { PRICE, priceEntity } from "../db/entities/price.ts";
import {
  type Columns,
  getJson,
  insertJson,
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
import { ApiError, invalidField, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import {
  type CreatePriceInput,
  DEFAULT_QUANTITY,
  type DurationInput,
  type GetPriceQuery,
  type ListPricesQuery,
  type Price,
  TRIAL_NEEDS_BILLING_CYCLE,
  type UnitPriceOverrideInput,
  type UpdatePriceInput,
} from "../schemas/price.ts";
import { lockChangeable } from "./archived.ts";

export async function getPrice(id: string, options: GetPriceQuery = {}): Promise<RawJson<Price>> {
  const price = await getJson(priceEntity(options.include), "t.id = $1", [id]);
  if (!price) throw notFound(id);
  return price as RawJson<Price>;
}

function durationColumns(prefix: string, value: DurationInput | null | undefined): Columns {
  if (value === undefined) return {};
  return { [`${prefix}_interval`]: value?.interval ?? null, [`${prefix}_frequency`]: value?.frequency ?? null };
}

function overridesValue(overrides: UnitPriceOverrideInput[] | undefined) {
  // Stored with the keys the API returns; the serializer fixes their order.
  return jsonb(
    overrides?.map((o) => ({
      country_codes: o.country_codes,
      unit_price: { amount: o.unit_price.amount, currency_code: o.unit_price.currency_code },
    })),
  );
}

/**
 * The product a new price belongs to, share-locked until the price is inserted so that archiving
 * it waits for (or is seen by) this creation. An unknown product is a field error of the request
 * (it is not the path's entity); an archived one refuses new prices.
 */
async function lockProductForNewPrice(productId: string, client: pg.PoolClient): Promise<void> {
  const [product] = await query<{ status: string }>(
    "SELECT t.status FROM products t WHERE t.id = $1 FOR SHARE",
    [productId],
    client,
  );
  if (!product) throw invalidField("product_id", `no product has the ID ${productId}`);
  if (product.status === "archived") {
    throw new ApiError(
      "entity_archived",
      `${productId} is archived: prices cannot be added to an archived product; set its status to active first.`,
    );
  }
}

export async function createPrice(input: CreatePriceInput): Promise<RawJson<Price>> {
  return sqlTransaction(async (client) => {
    await lockProductForNewPrice(input.product_id, client);
    return insertPrice(input, client);
  });
}

/**
 * Inserts a price with its `price.created` event, on `on` (a transaction's client): for callers
 * that checked the product themselves (non-catalogue prices of a transaction).
 */
export function insertPrice(input: CreatePriceInput, on: Queryable): Promise<RawJson<Price>> {
  const quantity = input.quantity ?? DEFAULT_QUANTITY;
  return insertJson(
    PRICE,
    {
      id: newId("pri"),
      product_id: input.product_id,
      description: input.description,
      name: input.name ?? null,
      type: input.type ?? "standard",
      ...durationColumns("billing_cycle", input.billing_cycle ?? null),
      ...durationColumns("trial_period", input.trial_period ?? null),
      tax_mode: input.tax_mode ?? "account_setting",
      unit_price_amount: input.unit_price.amount,
      unit_price_currency: input.unit_price.currency_code,
      unit_price_overrides: overridesValue(input.unit_price_overrides ?? []),
      quantity_minimum: quantity.minimum,
      quantity_maximum: quantity.maximum,
      custom_data: jsonb(input.custom_data ?? null),
    },
    "price.created",
    on,
  );
}

export async function updatePrice(id: string, input: UpdatePriceInput): Promise<RawJson<Price>> {
  // The archived rule and the trial rule hold for the price as it will be, so they need the
  // stored price, locked until the update commits.
  const updated = await sqlTransaction(async (client) => {
    const current = await lockChangeable<{ recurring: boolean; has_trial: boolean }>(
      client,
      "prices",
      id,
      input,
      "t.billing_cycle_interval IS NOT NULL AS recurring, t.trial_period_interval IS NOT NULL AS has_trial",
    );
    if (!current) return null;
    const recurring = input.billing_cycle !== undefined ? input.billing_cycle !== null : current.recurring;
    const hasTrial = input.trial_period !== undefined ? input.trial_period !== null : current.has_trial;
    if (hasTrial && !recurring) {
      // Name the field the request sent: a trial added to a one-time price, or the cycle removed
      // from a price that keeps its trial.
      if (input.trial_period) throw invalidField("trial_period", TRIAL_NEEDS_BILLING_CYCLE);
      throw invalidField(
        "billing_cycle",
        "cannot be null while the price has a trial_period (set trial_period to null too)",
      );
    }
    return updateJson(
      PRICE,
      { sql: "t.id = $1", values: [id] },
      {
        description: input.description,
        name: input.name,
        type: input.type,
        ...durationColumns("billing_cycle", input.billing_cycle),
        ...durationColumns("trial_period", input.trial_period),
        tax_mode: input.tax_mode,
        unit_price_amount: input.unit_price?.amount,
        unit_price_currency: input.unit_price?.currency_code,
        unit_price_overrides: overridesValue(input.unit_price_overrides),
        quantity_minimum: input.quantity?.minimum,
        quantity_maximum: input.quantity?.maximum,
        custom_data: jsonb(input.custom_data),
        status: input.status,
      },
      "price.updated",
      client,
    );
  });
  if (!updated) throw notFound(id);
  return updated;
}

export function listPrices(query: ListPricesQuery): Promise<JsonPage> {
  const params = new Params();
  // As in the API family: only active prices unless `status` asks for others.
  const filters = [params.oneOf("t.status", query.status ?? ["active"])];
  if (query.id) filters.push(params.oneOf("t.id", query.id));
  if (query.product_id) filters.push(params.oneOf("t.product_id", query.product_id));
  if (query.recurring !== undefined) {
    filters.push(query.recurring ? "t.billing_cycle_interval IS NOT NULL" : "t.billing_cycle_interval IS NULL");
  }
  if (query.type) filters.push(`t.type = ${params.add(query.type)}`);
  return listJson(priceEntity(query.include), {
    filters,
    params,
    orderBy: query.order_by,
    after: query.after,
    perPage: query.per_page,
  });
}
