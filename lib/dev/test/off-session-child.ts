/**
 * A process for the kill -9 test of off-session charges (app/api/subscriptions/stripe-off-session.test.ts):
 * runs the engine's sweep with a hook that, once Stripe has answered a charge and before the answer
 * is settled, prints "answered <attempt id>" and waits for ever — the parent SIGKILLs it there.
 */
import { offSessionHooks } from "../../services/payments/off-session.ts";
import { processDueSubscriptions } from "../../services/subscriptions/engine.ts";

offSessionHooks.afterAnswer = async (attempt, payment) => {
  console.log(`answered ${attempt.id} ${payment.reference} ${payment.status}`);
  await new Promise(() => {});
};
await processDueSubscriptions();
console.log("done");
process.exit(0);
