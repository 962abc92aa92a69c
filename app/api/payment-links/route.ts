import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { createPaymentLinkBody, listPaymentLinksQuery, paymentLinkSchema } from "@/lib/schemas/payment-link";
import { createPaymentLink, listPaymentLinks } from "@/lib/services/payment-links";

export const GET = route(
  {
    summary: "List payment links (ours).",
    response: paginated(paymentLinkSchema),
    permission: "payment_link.read",
    query: listPaymentLinksQuery,
  },
  async ({ input }) => listOfJson(await listPaymentLinks(input.query)),
);

export const POST = route(
  {
    summary: "Create a payment link (ours): a public page that sells catalogue prices.",
    response: paymentLinkSchema,
    permission: "payment_link.write",
    body: createPaymentLinkBody,
    status: 201,
  },
  ({ input }) => createPaymentLink(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
