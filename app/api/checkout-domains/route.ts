import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import {
  checkoutDomainSchema,
  createCheckoutDomainBody,
  listCheckoutDomainsQuery,
} from "@/lib/schemas/checkout-domain";
import { createCheckoutDomain, listCheckoutDomains } from "@/lib/services/checkout-domains";

export const GET = route(
  {
    summary: "List checkout domains.",
    response: paginated(checkoutDomainSchema),
    permission: "checkout_domain.read",
    query: listCheckoutDomainsQuery,
  },
  async ({ input }) => listOfJson(await listCheckoutDomains(input.query)),
);

export const POST = route(
  {
    summary: "Add a checkout domain (approved at once: see lib/services/checkout-domains.ts).",
    response: checkoutDomainSchema,
    permission: "checkout_domain.write",
    body: createCheckoutDomainBody,
    status: 201,
  },
  ({ input }) => createCheckoutDomain(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
