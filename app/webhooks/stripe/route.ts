/**
 * POST /webhooks/stripe: Stripe's webhook endpoint (issue 21 §6), outside /api and authenticated by
 * its Stripe-Signature alone. Verified, stored by event ID and queued: lib/payments/webhooks.ts.
 */
import { receiveStripeWebhook } from "@/lib/payments/webhooks";

export const POST = receiveStripeWebhook;

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
