/**
 * Opening a payment link (the public page app/pay/[payment_link_id]): the buyer's email and country
 * in, their transaction's hosted checkout out. Public, as the checkout: the link's ID is the
 * capability (lib/services/payment-links.ts).
 */
import { route } from "@/lib/http/route";
import { openedPaymentLinkSchema, openPaymentLinkBody, paymentLinkParams } from "@/lib/schemas/payment-link";
import { openPaymentLink } from "@/lib/services/payment-links";

export const POST = route(
  {
    summary: "Open a payment link for a buyer: a transaction and its hosted checkout (public).",
    response: openedPaymentLinkSchema,
    permission: "public",
    params: paymentLinkParams,
    body: openPaymentLinkBody,
    status: 201,
  },
  ({ input }) => openPaymentLink(input.params.payment_link_id, input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
