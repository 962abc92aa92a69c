import { route } from "@/lib/http/route";
import { subscriptionParams, testClockSchema } from "@/lib/schemas/subscription";
import { readTestClock } from "@/lib/services/subscriptions/test-clock";

/** Sandbox test clock (ours, beyond the API family): see lib/services/subscriptions/test-clock.ts. */
export const GET = route(
  {
    summary: "Sandbox: where a subscription's test clock stands.",
    response: testClockSchema,
    permission: "subscription.read",
    params: subscriptionParams,
  },
  async ({ input }) => readTestClock(input.params.subscription_id),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
