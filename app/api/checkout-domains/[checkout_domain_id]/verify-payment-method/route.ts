import { route } from "@/lib/http/route";
import {
  checkoutDomainParams,
  checkoutDomainSchema,
  verifyCheckoutDomainPaymentMethodBody,
} from "@/lib/schemas/checkout-domain";
import { verifyCheckoutDomainPaymentMethod } from "@/lib/services/checkout-domains";

export const POST = route(
  {
    summary: "Verify a checkout domain for a payment method (Apple Pay: the domain serves Apple's association file).",
    response: checkoutDomainSchema,
    permission: "checkout_domain.write",
    params: checkoutDomainParams,
    body: verifyCheckoutDomainPaymentMethodBody,
  },
  ({ input }) => verifyCheckoutDomainPaymentMethod(input.params.checkout_domain_id, input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
