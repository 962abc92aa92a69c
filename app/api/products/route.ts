import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { createProductBody, listProductsQuery } from "@/lib/schemas/product";
import { createProduct, listProducts } from "@/lib/services/products";

export const GET = route({ permission: "product.read", query: listProductsQuery }, async ({ input }) =>
  listOfJson(await listProducts(input.query)),
);

export const POST = route({ permission: "product.write", body: createProductBody, status: 201 }, ({ input }) =>
  createProduct(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
