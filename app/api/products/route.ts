import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { productResponseSchema } from "@/lib/schemas/price";
import { createProductBody, listProductsQuery, productSchema } from "@/lib/schemas/product";
import { createProduct, listProducts } from "@/lib/services/products";

export const GET = route(
  {
    summary: "List products.",
    response: paginated(productResponseSchema),
    permission: "product.read",
    query: listProductsQuery,
  },
  async ({ input }) => listOfJson(await listProducts(input.query)),
);

export const POST = route(
  {
    summary: "Create a product.",
    response: productSchema,
    permission: "product.write",
    body: createProductBody,
    status: 201,
  },
  ({ input }) => createProduct(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
