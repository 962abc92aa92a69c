/**
 * Product schemas (spec: Product, GET /products, PATCH /products/{product_id}): request bodies,
 * query parameters and the response shape. Client-safe: the dashboard's forms import these.
 */
import { z } from "zod";
import { csv, customData, entityId, includeParam, listQuery, maxText, requiredText, statusEnum } from "./common.ts";

/**
 * The tax categories enabled on the account. The spec names only `standard`; the rest are the
 * categories of the API family. A category that is not in this list is refused on create and
 * update ("must be enabled on the account").
 */
export const TAX_CATEGORIES = [
  "digital-goods",
  "ebooks",
  "implementation-services",
  "professional-services",
  "saas",
  "software-programming-services",
  "standard",
  "training-services",
  "website-hosting",
] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

export const taxCategory = z.enum(TAX_CATEGORIES, {
  error: `must be a tax category enabled on the account: ${TAX_CATEGORIES.join(", ")}`,
});

/** `type` of products and prices: `standard` items belong to the catalogue; `custom` ones do not. */
export const CATALOG_TYPES = ["standard", "custom"] as const;
export const catalogType = z.enum(CATALOG_TYPES, { error: "must be standard or custom" });

export const PRODUCT_NAME_MAX = 200;
export const PRODUCT_DESCRIPTION_MAX = 2048;
export const IMAGE_URL_MAX = 2048;

/** The product as the API returns it (spec: Product), in the spec's field order. */
export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  type: catalogType,
  tax_category: z.string(),
  image_url: z.string().nullable(),
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  status: statusEnum,
  import_meta: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * `image_url`: the caller hosts the image on a public HTTPS server (spec: Product), so only an
 * absolute https URL is accepted; the service never fetches or stores the image.
 */
export const imageUrl = z
  .string({ error: "must be an absolute https URL or null" })
  .max(IMAGE_URL_MAX, { error: `must be at most ${IMAGE_URL_MAX} characters`, abort: true })
  .refine(isHttpsUrl, "must be an absolute https URL, such as https://example.com/image.png");

const productFields = {
  name: requiredText(PRODUCT_NAME_MAX),
  description: maxText(PRODUCT_DESCRIPTION_MAX).nullable(),
  type: catalogType,
  tax_category: taxCategory,
  image_url: imageUrl.nullable(),
  custom_data: customData,
};

export const createProductBody = z.strictObject({
  name: productFields.name,
  tax_category: productFields.tax_category,
  description: productFields.description.optional(),
  type: productFields.type.optional(),
  image_url: productFields.image_url.optional(),
  custom_data: productFields.custom_data.optional(),
});
export type CreateProductInput = z.infer<typeof createProductBody>;

export const updateProductBody = z.strictObject({
  name: productFields.name.optional(),
  description: productFields.description.optional(),
  type: productFields.type.optional(),
  tax_category: productFields.tax_category.optional(),
  image_url: productFields.image_url.optional(),
  custom_data: productFields.custom_data.optional(),
  status: statusEnum.optional(),
});
export type UpdateProductInput = z.infer<typeof updateProductBody>;

export const productParams = z.object({ product_id: entityId("pro") });

/** `include=prices` adds each product's prices (all of them, archived ones too, not paginated). */
export const productInclude = includeParam(["prices"]);

export const getProductQuery = z.object({ include: productInclude.optional() });
export type GetProductQuery = z.infer<typeof getProductQuery>;

export const PRODUCT_ORDER_FIELDS = [
  "created_at",
  "custom_data",
  "description",
  "id",
  "image_url",
  "name",
  "status",
  "tax_category",
  "updated_at",
] as const;

export const listProductsQuery = z.object({
  ...listQuery(PRODUCT_ORDER_FIELDS),
  id: csv(entityId("pro")).optional(),
  status: csv(statusEnum).optional(),
  tax_category: csv(taxCategory).optional(),
  type: catalogType.optional(),
  include: productInclude.optional(),
  /** Our addition to the API family's filters, for the dashboard: matches ID, name and description. */
  search: z.string().max(100, "must be at most 100 characters").optional(),
});
export type ListProductsQuery = z.infer<typeof listProductsQuery>;
