import { answerWithHeaders, REVISION_HEADER } from "@/lib/http/answer-with-headers";
import { route } from "@/lib/http/route";
import { discountParams, discountSchema, getDiscountQuery, updateDiscountBody } from "@/lib/schemas/discount";
import { getDiscount, updateDiscount } from "@/lib/services/discounts";

// Both answer the discount's current revision in the Service-Revision-Id header (ours; the family's
// discount has no field for it): the revision to name in `PATCH /discounts/dsc_…@dscrev_…`, so
// that a change made meanwhile by someone else is a 409 conflict, not overwritten. GET accepts the
// `dsc_…@dscrev_…` form too and returns the discount as it is now: compare the header with the
// revision named. `include=revision` adds the revision to the body as `revision_id`.
export const GET = route(
  {
    summary:
      "Get a discount (also by `dsc_…@dscrev_…`); its current revision is in the Service-Revision-Id header, and in `revision_id` with `include=revision`.",
    response: discountSchema,
    permission: "discount.read",
    params: discountParams,
    query: getDiscountQuery,
  },
  async ({ input, requestId }) => {
    const { discount, revisionId } = await getDiscount(input.params.discount_id, input.query.include);
    return answerWithHeaders(discount, requestId, { [REVISION_HEADER]: revisionId });
  },
);

export const PATCH = route(
  {
    summary:
      "Update a discount (by `dsc_…@dscrev_…`: only while that is its current revision); its new revision is in the Service-Revision-Id header.",
    response: discountSchema,
    permission: "discount.write",
    params: discountParams,
    body: updateDiscountBody,
  },
  async ({ input, requestId }) => {
    const { discount, revisionId } = await updateDiscount(
      input.params.discount_id,
      input.params.revision_id,
      input.body,
    );
    return answerWithHeaders(discount, requestId, { [REVISION_HEADER]: revisionId });
  },
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
