import type { ProductWithPrices } from "../../schemas/price.ts";
import type { Product } from "../../schemas/product.ts";
import { includable } from "../sql.ts";
import { PRICE } from "./price.ts";
import { PRODUCT } from "./product.ts";

/**
 * The product with `include=prices`: every price of the product, archived ones too, ordered by ID
 * and not paginated, as the API family includes related entities.
 */
export const productEntity = includable<Product, ProductWithPrices>(
  PRODUCT,
  "prices",
  () => PRICE,
  "t.product_id = parent.id",
  true,
);
