import { route } from "@/lib/http/route";
import { getProductQuery, productParams, updateProductBody } from "@/lib/schemas/product";
import { getProduct, updateProduct } from "@/lib/services/products";

export const GET = route({ permission: "product.read", params: productParams, query: getProductQuery }, ({ input }) =>
  getProduct(input.params.product_id, input.query),
);

export const PATCH = route(
  { permission: "product.write", params: productParams, body: updateProductBody },
  ({ input }) => updateProduct(input.params.product_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
