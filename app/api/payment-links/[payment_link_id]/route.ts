import { route } from "@/lib/http/route";
import { paymentLinkParams, paymentLinkSchema, updatePaymentLinkBody } from "@/lib/schemas/payment-link";
import { getPaymentLink, updatePaymentLink } from "@/lib/services/payment-links";

export const GET = route(
  {
    summary: "Get a payment link (ours).",
    response: paymentLinkSchema,
    permission: "payment_link.read",
    params: paymentLinkParams,
  },
  ({ input }) => getPaymentLink(input.params.payment_link_id),
);

export const PATCH = route(
  {
    summary: "Archive, reactivate or change the success URL of a payment link (ours).",
    response: paymentLinkSchema,
    permission: "payment_link.write",
    params: paymentLinkParams,
    body: updatePaymentLinkBody,
  },
  ({ input }) => updatePaymentLink(input.params.payment_link_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
