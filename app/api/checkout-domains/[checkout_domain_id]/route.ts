import { route } from "@/lib/http/route";
import { checkoutDomainParams, checkoutDomainSchema } from "@/lib/schemas/checkout-domain";
import { deleteCheckoutDomain, getCheckoutDomain } from "@/lib/services/checkout-domains";

export const GET = route(
  {
    summary: "Get a checkout domain.",
    response: checkoutDomainSchema,
    permission: "checkout_domain.read",
    params: checkoutDomainParams,
  },
  ({ input }) => getCheckoutDomain(input.params.checkout_domain_id),
);

/** 204 with no body: pages of the domain can no longer use the client-side library. */
export const DELETE = route(
  {
    summary: "Delete a checkout domain (204, no body).",
    response: "no_content",
    permission: "checkout_domain.write",
    params: checkoutDomainParams,
  },
  async ({ input, requestId }) => {
    await deleteCheckoutDomain(input.params.checkout_domain_id);
    return new Response(null, { status: 204, headers: { "x-request-id": requestId } });
  },
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as PATCH } from "@/lib/http/route";
