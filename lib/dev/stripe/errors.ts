/**
 * Stripe's error objects (docs.stripe.com/api/errors): `{ error: { type, code, decline_code,
 * message, param, doc_url, payment_intent, setup_intent, payment_method, charge } }` with Stripe's
 * HTTP statuses: 400 bad parameters (and `idempotency_error`), 401 no or bad key, 402 the request
 * was valid but failed (card errors), 404 no such object or URL, 409 a key still in flight.
 * The `stripe` package turns these into StripeInvalidRequestError, StripeAuthenticationError,
 * StripeCardError, StripeIdempotencyError… by status and type.
 */

export type ErrorType = "api_error" | "card_error" | "idempotency_error" | "invalid_request_error";

export interface StripeErrorBody {
  type: ErrorType;
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: unknown;
  setup_intent?: unknown;
  payment_method?: unknown;
  advice_code?: string;
}

export class StandInError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }

  /** The same error with more fields (the intent the request was about). */
  with(extra: Partial<StripeErrorBody>): StandInError {
    return new StandInError(this.status, { ...this.body, ...extra });
  }
}

function docUrl(code: string | undefined): string | undefined {
  return code ? `https://docs.stripe.com/error-codes/${code.replace(/_/g, "-")}` : undefined;
}

export function invalidRequest(message: string, options: { code?: string; param?: string; status?: number } = {}) {
  return new StandInError(options.status ?? 400, {
    type: "invalid_request_error",
    message,
    ...(options.code ? { code: options.code, doc_url: docUrl(options.code) } : {}),
    ...(options.param ? { param: options.param } : {}),
  });
}

export function missing(kind: string, id: string, param = "id"): StandInError {
  return new StandInError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    doc_url: docUrl("resource_missing"),
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

export function unknownParameter(name: string): StandInError {
  return invalidRequest(`Received unknown parameter: ${name}`, { code: "parameter_unknown", param: name });
}

export function missingParameter(name: string): StandInError {
  return invalidRequest(`Missing required param: ${name}.`, { code: "parameter_missing", param: name });
}

/** The messages Stripe shows for its decline codes (the ones the stand-in's cards produce). */
const DECLINE_MESSAGES: Record<string, string> = {
  generic_decline: "Your card was declined.",
  insufficient_funds: "Your card has insufficient funds.",
  authentication_required: "Your card was declined. This transaction requires authentication.",
  test_mode_live_card:
    "Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.",
};

export function declineMessage(declineCode: string): string {
  return DECLINE_MESSAGES[declineCode] ?? "Your card was declined.";
}

/** A card error (402) as Stripe answers a declined confirmation. */
export function cardError(
  code: string,
  declineCode: string | undefined,
  message: string,
  extra: Partial<StripeErrorBody> = {},
): StandInError {
  return new StandInError(402, {
    type: "card_error",
    code,
    ...(declineCode ? { decline_code: declineCode } : {}),
    doc_url: docUrl(code),
    message,
    ...extra,
  });
}

export function errorJson(error: StandInError): string {
  return JSON.stringify({ error: error.body }, null, 2);
}
