import { openApiDocument } from "@/lib/http/openapi";
import { type DeclaredHandler, route } from "@/lib/http/route";
import { ROUTES } from "./routes";

let document: string | undefined;

/** The OpenAPI 3.1 document of this API, built once from the route declarations (lib/http/openapi.ts). */
export const GET: DeclaredHandler = route(
  { permission: "public", summary: "The OpenAPI 3.1 document of this API.", response: "json_document" },
  async (): Promise<Response> => {
    document ??= JSON.stringify(openApiDocument([...ROUTES, { path: "/openapi.json", module: { GET } }]));
    return new Response(document, {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300" },
    });
  },
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
