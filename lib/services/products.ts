import { PRODUCT } from "../db/entities/product.ts";
import { productEntity } from "../db/entities/product-with-prices.ts";
import {
  getJson,
  insertJson,
  type JsonPage,
  jsonb,
  listJson,
  Params,
  type Queryable,
  type RawJson,
  sqlTransaction,
  updateJson,
} from "../db/sql.ts";
import { notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type {
  CreateProductInput,
  GetProductQuery,
  ListProductsQuery,
  Product,
  UpdateProductInput,
} from "../schemas/product.ts";
import { lockChangeable } from "./archived.ts";

export async function getProduct(id: string, options: GetProductQuery = {}): Promise<RawJson<Product>> {
  const product = await getJson(productEntity(options.include), "t.id = $1", [id]);
  if (!product) throw notFound(id);
  return product as RawJson<Product>;
}

/** Inserts a product with its `product.created` event; `on`: a transaction's client, if any. */
export async function createProduct(input: CreateProductInput, on?: Queryable): Promise<RawJson<Product>> {
  return insertJson(
    PRODUCT,
    {
      id: newId("pro"),
      name: input.name,
      description: input.description ?? null,
      type: input.type ?? "standard",
      tax_category: input.tax_category,
      image_url: input.image_url ?? null,
      custom_data: jsonb(input.custom_data ?? null),
    },
    "product.created",
    on,
  );
}

export async function updateProduct(id: string, input: UpdateProductInput): Promise<RawJson<Product>> {
  // The archived rule needs the stored status, locked until the update commits, so that a
  // concurrent archive cannot slip between the check and the change.
  const updated = await sqlTransaction(async (client) => {
    if (!(await lockChangeable(client, "products", id, input))) return null;
    return updateJson(
      PRODUCT,
      { sql: "t.id = $1", values: [id] },
      {
        name: input.name,
        description: input.description,
        type: input.type,
        tax_category: input.tax_category,
        image_url: input.image_url,
        custom_data: jsonb(input.custom_data),
        status: input.status,
      },
      "product.updated",
      client,
    );
  });
  if (!updated) throw notFound(id);
  return updated;
}

export function listProducts(query: ListProductsQuery): Promise<JsonPage> {
  const params = new Params();
  // As in the API family: only active products unless `status` asks for others.
  const filters = [params.oneOf("t.status", query.status ?? ["active"])];
  if (query.id) filters.push(params.oneOf("t.id", query.id));
  if (query.tax_category) filters.push(params.oneOf("t.tax_category", query.tax_category));
  if (query.type) filters.push(`t.type = ${params.add(query.type)}`);
  if (query.search) {
    const term = query.search.trim();
    const like = params.add(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    filters.push(`(t.id = ${params.add(term)} OR t.name ILIKE ${like} OR t.description ILIKE ${like})`);
  }
  return listJson(productEntity(query.include), {
    filters,
    params,
    orderBy: query.order_by,
    after: query.after,
    perPage: query.per_page,
  });
}
