/** The client-side library's pricing preview: client-side token only (lib/http/client-route.ts). */
import { clientMethodNotAllowed, clientPreflight, clientRoute } from "@/lib/http/client-route";
import { jsPricingPreviewBody } from "@/lib/schemas/client-token";
import { jsPricingPreview } from "@/lib/services/client-library";

export const POST = clientRoute({ body: jsPricingPreviewBody }, ({ input, request }) =>
  jsPricingPreview(input.body, request.headers.get("origin")),
);
export const OPTIONS = clientPreflight;
export {
  clientMethodNotAllowed as GET,
  clientMethodNotAllowed as PUT,
  clientMethodNotAllowed as PATCH,
  clientMethodNotAllowed as DELETE,
};
