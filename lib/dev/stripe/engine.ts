/**
 * What happens to money in the stand-in: cards become PaymentMethods, intents are confirmed
 * against the card's behaviour (cards.ts), 3-D Secure challenges are passed or failed, charges
 * settle with a balance transaction and a fee, refunds go pending → succeeded (or failed), disputes
 * open and close, and every change emits the event Stripe emits for it. The HTTP layers (api.ts for
 * Stripe's REST API, control.ts for the test-control API) read parameters and call these.
 *
 * Decisions where Stripe's documentation leaves room, chosen to match what Stripe does in test mode:
 * - A failed confirmation (decline, `authentication_required`) leaves the PaymentIntent in
 *   `requires_payment_method` with `payment_method: null` and `last_payment_error` set, records a
 *   failed charge as `latest_charge`, and answers 402 with the PaymentIntent in the error.
 * - A failed 3-D Secure challenge records no charge; `last_payment_error.code` is
 *   `payment_intent_authentication_failure` (`setup_intent_authentication_failure` for a SetupIntent).
 * - A payment with `setup_future_usage` and a customer attaches its PaymentMethod to that customer
 *   on success (`payment_method.attached`); a PaymentMethod used without a customer and without
 *   `setup_future_usage` cannot be used again ("previously used … without Customer attachment").
 * - Events of one change are emitted in the order: charge.*, then payment_intent.* (the charge is
 *   what settles the intent); refunds: refund.created, charge.refunded, then refund.updated and
 *   charge.refund.updated when they settle.
 */
import type Stripe from "stripe";
import { cardFor, cvcLength, luhnValid, TEST_TOKENS } from "./cards.ts";
import { cardError, declineMessage, invalidRequest, StandInError } from "./errors.ts";
import { cardFee, disputeFee, settle } from "./money.ts";
import * as objects from "./objects.ts";
import { type AccountState, type Context, type EventRecord, newEvent, snapshot } from "./state.ts";

export interface CardParams {
  number?: string;
  expMonth?: number;
  expYear?: number;
  cvc?: string;
}

export interface EngineHooks {
  /** Called for every event, in order (the webhook deliverer queues it). */
  onEvent(account: AccountState, record: EventRecord): void;
  /** The stand-in's own address, for 3-D Secure challenge pages. */
  publicUrl(): string;
}

export interface RefundSettings {
  /** `auto`: a pending refund succeeds after `settleMs`; `manual`: only the test-control API settles it. */
  mode: "auto" | "manual";
  settleMs: number;
}

const CONFIRMABLE: readonly string[] = ["requires_payment_method", "requires_confirmation", "requires_action"];
const CANCELABLE: readonly string[] = [
  "requires_payment_method",
  "requires_capture",
  "requires_confirmation",
  "requires_action",
  "processing",
];

export class Engine {
  refunds: RefundSettings = { mode: "auto", settleMs: 50 };
  /** Per account: how many of the next refunds fail instead of succeeding (test-control). */
  failNextRefunds = new Map<string, number>();
  private timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly hooks: EngineHooks) {}

  /** Stops pending timers (refund settlements): the server is closing or being reset. */
  cancelTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(fn: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  emit(ctx: Context, type: string, object: unknown, previous?: Record<string, unknown>): void {
    const event = newEvent(ctx, type, object, previous);
    const record: EventRecord = { event, json: null, delivery: "none", attempts: [] };
    ctx.account.events.push(record);
    ctx.account.eventsById.set(event.id, record);
    ctx.account.put(event as unknown as { id: string; object: string });
    this.hooks.onEvent(ctx.account, record);
  }

  // ---------------------------------------------------------------- payment methods

  /** A card PaymentMethod from raw card data (Stripe.js, or a server with raw card data enabled). */
  cardMethod(ctx: Context, card: CardParams, billing: objects.BillingInput, prefix: string): Stripe.PaymentMethod {
    const param = (name: string) => `${prefix}[${name}]`;
    const number = (card.number ?? "").replace(/[\s-]/g, "");
    if (number === "") {
      throw invalidRequest(`Missing required param: ${param("number")}.`, {
        code: "parameter_missing",
        param: param("number"),
      });
    }
    if (!luhnValid(number)) {
      throw cardError("incorrect_number", undefined, "Your card number is incorrect.", { param: param("number") });
    }
    const month = card.expMonth;
    const year = card.expYear === undefined ? undefined : card.expYear < 100 ? 2000 + card.expYear : card.expYear;
    if (month === undefined || month < 1 || month > 12) {
      throw cardError("invalid_expiry_month", undefined, "Your card's expiration month is invalid.", {
        param: param("exp_month"),
      });
    }
    const today = new Date();
    if (year === undefined || year > today.getUTCFullYear() + 50) {
      throw cardError("invalid_expiry_year", undefined, "Your card's expiration year is invalid.", {
        param: param("exp_year"),
      });
    }
    if (year < today.getUTCFullYear()) {
      throw cardError("invalid_expiry_year", undefined, "Your card's expiration year is in the past.", {
        param: param("exp_year"),
      });
    }
    if (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1) {
      throw cardError("invalid_expiry_month", undefined, "Your card's expiration month is in the past.", {
        param: param("exp_month"),
      });
    }
    const testCard = cardFor(number);
    if (card.cvc !== undefined && !new RegExp(`^\\d{${cvcLength(testCard.brand)}}$`).test(card.cvc)) {
      throw cardError("invalid_cvc", undefined, "Your card's security code is invalid.", { param: param("cvc") });
    }
    const method = objects.paymentMethod(
      { card: testCard, expMonth: month, expYear: year, cvc: card.cvc ?? null },
      billing,
      ctx.account.livemode,
    );
    ctx.account.put(method);
    ctx.account.methods.set(method.id, { behaviour: testCard.behaviour, setUp: false, consumed: false, number });
    return method;
  }

  /**
   * A PaymentMethod by ID. A `pm_card_*` test token makes a fresh PaymentMethod each time it is
   * used, as Stripe's do.
   */
  method(ctx: Context, id: string, param: string): Stripe.PaymentMethod {
    const token = TEST_TOKENS.get(id);
    if (token) {
      const year = new Date().getUTCFullYear() + 3;
      return this.cardMethod(ctx, { number: token, expMonth: 12, expYear: year, cvc: undefined }, {}, "card");
    }
    const found = ctx.account.find<Stripe.PaymentMethod>("payment_method", id);
    if (!found) {
      throw new StandInError(404, {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such PaymentMethod: '${id}'`,
        param,
      });
    }
    return found;
  }

  /** Refuses a PaymentMethod that this customer (or no customer) may not use, as Stripe does. */
  checkMethodFor(ctx: Context, method: Stripe.PaymentMethod, customer: string | null, param: string): void {
    const owner = method.customer as string | null;
    if (owner && customer && owner !== customer) {
      throw invalidRequest(
        `The provided PaymentMethod belongs to another Customer (${owner}). Use the customer that owns the PaymentMethod, or attach the PaymentMethod to this customer first.`,
        { param },
      );
    }
    if (owner && !customer) {
      throw invalidRequest(
        "The provided PaymentMethod belongs to a Customer, but you did not provide the Customer ID. Please provide the customer that owns the payment method as the 'customer' parameter.",
        { param },
      );
    }
    if (!owner && ctx.account.methodFacts(method.id).consumed) {
      throw invalidRequest(
        "The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.",
        { param },
      );
    }
  }

  /** Attaches a PaymentMethod to a customer (the card is checked: a declining card fails here). */
  attach(ctx: Context, method: Stripe.PaymentMethod, customerId: string): Stripe.PaymentMethod {
    ctx.account.customer(customerId, "customer");
    const facts = ctx.account.methodFacts(method.id);
    if (method.customer === customerId) return method;
    if (method.customer) {
      throw invalidRequest("The payment method you provided has already been attached to a customer.", {
        code: "payment_method_unexpected_state",
        param: "customer",
      });
    }
    if (facts.consumed) this.checkMethodFor(ctx, method, null, "payment_method");
    const decline = attachDecline(facts.behaviour);
    if (decline) {
      throw cardError("card_declined", decline, declineMessage(decline), { payment_method: snapshot(method) });
    }
    method.customer = customerId;
    this.emit(ctx, "payment_method.attached", method);
    return method;
  }

  detach(ctx: Context, method: Stripe.PaymentMethod): Stripe.PaymentMethod {
    if (!method.customer) {
      throw invalidRequest(
        "The payment method you provided is not attached to a customer so detachment is impossible.",
        { code: "payment_method_unexpected_state" },
      );
    }
    const previous = method.customer;
    method.customer = null;
    const facts = ctx.account.methodFacts(method.id);
    facts.consumed = true;
    facts.setUp = false;
    const customer = ctx.account.find<Stripe.Customer>("customer", previous as string);
    if (customer && customer.invoice_settings.default_payment_method === method.id) {
      customer.invoice_settings.default_payment_method = null;
    }
    this.emit(ctx, "payment_method.detached", method, { customer: previous });
    return method;
  }

  // ---------------------------------------------------------------- payment intents

  confirmPaymentIntent(
    ctx: Context,
    intent: Stripe.PaymentIntent,
    options: {
      method?: Stripe.PaymentMethod;
      offSession?: boolean;
      setupFutureUsage?: Stripe.PaymentIntent.SetupFutureUsage | null;
      returnUrl?: string;
      errorOnRequiresAction?: boolean;
    },
  ): Stripe.PaymentIntent {
    if (!CONFIRMABLE.includes(intent.status)) {
      throw invalidRequest(
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method, requires_action.`,
        { code: "payment_intent_unexpected_state" },
      ).with({ payment_intent: snapshot(intent) });
    }
    if (options.setupFutureUsage !== undefined) intent.setup_future_usage = options.setupFutureUsage;
    const customer = intent.customer as string | null;
    if (options.method) {
      this.checkMethodFor(ctx, options.method, customer, "payment_method");
      intent.payment_method = options.method.id;
    }
    if (!intent.payment_method) {
      throw invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent, specify a payment method (payment_method or payment_method_data).",
        { code: "payment_intent_unexpected_state", param: "payment_method" },
      ).with({ payment_intent: snapshot(intent) });
    }
    const facts = ctx.account.intentFacts(intent.id);
    facts.offSession = options.offSession ?? false;
    return this.attempt(ctx, intent, {
      returnUrl: options.returnUrl,
      refuseAction: facts.offSession || options.errorOnRequiresAction === true,
    });
  }

  /** Runs the payment against the card: asks for authentication, declines, or charges. */
  private attempt(
    ctx: Context,
    intent: Stripe.PaymentIntent,
    options: { returnUrl?: string; refuseAction: boolean },
  ): Stripe.PaymentIntent {
    const method = ctx.account.paymentMethod(intent.payment_method as string);
    const facts = ctx.account.methodFacts(method.id);
    const authenticated = ctx.account.intentFacts(intent.id).authenticatedMethod === method.id;
    const needsAuthentication =
      facts.behaviour === "authenticate_always" || (facts.behaviour === "authenticate_unless_set_up" && !facts.setUp);
    if (needsAuthentication && !authenticated) {
      if (options.refuseAction) return this.decline(ctx, intent, method, "authentication_required");
      const previous = { status: intent.status };
      intent.status = "requires_action";
      intent.next_action = this.challengeAction(intent.id, intent.client_secret ?? "", options.returnUrl);
      intent.last_payment_error = null;
      this.emit(ctx, "payment_intent.requires_action", intent, previous);
      return intent;
    }
    switch (facts.behaviour) {
      case "decline":
      case "decline_after_attach":
        return this.decline(ctx, intent, method, "generic_decline");
      case "insufficient_funds":
        return this.decline(ctx, intent, method, "insufficient_funds");
      case "live_card":
        return this.decline(ctx, intent, method, "test_mode_live_card");
      case "processing": {
        const charge = this.newCharge(ctx, intent, method, "pending", null, authenticated);
        const previous = { status: intent.status };
        intent.status = "processing";
        intent.latest_charge = charge.id;
        intent.next_action = null;
        intent.last_payment_error = null;
        this.emit(ctx, "charge.pending", charge);
        this.emit(ctx, "payment_intent.processing", intent, previous);
        return intent;
      }
      default:
        return this.succeed(ctx, intent, method, null, authenticated);
    }
  }

  private challengeAction(
    intentId: string,
    clientSecret: string,
    returnUrl: string | undefined,
  ): Stripe.PaymentIntent.NextAction {
    const page = new URL(`${this.hooks.publicUrl()}/_stand-in/three_d_secure/${intentId}`);
    page.searchParams.set("client_secret", clientSecret);
    if (returnUrl) {
      page.searchParams.set("return_url", returnUrl);
      return { type: "redirect_to_url", redirect_to_url: { url: page.toString(), return_url: returnUrl } };
    }
    return {
      type: "use_stripe_sdk",
      use_stripe_sdk: {
        type: "three_d_secure_redirect",
        stripe_js: page.toString(),
        source: objects.newId("src"),
      },
    };
  }

  private newCharge(
    ctx: Context,
    intent: Stripe.PaymentIntent,
    method: Stripe.PaymentMethod,
    status: Stripe.Charge.Status,
    failure: objects.ChargeInput["failure"],
    authenticated: boolean,
  ): Stripe.Charge {
    const charge = objects.charge({
      intent,
      method,
      status,
      failure,
      authenticated,
      accountName: ctx.account.config.name,
    });
    ctx.account.put(charge);
    ctx.account.charges.set(charge.id, { idempotencyKey: ctx.idempotencyKey });
    const list = ctx.account.chargesByIntent.get(intent.id) ?? [];
    list.push(charge.id);
    ctx.account.chargesByIntent.set(intent.id, list);
    return charge;
  }

  private decline(
    ctx: Context,
    intent: Stripe.PaymentIntent,
    method: Stripe.PaymentMethod,
    declineCode: string,
    pendingCharge?: Stripe.Charge,
  ): never {
    const code = declineCode === "authentication_required" ? "authentication_required" : "card_declined";
    const message = declineMessage(declineCode);
    const failure = { code, declineCode, message };
    let charge: Stripe.Charge;
    if (pendingCharge) {
      charge = pendingCharge;
      charge.status = "failed";
      charge.failure_code = code;
      charge.failure_message = message;
      charge.captured = false;
      charge.paid = false;
      charge.amount_captured = 0;
    } else {
      charge = this.newCharge(ctx, intent, method, "failed", failure, false);
    }
    const previous = { status: intent.status };
    intent.status = "requires_payment_method";
    intent.payment_method = null;
    intent.next_action = null;
    intent.latest_charge = charge.id;
    intent.last_payment_error = {
      charge: charge.id,
      code,
      decline_code: declineCode,
      doc_url: `https://docs.stripe.com/error-codes/${code.replace(/_/g, "-")}`,
      message,
      payment_method: snapshot(method),
      type: "card_error",
    } as Stripe.PaymentIntent.LastPaymentError;
    const facts = ctx.account.methodFacts(method.id);
    if (!method.customer) facts.consumed = true;
    this.emit(ctx, "charge.failed", charge);
    this.emit(ctx, "payment_intent.payment_failed", intent, previous);
    throw cardError(code, declineCode, message, {
      charge: charge.id,
      payment_intent: snapshot(intent),
      payment_method: snapshot(method),
    });
  }

  private succeed(
    ctx: Context,
    intent: Stripe.PaymentIntent,
    method: Stripe.PaymentMethod,
    pendingCharge: Stripe.Charge | null,
    authenticated: boolean,
  ): Stripe.PaymentIntent {
    const charge = pendingCharge ?? this.newCharge(ctx, intent, method, "succeeded", null, authenticated);
    charge.status = "succeeded";
    charge.paid = true;
    charge.captured = true;
    charge.amount_captured = charge.amount;
    const settled = settle(charge.amount, charge.currency, ctx.account.config.defaultCurrency);
    const balance = objects.balanceTransaction({
      amount: settled.amount,
      currency: settled.currency,
      exchangeRate: settled.exchangeRate,
      fee: cardFee(settled.amount),
      type: "charge",
      reportingCategory: "charge",
      source: charge.id,
      description: intent.description,
    });
    ctx.account.put(balance);
    charge.balance_transaction = balance.id;

    const facts = ctx.account.methodFacts(method.id);
    const customer = intent.customer as string | null;
    if (intent.setup_future_usage) {
      facts.setUp = true;
      if (customer && !method.customer) {
        method.customer = customer;
        this.emit(ctx, "payment_method.attached", method);
      }
    } else if (!method.customer) {
      facts.consumed = true;
    }

    const previous = { status: intent.status };
    intent.status = "succeeded";
    intent.amount_received = intent.amount;
    intent.latest_charge = charge.id;
    intent.next_action = null;
    intent.last_payment_error = null;
    this.emit(ctx, "charge.succeeded", charge);
    this.emit(ctx, "payment_intent.succeeded", intent, previous);
    if (facts.behaviour === "dispute") this.openDispute(ctx, charge);
    return intent;
  }

  cancelPaymentIntent(
    ctx: Context,
    intent: Stripe.PaymentIntent,
    reason: Stripe.PaymentIntent.CancellationReason | null,
  ): Stripe.PaymentIntent {
    if (!CANCELABLE.includes(intent.status)) {
      throw invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(", ")}.`,
        { code: "payment_intent_unexpected_state" },
      ).with({ payment_intent: snapshot(intent) });
    }
    const previous = { status: intent.status };
    intent.status = "canceled";
    intent.canceled_at = objects.now();
    intent.cancellation_reason = reason;
    intent.next_action = null;
    const pending = intent.latest_charge ? ctx.account.charge(intent.latest_charge as string) : null;
    if (pending?.status === "pending") {
      pending.status = "failed";
      pending.failure_code = "payment_intent_canceled";
      pending.failure_message = "The PaymentIntent was canceled.";
      this.emit(ctx, "charge.failed", pending);
    }
    this.emit(ctx, "payment_intent.canceled", intent, previous);
    return intent;
  }

  /** Settles a `processing` PaymentIntent (test-control): the pending charge succeeds or fails. */
  settleProcessing(ctx: Context, intent: Stripe.PaymentIntent, outcome: "succeeded" | "failed"): Stripe.PaymentIntent {
    if (intent.status !== "processing") {
      throw invalidRequest(`The PaymentIntent is ${intent.status}, not processing.`, {
        code: "payment_intent_unexpected_state",
      });
    }
    const charge = ctx.account.charge(intent.latest_charge as string);
    const method = ctx.account.paymentMethod(charge.payment_method as string);
    if (outcome === "succeeded") return this.succeed(ctx, intent, method, charge, false);
    try {
      this.decline(ctx, intent, method, "generic_decline", charge);
    } catch (error) {
      if (!(error instanceof StandInError)) throw error;
    }
    return intent;
  }

  // ---------------------------------------------------------------- 3-D Secure

  /** The customer passes or fails the challenge of a PaymentIntent or SetupIntent in `requires_action`. */
  completeChallenge(
    ctx: Context,
    intentId: string,
    outcome: "complete" | "fail",
  ): Stripe.PaymentIntent | Stripe.SetupIntent {
    if (intentId.startsWith("seti_"))
      return this.completeSetupChallenge(ctx, ctx.account.setupIntent(intentId), outcome);
    const intent = ctx.account.paymentIntent(intentId);
    if (intent.status !== "requires_action") {
      throw invalidRequest(`The PaymentIntent is ${intent.status}: there is no 3-D Secure challenge to answer.`, {
        code: "payment_intent_unexpected_state",
      });
    }
    const method = ctx.account.paymentMethod(intent.payment_method as string);
    if (outcome === "fail") {
      const previous = { status: intent.status };
      intent.status = "requires_payment_method";
      intent.payment_method = null;
      intent.next_action = null;
      intent.last_payment_error = {
        code: "payment_intent_authentication_failure",
        doc_url: "https://docs.stripe.com/error-codes/payment-intent-authentication-failure",
        message:
          "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.",
        payment_method: snapshot(method),
        type: "invalid_request_error",
      };
      if (!method.customer) ctx.account.methodFacts(method.id).consumed = true;
      this.emit(ctx, "payment_intent.payment_failed", intent, previous);
      return intent;
    }
    ctx.account.intentFacts(intent.id).authenticatedMethod = method.id;
    try {
      return this.attempt(ctx, intent, { refuseAction: false });
    } catch (error) {
      // A card that declines after authenticating: the intent carries the failure, as it would at Stripe.
      if (error instanceof StandInError) return intent;
      throw error;
    }
  }

  private completeSetupChallenge(
    ctx: Context,
    intent: Stripe.SetupIntent,
    outcome: "complete" | "fail",
  ): Stripe.SetupIntent {
    if (intent.status !== "requires_action") {
      throw invalidRequest(`The SetupIntent is ${intent.status}: there is no 3-D Secure challenge to answer.`, {
        code: "setup_intent_unexpected_state",
      });
    }
    const method = ctx.account.paymentMethod(intent.payment_method as string);
    if (outcome === "fail") {
      const previous = { status: intent.status };
      intent.status = "requires_payment_method";
      intent.payment_method = null;
      intent.next_action = null;
      intent.last_setup_error = {
        code: "setup_intent_authentication_failure",
        doc_url: "https://docs.stripe.com/error-codes/setup-intent-authentication-failure",
        message:
          "The latest attempt to set up the payment method has failed because authentication failed. Provide a new payment method to attempt to fulfill this SetupIntent again.",
        payment_method: snapshot(method),
        type: "invalid_request_error",
      };
      this.emit(ctx, "setup_intent.setup_failed", intent, previous);
      return intent;
    }
    return this.setupSucceeded(ctx, intent, method);
  }

  // ---------------------------------------------------------------- setup intents

  confirmSetupIntent(
    ctx: Context,
    intent: Stripe.SetupIntent,
    options: { method?: Stripe.PaymentMethod; returnUrl?: string },
  ): Stripe.SetupIntent {
    if (!CONFIRMABLE.includes(intent.status)) {
      throw invalidRequest(
        `You cannot confirm this SetupIntent because it has a status of ${intent.status}. Only a SetupIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method, requires_action.`,
        { code: "setup_intent_unexpected_state" },
      ).with({ setup_intent: snapshot(intent) });
    }
    const customer = intent.customer as string | null;
    if (options.method) {
      this.checkMethodFor(ctx, options.method, customer, "payment_method");
      intent.payment_method = options.method.id;
    }
    if (!intent.payment_method) {
      throw invalidRequest(
        "You cannot confirm this SetupIntent because it's missing a payment method. Specify a payment method (payment_method or payment_method_data).",
        { code: "setup_intent_unexpected_state", param: "payment_method" },
      ).with({ setup_intent: snapshot(intent) });
    }
    const method = ctx.account.paymentMethod(intent.payment_method as string);
    const facts = ctx.account.methodFacts(method.id);
    const decline = attachDecline(facts.behaviour);
    if (decline) {
      const previous = { status: intent.status };
      const message = declineMessage(decline);
      intent.status = "requires_payment_method";
      intent.payment_method = null;
      intent.next_action = null;
      intent.last_setup_error = {
        code: "card_declined",
        decline_code: decline,
        doc_url: "https://docs.stripe.com/error-codes/card-declined",
        message,
        payment_method: snapshot(method),
        type: "card_error",
      };
      this.emit(ctx, "setup_intent.setup_failed", intent, previous);
      throw cardError("card_declined", decline, message, {
        setup_intent: snapshot(intent),
        payment_method: snapshot(method),
      });
    }
    const needsAuthentication =
      facts.behaviour === "authenticate_always" || (facts.behaviour === "authenticate_unless_set_up" && !facts.setUp);
    if (needsAuthentication) {
      const previous = { status: intent.status };
      intent.status = "requires_action";
      intent.next_action = this.challengeAction(
        intent.id,
        intent.client_secret ?? "",
        options.returnUrl,
      ) as Stripe.SetupIntent.NextAction;
      intent.last_setup_error = null;
      this.emit(ctx, "setup_intent.requires_action", intent, previous);
      return intent;
    }
    return this.setupSucceeded(ctx, intent, method);
  }

  private setupSucceeded(ctx: Context, intent: Stripe.SetupIntent, method: Stripe.PaymentMethod): Stripe.SetupIntent {
    const facts = ctx.account.methodFacts(method.id);
    facts.setUp = true;
    const customer = intent.customer as string | null;
    if (customer && !method.customer) {
      method.customer = customer;
      this.emit(ctx, "payment_method.attached", method);
    }
    const previous = { status: intent.status };
    intent.status = "succeeded";
    intent.next_action = null;
    intent.last_setup_error = null;
    this.emit(ctx, "setup_intent.succeeded", intent, previous);
    return intent;
  }

  // ---------------------------------------------------------------- refunds

  createRefund(
    ctx: Context,
    input: {
      intent?: Stripe.PaymentIntent;
      charge?: Stripe.Charge;
      amount?: number;
      reason: Stripe.Refund.Reason | null;
      metadata: Record<string, string>;
    },
  ): Stripe.Refund {
    let charge = input.charge;
    if (input.intent) {
      const intent = input.intent;
      if (intent.status !== "succeeded" || !intent.latest_charge) {
        throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
          param: "payment_intent",
        });
      }
      charge = ctx.account.charge(intent.latest_charge as string);
    }
    if (!charge) throw new Error("createRefund without a charge");
    if (charge.status !== "succeeded") {
      throw invalidRequest(`Charge ${charge.id} has not succeeded: there is nothing to refund.`, { param: "charge" });
    }
    if (charge.disputed) {
      throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, {
        code: "charge_disputed",
      });
    }
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining <= 0) {
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: "charge_already_refunded" });
    }
    const amount = input.amount ?? remaining;
    if (amount > remaining) {
      throw invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`, {
        code: "amount_too_large",
        param: "amount",
      });
    }
    const refund = objects.refund({ amount, charge, reason: input.reason, metadata: input.metadata });
    const settled = settle(amount, charge.currency, ctx.account.config.defaultCurrency);
    const balance = objects.balanceTransaction({
      amount: -settled.amount,
      currency: settled.currency,
      exchangeRate: settled.exchangeRate,
      fee: 0,
      type: "refund",
      reportingCategory: "refund",
      source: refund.id,
      description: "REFUND FOR CHARGE",
    });
    ctx.account.put(balance);
    refund.balance_transaction = balance.id;
    ctx.account.put(refund);
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit(ctx, "refund.created", refund);
    this.emit(ctx, "charge.refunded", charge, previous);

    const failures = this.failNextRefunds.get(ctx.account.id) ?? 0;
    const fail = failures > 0;
    if (fail) this.failNextRefunds.set(ctx.account.id, failures - 1);
    if (this.refunds.mode === "auto" || fail) {
      const settleCtx: Context = { ...ctx, requestId: null, idempotencyKey: null };
      this.later(() => {
        if (refund.status !== "pending") return;
        if (fail) this.failRefund(settleCtx, refund, "declined");
        else this.settleRefund(settleCtx, refund);
      }, this.refunds.settleMs);
    }
    return refund;
  }

  settleRefund(ctx: Context, refund: Stripe.Refund): Stripe.Refund {
    if (refund.status !== "pending") {
      throw invalidRequest(`The refund is ${refund.status}, not pending.`);
    }
    const previous = { status: refund.status };
    refund.status = "succeeded";
    if (refund.destination_details?.card) {
      refund.destination_details.card.reference_status = "available";
      refund.destination_details.card.reference = String(10 ** 22 + (refund.amount % 10 ** 6));
    }
    this.emit(ctx, "refund.updated", refund, previous);
    this.emit(ctx, "charge.refund.updated", refund, previous);
    return refund;
  }

  /** A refund fails (from pending, or after succeeding, as Stripe's refund-failure test card does). */
  failRefund(ctx: Context, refund: Stripe.Refund, reason: string): Stripe.Refund {
    if (refund.status !== "pending" && refund.status !== "succeeded") {
      throw invalidRequest(`The refund is ${refund.status}: only a pending or succeeded refund can fail.`);
    }
    const charge = ctx.account.charge(refund.charge as string);
    const previous = { status: refund.status };
    refund.status = "failed";
    refund.failure_reason = reason;
    if (refund.destination_details?.card) refund.destination_details.card.reference_status = "unavailable";
    const settled = settle(refund.amount, charge.currency, ctx.account.config.defaultCurrency);
    const balance = objects.balanceTransaction({
      amount: settled.amount,
      currency: settled.currency,
      exchangeRate: settled.exchangeRate,
      fee: 0,
      type: "refund_failure",
      reportingCategory: "refund_failure",
      source: refund.id,
      description: "REFUND FAILURE",
    });
    ctx.account.put(balance);
    refund.failure_balance_transaction = balance.id;
    charge.amount_refunded -= refund.amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit(ctx, "refund.failed", refund, previous);
    this.emit(ctx, "refund.updated", refund, previous);
    this.emit(ctx, "charge.refund.updated", refund, previous);
    return refund;
  }

  // ---------------------------------------------------------------- disputes

  openDispute(ctx: Context, charge: Stripe.Charge): Stripe.Dispute {
    const settled = settle(charge.amount, charge.currency, ctx.account.config.defaultCurrency);
    const withdrawn = objects.balanceTransaction({
      amount: -settled.amount,
      currency: settled.currency,
      exchangeRate: settled.exchangeRate,
      fee: disputeFee(settled.currency),
      type: "adjustment",
      reportingCategory: "dispute",
      source: "",
      description: `Chargeback withdrawal for ${charge.id}`,
      feeDescription: "Dispute fee",
    });
    const dispute = objects.dispute(charge, withdrawn);
    withdrawn.source = dispute.id;
    ctx.account.put(withdrawn);
    ctx.account.put(dispute);
    const previous = { disputed: false };
    charge.disputed = true;
    const eventCtx: Context = { ...ctx, requestId: null, idempotencyKey: null };
    this.emit(eventCtx, "charge.dispute.created", dispute);
    this.emit(eventCtx, "charge.updated", charge, previous);
    this.emit(eventCtx, "charge.dispute.funds_withdrawn", dispute);
    return dispute;
  }

  closeDispute(ctx: Context, dispute: Stripe.Dispute, outcome: "won" | "lost"): Stripe.Dispute {
    if (dispute.status === "won" || dispute.status === "lost") {
      throw invalidRequest(`This dispute is already closed (${dispute.status}).`, { code: "dispute_already_closed" });
    }
    const previous = { status: dispute.status };
    dispute.status = outcome;
    dispute.is_charge_refundable = false;
    if (outcome === "won") {
      const charge = ctx.account.charge(dispute.charge as string);
      const settled = settle(dispute.amount, dispute.currency, ctx.account.config.defaultCurrency);
      const reinstated = objects.balanceTransaction({
        amount: settled.amount,
        currency: settled.currency,
        exchangeRate: settled.exchangeRate,
        fee: 0,
        type: "adjustment",
        reportingCategory: "dispute_reversal",
        source: dispute.id,
        description: `Chargeback reversal for ${charge.id}`,
      });
      ctx.account.put(reinstated);
      dispute.balance_transactions.push(reinstated);
      this.emit(ctx, "charge.dispute.funds_reinstated", dispute, previous);
    }
    this.emit(ctx, "charge.dispute.closed", dispute, previous);
    return dispute;
  }
}

/** The decline a card gives when it is attached or set up (Stripe checks the card then). */
function attachDecline(behaviour: string): string | null {
  if (behaviour === "decline") return "generic_decline";
  if (behaviour === "insufficient_funds") return "insufficient_funds";
  if (behaviour === "live_card") return "test_mode_live_card";
  return null;
}
