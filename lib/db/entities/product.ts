import type { Product } from "../../schemas/product.ts";
import { type EntityTable, ts } from "../sql.ts";

/** The product's API shape (spec: Product), in the spec's field order. */
export const PRODUCT: EntityTable<Product> = {
  table: "products",
  fields: [
    ["id", "t.id"],
    ["name", "t.name"],
    ["description", "t.description"],
    ["type", "t.type"],
    ["tax_category", "t.tax_category"],
    ["image_url", "t.image_url"],
    ["custom_data", "t.custom_data"],
    ["status", "t.status"],
    ["import_meta", "t.import_meta"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
  // Never NULL (keyset pagination compares values): nullable columns sort as empty text.
  orderColumns: {
    created_at: "t.created_at",
    custom_data: "coalesce(t.custom_data::text, '')",
    description: "coalesce(t.description, '')",
    image_url: "coalesce(t.image_url, '')",
    name: "t.name",
    status: "t.status",
    tax_category: "t.tax_category",
    updated_at: "t.updated_at",
  },
};
