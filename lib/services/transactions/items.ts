/**
 * A transaction's items: resolving the request's items (catalogue prices by `price_id`,
 * non-catalogue `price` objects) into prices and products, with every problem named by the item's
 * field; creating the non-catalogue prices (type `custom`) when a transaction is saved; and
 * storing and reading the item rows.
 *
 * An item row keeps the price and the product as they were when the item was added (their API
 * JSON, in the API's key order): the response's `items[].price` and `details.line_items[].product`
 * come from there, so a billed transaction keeps showing what was billed after the catalogue moves.
 */
import type pg from "pg";
import type { Ratio } from "../../billing/money.ts";
import { PRICE } from "../../db/entities/price.ts";
import { PRODUCT } from "../../db/entities/product.ts";
import { jsonObject, type Queryable, query, relatedJson, storableJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import type { Price } from "../../schemas/price.ts";
import { DEFAULT_QUANTITY } from "../../schemas/price.ts";
import type { Product } from "../../schemas/product.ts";
import type { NonCataloguePriceInput, PreviewItemInput } from "../../schemas/transaction.ts";
import { insertPrice } from "../prices.ts";
import { createProduct } from "../products.ts";
import type { Problems } from "./references.ts";

/** A price's API JSON; a non-catalogue price not (yet) saved has a null ID (timestamps: unsavedAt). */
export type PriceJson = Omit<Price, "id" | "product_id"> & {
  id: string | null;
  product_id: string | null;
};
export type ProductJson = Omit<Product, "id"> & {
  id: string | null;
};

/** One item of a transaction, resolved. */
export interface ResolvedItem {
  /** `items[2]`: the prefix of the item's field errors. */
  field: string;
  /** Whether the request named a catalogue price (`price_id`) rather than sending a `price`. */
  catalogue: boolean;
  price: PriceJson;
  product: ProductJson;
  quantity: number;
  /** Previews only: false lists the item without counting it in the totals. */
  includeInTotals: boolean;
  /** A non-catalogue price to create when the transaction is saved (null once created). */
  newPrice: NonCataloguePriceInput | null;
  /** The `txnitm_` ID, once stored. */
  id: string | null;
  /**
   * Subscription lines only: a prorated line's `proration` (`rate` as the API writes it, the exact
   * ratio the engine uses, and the billing period it covers), and `credit` for a line that gives
   * back a removed or reduced item (stored and shown with a negative quantity).
   */
  proration?: LineProration | null;
  credit?: boolean;
}

export interface LineProration {
  rate: string;
  ratio: Ratio;
  billing_period: { starts_at: string; ends_at: string };
}

/** The API's `proration` of a line (without the engine's exact ratio). */
export function prorationJson(
  p: LineProration | null | undefined,
): { rate: string; billing_period: LineProration["billing_period"] } | null {
  return p ? { rate: p.rate, billing_period: p.billing_period } : null;
}

interface CatalogueRow {
  id: string;
  price: string;
  product: string;
}

const PRICE_WITH_PRODUCT = `${jsonObject(PRICE)}::text AS price,
  ${relatedJson(PRODUCT, "t.id = parent.product_id", false)}::text AS product`;

/**
 * The items of a request. `lock` share-locks the catalogue prices and products read until the
 * transaction commits (a concurrent archive waits), for requests that save a transaction.
 */
export async function resolveItems(
  inputs: readonly PreviewItemInput[],
  problems: Problems,
  on: Queryable,
  lock: boolean,
): Promise<ResolvedItem[]> {
  const priceIds = [...new Set(inputs.flatMap((item) => (item.price_id ? [item.price_id] : [])))];
  const productIds = [...new Set(inputs.flatMap((item) => (item.price?.product_id ? [item.price.product_id] : [])))];
  const [catalogue, products] = await Promise.all([
    priceIds.length === 0
      ? []
      : query<CatalogueRow>(
          `SELECT t.id, ${PRICE_WITH_PRODUCT} FROM prices t WHERE t.id = ANY($1)${lock ? " FOR SHARE" : ""}`,
          [priceIds],
          on,
        ),
    productIds.length === 0
      ? []
      : query<{ id: string; j: string }>(
          `SELECT t.id, ${jsonObject(PRODUCT)}::text AS j FROM products t WHERE t.id = ANY($1)${lock ? " FOR SHARE" : ""}`,
          [productIds],
          on,
        ),
  ]);
  const prices = new Map(catalogue.map((row) => [row.id, row]));
  const productsById = new Map(products.map((row) => [row.id, JSON.parse(row.j) as ProductJson]));
  const firstUse = new Map<string, number>();

  const items: ResolvedItem[] = [];
  inputs.forEach((input, index) => {
    const field = `items[${index}]`;
    const includeInTotals = input.include_in_totals ?? true;
    if (input.price_id) {
      const id = input.price_id;
      const seen = firstUse.get(id);
      if (seen !== undefined) {
        problems.field(
          `${field}.price_id`,
          `repeats items[${seen}].price_id: send one item per price, with the total quantity`,
        );
        return;
      }
      firstUse.set(id, index);
      const row = prices.get(id);
      if (!row) {
        problems.field(`${field}.price_id`, `no price has the ID ${id}`);
        return;
      }
      const price = JSON.parse(row.price) as PriceJson;
      const product = JSON.parse(row.product) as ProductJson;
      if (price.status === "archived") {
        problems.archivedField(`${field}.price_id`, `${id} is archived: set its status to active to sell it again`);
      } else if (product.status === "archived") {
        problems.archivedField(
          `${field}.price_id`,
          `${id} is a price of archived product ${product.id}: set the product's status to active to sell it again`,
        );
      }
      checkQuantity(field, input.quantity, price, problems);
      items.push({
        field,
        catalogue: true,
        price,
        product,
        quantity: input.quantity,
        includeInTotals,
        newPrice: null,
        id: null,
      });
      return;
    }
    const spec = input.price as NonCataloguePriceInput;
    let product: ProductJson;
    if (spec.product_id) {
      const found = productsById.get(spec.product_id);
      if (!found) {
        problems.field(`${field}.price.product_id`, `no product has the ID ${spec.product_id}`);
        return;
      }
      if (found.status === "archived") {
        problems.archivedField(
          `${field}.price.product_id`,
          `${spec.product_id} is archived: prices cannot be added to an archived product`,
        );
      }
      product = found;
    } else {
      product = unsavedProduct(spec);
    }
    const price = unsavedPrice(spec, product.id);
    checkQuantity(field, input.quantity, price, problems);
    items.push({
      field,
      catalogue: false,
      price,
      product,
      quantity: input.quantity,
      includeInTotals,
      newPrice: spec,
      id: null,
    });
  });
  return items;
}

function checkQuantity(field: string, quantity: number, price: PriceJson, problems: Problems): void {
  const { minimum, maximum } = price.quantity;
  if (quantity < minimum || quantity > maximum) {
    const of = price.id ? `price ${price.id}` : "the price";
    problems.field(`${field}.quantity`, `must be ${minimum} to ${maximum}: the quantity limits of ${of}`);
  }
}

/**
 * When a price or product not saved yet is shown (a preview, or an item before its transaction is
 * written): now. The family's previews carry a timestamp there, never null (its schema has none),
 * as its SDKs read it as a date-time.
 */
function unsavedAt(): string {
  return new Date().toISOString().replace(/Z$/, "000Z");
}

/** The product of a non-catalogue price with a new `product`, before it is saved. */
function unsavedProduct(spec: NonCataloguePriceInput): ProductJson {
  const at = unsavedAt();
  const product = spec.product;
  return {
    id: null,
    name: product?.name ?? "",
    description: product?.description ?? null,
    type: "custom",
    tax_category: product?.tax_category ?? "standard",
    image_url: product?.image_url ?? null,
    custom_data: product?.custom_data ?? null,
    status: "active",
    import_meta: null,
    created_at: at,
    updated_at: at,
  };
}

/** A non-catalogue price before it is saved, in the price's API shape. */
function unsavedPrice(spec: NonCataloguePriceInput, productId: string | null): PriceJson {
  const at = unsavedAt();
  return {
    id: null,
    product_id: productId,
    type: "custom",
    description: spec.description,
    name: spec.name ?? null,
    tax_mode: spec.tax_mode ?? "account_setting",
    billing_cycle: spec.billing_cycle ?? null,
    trial_period: spec.trial_period ?? null,
    unit_price: spec.unit_price,
    unit_price_overrides: spec.unit_price_overrides ?? [],
    custom_data: spec.custom_data ?? null,
    status: "active",
    quantity: spec.quantity ?? DEFAULT_QUANTITY,
    import_meta: null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * Creates the non-catalogue prices (and products) of `items` as entities of type `custom`, with
 * their `product.created` and `price.created` events, in the caller's database transaction.
 */
export async function saveNewPrices(items: ResolvedItem[], client: pg.PoolClient): Promise<void> {
  for (const item of items) {
    const spec = item.newPrice;
    if (!spec) continue;
    let productId = spec.product_id;
    if (!productId) {
      const product = spec.product;
      if (!product) throw new Error("a non-catalogue price without product_id or product passed validation");
      const created = (await createProduct({ ...product, type: "custom" }, client)).parse();
      item.product = created as ProductJson;
      productId = created.id;
    }
    const { product: _product, product_id: _productId, ...price } = spec;
    item.price = (await insertPrice({ ...price, product_id: productId, type: "custom" }, client)).parse() as PriceJson;
    item.newPrice = null;
  }
}

/** Replaces the item rows of transaction `transactionId` with `items` (new `txnitm_` IDs). */
export async function writeItems(client: pg.PoolClient, transactionId: string, items: ResolvedItem[]): Promise<void> {
  await query("DELETE FROM transaction_items WHERE transaction_id = $1", [transactionId], client);
  await insertItems(client, [{ transactionId, items }]);
}

/**
 * Inserts the items of transactions that have none yet (new ones: no DELETE first), every
 * transaction's in one statement; sets each item's `id`.
 */
export async function insertItems(
  client: pg.PoolClient,
  transactions: readonly { transactionId: string; items: ResolvedItem[] }[],
): Promise<void> {
  const rows = transactions.flatMap(({ transactionId, items }) =>
    items.map((item, position) => {
      item.id = newId("txnitm");
      return { transactionId, position, item };
    }),
  );
  if (rows.length === 0) return;
  await query(
    `INSERT INTO transaction_items (id, transaction_id, position, price_id, quantity, price, product, proration)
     SELECT x.id, x.transaction_id, x.position, x.price_id, x.quantity, x.price::json, x.product::json, x.proration::json
       FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[])
         AS x(id, transaction_id, position, price_id, quantity, price, product, proration)`,
    [
      rows.map(({ item }) => item.id),
      rows.map(({ transactionId }) => transactionId),
      rows.map(({ position }) => position),
      rows.map(({ item }) => item.price.id),
      rows.map(({ item }) => (item.credit ? -item.quantity : item.quantity)),
      rows.map(({ item }) => storableJson(item.price)),
      rows.map(({ item }) => storableJson(item.product)),
      rows.map(({ item }) => (item.proration ? storableJson(prorationJson(item.proration)) : null)),
    ],
    client,
  );
}

/** The stored items of a transaction, in order, as resolved items. */
export async function storedItems(client: Queryable, transactionId: string): Promise<ResolvedItem[]> {
  const rows = await query<{ id: string; quantity: number; price: string; product: string }>(
    `SELECT id, quantity, price::text AS price, product::text AS product
       FROM transaction_items WHERE transaction_id = $1 ORDER BY position`,
    [transactionId],
    client,
  );
  return rows.map((row, index) => ({
    field: `items[${index}]`,
    catalogue: true,
    price: JSON.parse(row.price) as PriceJson,
    product: JSON.parse(row.product) as ProductJson,
    quantity: row.quantity,
    includeInTotals: true,
    newPrice: null,
    id: row.id,
  }));
}
