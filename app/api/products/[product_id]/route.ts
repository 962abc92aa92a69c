import { route } from "@/lib/http/route";
import { productResponseSchema } from "@/lib/schemas/price";
import { getProductQuery, productParams, productSchema, updateProductBody } from "@/lib/schemas/product";
import { getProduct, updateProduct } from "@/lib/services/products";

export const GET = route(
  {
    summary: "Get a product.",
    response: productResponseSchema,
    permission: "product.read",
    params: productParams,
    query: getProductQuery,
  },
  ({ input }) => getProduct(input.params.product_id, input.query),
);

export const PATCH = route(
  {
    summary: "Update a product.",
    response: productSchema,
    permission: "product.write",
    params: productParams,
    body: updateProductBody,
  },
  ({ input }) => updateProduct(input.params.product_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
