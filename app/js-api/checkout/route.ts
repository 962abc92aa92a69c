/** The client-side library's "open checkout": client-side token only (lib/http/client-route.ts). */
import { clientMethodNotAllowed, clientPreflight, clientRoute } from "@/lib/http/client-route";
import { jsCheckoutBody } from "@/lib/schemas/client-token";
import { jsOpenCheckout } from "@/lib/services/client-library";

export const POST = clientRoute({ body: jsCheckoutBody, status: 201 }, ({ input, request }) =>
  jsOpenCheckout(input.body, request.headers.get("origin")),
);
export const OPTIONS = clientPreflight;
export {
  clientMethodNotAllowed as GET,
  clientMethodNotAllowed as PUT,
  clientMethodNotAllowed as PATCH,
  clientMethodNotAllowed as DELETE,
};
