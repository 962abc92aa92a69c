/**
 * Event types in plain words for merchants ("Transaction payment failed" for
 * `transaction.payment_failed`); the raw name stays available (shown on hover) for developers.
 */
const WORDS: Record<string, string> = {
  "transaction.billed": "Invoice issued",
  "transaction.paid": "Transaction paid",
  "transaction.completed": "Transaction completed",
  "transaction.payment_failed": "Payment failed",
  "transaction.past_due": "Invoice past due",
  "transaction.ready": "Transaction ready to pay",
  "subscription.past_due": "Subscription past due",
  "subscription.trialing": "Trial started",
  "adjustment.created": "Refund or credit requested",
  "adjustment.updated": "Refund or credit updated",
  "payment_method.saved": "Payment method saved",
  "payment_method.deleted": "Payment method removed",
  "report.created": "Report requested",
  "report.updated": "Report updated",
};

export function eventName(type: string): string {
  const known = WORDS[type];
  if (known) return known;
  const [entity = "", action = ""] = type.split(".");
  const noun = entity.replace(/_/g, " ");
  return `${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${action.replace(/_/g, " ")}`.trim();
}
