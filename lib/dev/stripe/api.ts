/**
 * The part of Stripe's REST API (v1) that the product calls, endpoint by endpoint: each reads its
 * parameters as Stripe documents them (params.ts refuses unknown ones), calls the engine, and
 * answers the object (with `expand[]`) or a list. Routes marked `publishable` also take a
 * publishable key (Stripe.js), and then need the intent's `client_secret`.
 */
import type Stripe from "stripe";
import type { CardParams, Engine } from "./engine.ts";
import { invalidRequest, missing } from "./errors.ts";
import { formatMinimum, MAXIMUM_AMOUNT, minimumAmount } from "./money.ts";
import * as objects from "./objects.ts";
import { mergeMetadata, type Params } from "./params.ts";
import { expand, list, readWindow } from "./render.ts";
import type { AccountState, Context } from "./state.ts";

export interface ApiRoute {
  method: "GET" | "POST" | "DELETE";
  pattern: RegExp;
  /** Also callable with a publishable key (Stripe.js). */
  publishable?: boolean;
  handle(ctx: Context, p: Params, args: string[], engine: Engine): unknown;
}

const ID = "([A-Za-z0-9_]+)";
const route = (method: ApiRoute["method"], path: string, handle: ApiRoute["handle"], publishable = false) => ({
  method,
  pattern: new RegExp(`^${path.replace(/:id/g, ID)}$`),
  handle,
  publishable,
});

// ------------------------------------------------------------------ shared readers

const CURRENCY = /^[a-z]{3}$/;

function readCurrency(p: Params, options: { required: true }): string;
function readCurrency(p: Params, options?: { required?: boolean }): string | undefined;
function readCurrency(p: Params, options: { required?: boolean } = {}): string | undefined {
  const value = p.string("currency", options)?.toLowerCase();
  if (value !== undefined && !CURRENCY.test(value)) {
    throw invalidRequest(`Invalid currency: ${value}. Stripe currently supports three-letter ISO currency codes.`, {
      param: "currency",
    });
  }
  return value;
}

function checkAmount(amount: number, currency: string): void {
  if (amount < minimumAmount(currency)) {
    throw invalidRequest(`Amount must be at least ${formatMinimum(currency)}`, {
      code: "amount_too_small",
      param: "amount",
    });
  }
  if (amount > MAXIMUM_AMOUNT) {
    throw invalidRequest(`Amount must be no more than ${MAXIMUM_AMOUNT}`, {
      code: "amount_too_large",
      param: "amount",
    });
  }
}

function readAddress(p: Params | undefined): Stripe.Address | null | undefined {
  if (!p) return undefined;
  return {
    city: p.string("city") ?? null,
    country: p.string("country") ?? null,
    line1: p.string("line1") ?? null,
    line2: p.string("line2") ?? null,
    postal_code: p.string("postal_code") ?? null,
    state: p.string("state") ?? null,
  };
}

function readBilling(p: Params | undefined): objects.BillingInput {
  if (!p) return {};
  const billing: objects.BillingInput = {
    name: p.string("name") ?? null,
    email: p.string("email") ?? null,
    phone: p.string("phone") ?? null,
    address: readAddress(p.object("address")) ?? null,
  };
  p.ignore("tax_id");
  p.done();
  return billing;
}

/** The keys Stripe.js adds to what it sends (device and timing data): accepted, not used. */
const STRIPE_JS_EXTRAS = ["payment_user_agent", "time_on_page", "guid", "muid", "sid", "referrer", "pasted_fields"];

function readCard(p: Params | undefined): CardParams {
  if (!p) return {};
  const card: CardParams = {
    number: p.string("number"),
    expMonth: p.integer("exp_month"),
    expYear: p.integer("exp_year"),
    cvc: p.string("cvc"),
  };
  p.ignore("networks");
  p.done();
  return card;
}

interface MethodData {
  card: CardParams;
  billing: objects.BillingInput;
  metadata: Record<string, string>;
  prefix: string;
}

/** `payment_method_data` (or a PaymentMethod create): raw card details, read before anything changes. */
function readMethodData(p: Params, prefix: string): MethodData {
  const type = p.string("type", { required: true });
  if (type !== "card") {
    throw invalidRequest(`The stand-in only supports card payment methods, not "${type}".`, {
      param: prefix ? `${prefix}[type]` : "type",
    });
  }
  const card = readCard(p.object("card"));
  const billing = readBilling(p.object("billing_details"));
  const metadata = p.metadata() ?? {};
  p.ignore(...STRIPE_JS_EXTRAS, "allow_redisplay", "key");
  p.done();
  return { card, billing, metadata, prefix };
}

/** The card PaymentMethod of `payment_method_data` (a card error if the details are wrong). */
function methodFrom(ctx: Context, engine: Engine, data: MethodData): Stripe.PaymentMethod {
  const method = engine.cardMethod(ctx, data.card, data.billing, data.prefix ? `${data.prefix}[card]` : "card");
  method.metadata = data.metadata;
  return method;
}

function requireSecret(ctx: Context): void {
  if (ctx.publishable) {
    throw invalidRequest(
      "This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.",
      { status: 401 },
    );
  }
}

/** With a publishable key, the intent's client secret must come along (Stripe.js always sends it). */
function checkClientSecret(ctx: Context, p: Params, intent: { id: string; client_secret: string | null }): void {
  const secret = p.string("client_secret");
  if (ctx.publishable && secret === undefined) {
    throw invalidRequest(
      "This API call cannot be made with a publishable API key without the intent's client_secret.",
      { status: 401 },
    );
  }
  if (secret !== undefined && secret !== intent.client_secret) {
    throw invalidRequest(
      `The client_secret provided does not match any associated ${intent.id.startsWith("seti_") ? "SetupIntent" : "PaymentIntent"} on this account. Ensure the publishable key used belongs to the same account that created the intent.`,
      { param: "client_secret" },
    );
  }
}

function customerRef(account: AccountState, id: string | undefined, param = "customer"): string | null {
  if (id === undefined) return null;
  return account.customer(id, param).id;
}

function offSessionFlag(p: Params): boolean | undefined {
  // `off_session` takes true/false or, in older integrations, "one_off" / "recurring" (both mean off-session).
  if (p.has("off_session") && ["one_off", "recurring"].includes(String(p.raw.off_session))) {
    p.string("off_session");
    return true;
  }
  return p.boolean("off_session");
}

function readSetupFutureUsage(p: Params): Stripe.PaymentIntent.SetupFutureUsage | null | undefined {
  if (p.has("setup_future_usage") && p.raw.setup_future_usage === "") {
    p.string("setup_future_usage");
    return null;
  }
  return p.enumeration("setup_future_usage", ["off_session", "on_session"]);
}

function readMethodTypes(p: Params): { types: string[]; automatic: boolean } | undefined {
  const types = p.strings("payment_method_types");
  const automatic = p.object("automatic_payment_methods");
  let enabled: boolean | undefined;
  if (automatic) {
    enabled = automatic.boolean("enabled");
    automatic.enumeration("allow_redirects", ["always", "never"]);
    automatic.done();
  }
  if (types && automatic) {
    throw invalidRequest(
      "You may only specify one of these parameters: automatic_payment_methods, payment_method_types.",
      { param: "automatic_payment_methods" },
    );
  }
  if (types) {
    for (const [i, type] of types.entries()) {
      if (type !== "card") {
        throw invalidRequest(`The stand-in only supports the "card" payment method type, not "${type}".`, {
          param: `payment_method_types[${i}]`,
        });
      }
    }
    return { types, automatic: false };
  }
  if (enabled === false) return { types: ["card"], automatic: false };
  return undefined;
}

function readMethodOptions(p: Params): void {
  const options = p.object("payment_method_options");
  if (!options) return;
  const card = options.object("card");
  if (card) {
    card.enumeration("request_three_d_secure", ["any", "automatic", "challenge"]);
    card.enumeration("setup_future_usage", ["none", "off_session", "on_session"]);
    card.ignore("mandate_options", "network", "moto", "cvc_token", "require_cvc_recollection");
    card.done();
  }
  options.done();
}

// ------------------------------------------------------------------ endpoints

function retrieveAccount(ctx: Context, p: Params): unknown {
  requireSecret(ctx);
  p.strings("expand");
  p.done();
  const { config } = ctx.account;
  return objects.account({
    id: ctx.account.id,
    name: config.name,
    country: config.country,
    defaultCurrency: config.defaultCurrency,
    email: config.email ?? null,
    created: ctx.account.created,
  });
}

function writeCustomer(ctx: Context, p: Params, customer: Stripe.Customer, engine: Engine, creating: boolean) {
  const email = p.nullableString("email", { max: 512 });
  const name = p.nullableString("name", { max: 256 });
  const description = p.nullableString("description", { max: 350 });
  const phone = p.nullableString("phone", { max: 20 });
  const metadata = p.metadata();
  // `address=` (empty) removes the address.
  const clearsAddress = p.has("address") && p.raw.address === "";
  if (clearsAddress) p.ignore("address");
  const address = clearsAddress ? null : readAddress(p.object("address"));
  const locales = p.strings("preferred_locales");
  const settings = p.object("invoice_settings");
  let defaultMethod: string | null | undefined;
  if (settings) {
    defaultMethod = settings.nullableString("default_payment_method");
    settings.ignore("custom_fields", "footer", "rendering_options");
    settings.done();
  }
  const attachMethod = creating ? p.string("payment_method") : undefined;
  p.enumeration("tax_exempt", ["exempt", "none", "reverse"]);
  p.ignore("shipping", "tax", "test_clock", "invoice_prefix", "balance", "next_invoice_sequence", "source");
  const expandPaths = p.strings("expand");
  p.done();

  const previous: Record<string, unknown> = {};
  const set = <K extends keyof Stripe.Customer>(key: K, value: Stripe.Customer[K] | undefined) => {
    if (value === undefined) return;
    if (JSON.stringify(customer[key]) !== JSON.stringify(value)) previous[key] = customer[key];
    customer[key] = value;
  };
  set("email", email);
  set("name", name);
  set("description", description);
  set("phone", phone);
  set("address", address);
  set("preferred_locales", locales);
  if (metadata !== undefined) set("metadata", mergeMetadata(customer.metadata, metadata));
  if (creating) ctx.account.put(customer);
  if (defaultMethod !== undefined) {
    if (defaultMethod !== null) {
      const method = ctx.account.find<Stripe.PaymentMethod>("payment_method", defaultMethod);
      if (!method || (method.customer !== customer.id && defaultMethod !== attachMethod)) {
        throw invalidRequest(
          `The customer does not have a payment method with the ID ${defaultMethod}. The payment method must be attached to the customer.`,
          { param: "invoice_settings[default_payment_method]" },
        );
      }
    }
    previous.invoice_settings = { ...customer.invoice_settings };
    customer.invoice_settings.default_payment_method = defaultMethod;
  }
  if (creating) {
    engine.emit(ctx, "customer.created", customer);
    if (attachMethod) engine.attach(ctx, engine.method(ctx, attachMethod, "payment_method"), customer.id);
  } else if (Object.keys(previous).length > 0) {
    engine.emit(ctx, "customer.updated", customer, previous);
  }
  return expand(ctx.account, customer, expandPaths);
}

function createCustomer(ctx: Context, p: Params, _: string[], engine: Engine) {
  requireSecret(ctx);
  return writeCustomer(ctx, p, objects.customer(ctx.account.livemode), engine, true);
}

function retrieveCustomer(ctx: Context, p: Params, [id]: string[]) {
  requireSecret(ctx);
  const expandPaths = p.strings("expand");
  p.done();
  const customer = ctx.account.get<Stripe.Customer | Stripe.DeletedCustomer>("customer", id!);
  return customer.deleted ? customer : expand(ctx.account, customer, expandPaths);
}

function updateCustomer(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  return writeCustomer(ctx, p, ctx.account.customer(id!), engine, false);
}

function deleteCustomer(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  p.done();
  const customer = ctx.account.customer(id!);
  for (const method of ctx.account.all<Stripe.PaymentMethod>("payment_method")) {
    if (method.customer === id) {
      method.customer = null;
      ctx.account.methodFacts(method.id).consumed = true;
    }
  }
  const stub: Stripe.DeletedCustomer = { id: id!, object: "customer", deleted: true };
  ctx.account.objects.set(id!, stub as unknown as { id: string; object: string });
  engine.emit(ctx, "customer.deleted", customer);
  return stub;
}

function listCustomers(ctx: Context, p: Params) {
  requireSecret(ctx);
  const email = p.string("email");
  const window = readWindow(p);
  const expandPaths = p.strings("expand");
  p.ignore("created", "test_clock");
  p.done();
  const items = ctx.account
    .all<Stripe.Customer & { deleted?: boolean }>("customer")
    .filter((c) => !c.deleted && (email === undefined || c.email === email));
  return expand(ctx.account, list("/v1/customers", items, window), expandPaths);
}

function createPaymentMethod(ctx: Context, p: Params, _: string[], engine: Engine) {
  const expandPaths = p.strings("expand");
  const data = readMethodData(p, "");
  return expand(ctx.account, methodFrom(ctx, engine, data), expandPaths);
}

function retrievePaymentMethod(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const expandPaths = p.strings("expand");
  p.done();
  return expand(ctx.account, engine.method(ctx, id!, "id"), expandPaths);
}

function updatePaymentMethod(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const billing = p.object("billing_details");
  const metadata = p.metadata();
  const card = p.object("card");
  let expMonth: number | undefined;
  let expYear: number | undefined;
  if (card) {
    expMonth = card.integer("exp_month", { min: 1, max: 12 });
    expYear = card.integer("exp_year", { min: 2000, max: 2100 });
    card.done();
  }
  p.enumeration("allow_redisplay", ["always", "limited", "unspecified"]);
  const expandPaths = p.strings("expand");
  const details = billing ? readBilling(billing) : undefined;
  p.done();
  const method = engine.method(ctx, id!, "id");
  const previous: Record<string, unknown> = {};
  if (details) {
    previous.billing_details = { ...method.billing_details };
    const current = method.billing_details;
    method.billing_details = {
      address: details.address ?? current.address,
      email: details.email ?? current.email,
      name: details.name ?? current.name,
      phone: details.phone ?? current.phone,
      tax_id: current.tax_id,
    };
  }
  if (metadata !== undefined) {
    previous.metadata = method.metadata;
    method.metadata = mergeMetadata(method.metadata ?? {}, metadata);
  }
  if ((expMonth !== undefined || expYear !== undefined) && method.card) {
    previous.card = { exp_month: method.card.exp_month, exp_year: method.card.exp_year };
    if (expMonth !== undefined) method.card.exp_month = expMonth;
    if (expYear !== undefined) method.card.exp_year = expYear;
  }
  engine.emit(ctx, "payment_method.updated", method, previous);
  return expand(ctx.account, method, expandPaths);
}

function attachPaymentMethod(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const customer = p.string("customer", { required: true });
  const expandPaths = p.strings("expand");
  p.done();
  const method = engine.attach(ctx, engine.method(ctx, id!, "id"), customer);
  return expand(ctx.account, method, expandPaths);
}

function detachPaymentMethod(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const expandPaths = p.strings("expand");
  p.done();
  return expand(ctx.account, engine.detach(ctx, engine.method(ctx, id!, "id")), expandPaths);
}

function listPaymentMethods(ctx: Context, p: Params, args: string[]) {
  requireSecret(ctx);
  const customer = args[0] ?? p.string("customer");
  const type = p.string("type");
  const window = readWindow(p);
  const expandPaths = p.strings("expand");
  p.ignore("allow_redisplay");
  p.done();
  if (customer !== undefined) ctx.account.customer(customer, args[0] ? "id" : "customer");
  const items = ctx.account
    .all<Stripe.PaymentMethod>("payment_method")
    .filter((m) => (customer === undefined || m.customer === customer) && (type === undefined || m.type === type));
  const url = args[0] ? `/v1/customers/${args[0]}/payment_methods` : "/v1/payment_methods";
  return expand(ctx.account, list(url, items, window), expandPaths);
}

function createPaymentIntent(ctx: Context, p: Params, _: string[], engine: Engine) {
  requireSecret(ctx);
  const amount = p.integer("amount", { required: true });
  const currency = readCurrency(p, { required: true });
  const customerId = p.string("customer");
  const methodId = p.string("payment_method");
  const methodData = p.object("payment_method_data");
  const methodTypes = readMethodTypes(p);
  const confirm = p.boolean("confirm") ?? false;
  const offSession = offSessionFlag(p);
  const setupFutureUsage = readSetupFutureUsage(p);
  const metadata = p.metadata() ?? {};
  const description = p.string("description", { max: 1000 });
  const receiptEmail = p.string("receipt_email");
  const returnUrl = p.string("return_url");
  const statementDescriptor = p.string("statement_descriptor", { max: 22 });
  const statementDescriptorSuffix = p.string("statement_descriptor_suffix", { max: 22 });
  const captureMethod = p.enumeration("capture_method", ["automatic", "automatic_async", "manual"]);
  const confirmationMethod = p.enumeration("confirmation_method", ["automatic", "manual"]);
  const errorOnRequiresAction = p.boolean("error_on_requires_action");
  p.boolean("use_stripe_sdk");
  readMethodOptions(p);
  p.ignore("mandate_data", "shipping", "payment_method_configuration", "radar_options");
  const expandPaths = p.strings("expand");
  if (offSession !== undefined && !confirm) {
    throw invalidRequest("The parameter off_session can only be set when confirm is true.", { param: "off_session" });
  }
  if (returnUrl !== undefined && !confirm) {
    throw invalidRequest(
      "The parameter return_url cannot be passed when creating a PaymentIntent unless confirm is set to true.",
      { param: "return_url" },
    );
  }
  if (errorOnRequiresAction !== undefined && !confirm) {
    throw invalidRequest("The parameter error_on_requires_action can only be set when confirm is true.", {
      param: "error_on_requires_action",
    });
  }
  if (methodId && methodData) {
    throw invalidRequest("You may only specify one of these parameters: payment_method, payment_method_data.", {
      param: "payment_method_data",
    });
  }
  if (captureMethod === "manual") {
    throw invalidRequest("The stand-in supports capture_method automatic and automatic_async only.", {
      param: "capture_method",
    });
  }
  if (confirmationMethod === "manual") {
    throw invalidRequest("The stand-in supports confirmation_method automatic only.", {
      param: "confirmation_method",
    });
  }
  checkAmount(amount, currency);
  const data = methodData ? readMethodData(methodData, "payment_method_data") : undefined;
  p.done();

  const customer = customerRef(ctx.account, customerId);
  const method = data ? methodFrom(ctx, engine, data) : undefined;
  const resolved = method ?? (methodId ? engine.method(ctx, methodId, "payment_method") : undefined);
  if (resolved) engine.checkMethodFor(ctx, resolved, customer, "payment_method");
  const intent = objects.paymentIntent({
    amount,
    currency,
    customer,
    description: description ?? null,
    metadata,
    paymentMethodTypes: methodTypes?.types ?? ["card"],
    automaticPaymentMethods: methodTypes ? methodTypes.automatic : true,
    setupFutureUsage: setupFutureUsage ?? null,
    receiptEmail: receiptEmail ?? null,
    statementDescriptor: statementDescriptor ?? null,
    statementDescriptorSuffix: statementDescriptorSuffix ?? null,
    captureMethod: captureMethod ?? "automatic",
    livemode: ctx.account.livemode,
  });
  if (resolved) {
    intent.payment_method = resolved.id;
    intent.status = "requires_confirmation";
  }
  ctx.account.put(intent);
  engine.emit(ctx, "payment_intent.created", intent);
  if (confirm) {
    engine.confirmPaymentIntent(ctx, intent, { offSession, returnUrl, errorOnRequiresAction });
  }
  return expand(ctx.account, intent, expandPaths);
}

function retrievePaymentIntent(ctx: Context, p: Params, [id]: string[]) {
  const expandPaths = p.strings("expand");
  p.ignore("key");
  const intent = ctx.account.paymentIntent(id!);
  checkClientSecret(ctx, p, intent);
  p.done();
  return expand(ctx.account, intent, ctx.publishable ? undefined : expandPaths);
}

function updatePaymentIntent(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const amount = p.integer("amount");
  const currency = readCurrency(p);
  const customerId = p.string("customer");
  const methodId = p.string("payment_method");
  const methodData = p.object("payment_method_data");
  const methodTypes = readMethodTypes(p);
  const setupFutureUsage = readSetupFutureUsage(p);
  const metadata = p.metadata();
  const description = p.nullableString("description", { max: 1000 });
  const receiptEmail = p.nullableString("receipt_email");
  const statementDescriptor = p.nullableString("statement_descriptor", { max: 22 });
  const statementDescriptorSuffix = p.nullableString("statement_descriptor_suffix", { max: 22 });
  readMethodOptions(p);
  p.ignore("shipping");
  const expandPaths = p.strings("expand");
  const data = methodData ? readMethodData(methodData, "payment_method_data") : undefined;
  p.done();
  const intent = ctx.account.paymentIntent(id!);
  if (!["requires_payment_method", "requires_confirmation", "requires_action"].includes(intent.status)) {
    throw invalidRequest(
      `You cannot update this PaymentIntent because it has a status of ${intent.status}. Updates are only allowed when the PaymentIntent has one of the following statuses: requires_payment_method, requires_confirmation, requires_action.`,
      { code: "payment_intent_unexpected_state" },
    );
  }
  const previous: Record<string, unknown> = {};
  const set = <K extends keyof Stripe.PaymentIntent>(key: K, value: Stripe.PaymentIntent[K] | undefined) => {
    if (value === undefined) return;
    if (JSON.stringify(intent[key]) !== JSON.stringify(value)) previous[key] = intent[key];
    intent[key] = value;
  };
  const nextCurrency = currency ?? intent.currency;
  if (amount !== undefined || currency !== undefined) checkAmount(amount ?? intent.amount, nextCurrency);
  set("amount", amount);
  set("currency", currency);
  if (customerId !== undefined) set("customer", customerRef(ctx.account, customerId));
  if (methodTypes) {
    set("payment_method_types", methodTypes.types);
    set("automatic_payment_methods", methodTypes.automatic ? { allow_redirects: "always", enabled: true } : null);
  }
  set("setup_future_usage", setupFutureUsage);
  if (metadata !== undefined) set("metadata", mergeMetadata(intent.metadata, metadata));
  set("description", description);
  set("receipt_email", receiptEmail);
  set("statement_descriptor", statementDescriptor);
  set("statement_descriptor_suffix", statementDescriptorSuffix);
  const method = data ? methodFrom(ctx, engine, data) : undefined;
  const resolved = method ?? (methodId ? engine.method(ctx, methodId, "payment_method") : undefined);
  if (resolved) {
    engine.checkMethodFor(ctx, resolved, intent.customer as string | null, "payment_method");
    set("payment_method", resolved.id);
  }
  if (intent.status === "requires_action" && (resolved || amount !== undefined || currency !== undefined)) {
    set("status", "requires_confirmation");
    intent.next_action = null;
  } else if (intent.status === "requires_payment_method" && intent.payment_method) {
    set("status", "requires_confirmation");
  }
  // Stripe sends no event for an update of a PaymentIntent (there is no payment_intent.updated).
  return expand(ctx.account, intent, expandPaths);
}

function confirmPaymentIntent(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  const methodId = p.string("payment_method");
  const methodData = p.object("payment_method_data");
  const offSession = offSessionFlag(p);
  const setupFutureUsage = readSetupFutureUsage(p);
  const returnUrl = p.string("return_url");
  const errorOnRequiresAction = p.boolean("error_on_requires_action");
  const receiptEmail = p.string("receipt_email");
  p.boolean("use_stripe_sdk");
  readMethodOptions(p);
  p.ignore("mandate_data", "shipping", "expected_payment_method_type", "key", "radar_options");
  const expandPaths = p.strings("expand");
  const intent = ctx.account.paymentIntent(id!);
  checkClientSecret(ctx, p, intent);
  if (ctx.publishable && offSession !== undefined) {
    throw invalidRequest("off_session cannot be set with a publishable key.", { param: "off_session" });
  }
  if (methodId && methodData) {
    throw invalidRequest("You may only specify one of these parameters: payment_method, payment_method_data.", {
      param: "payment_method_data",
    });
  }
  const data = methodData ? readMethodData(methodData, "payment_method_data") : undefined;
  p.done();
  if (receiptEmail !== undefined) intent.receipt_email = receiptEmail;
  const created = data ? methodFrom(ctx, engine, data) : undefined;
  const method = created ?? (methodId ? engine.method(ctx, methodId, "payment_method") : undefined);
  engine.confirmPaymentIntent(ctx, intent, { method, offSession, setupFutureUsage, returnUrl, errorOnRequiresAction });
  return expand(ctx.account, intent, ctx.publishable ? undefined : expandPaths);
}

function cancelPaymentIntent(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const reason = p.enumeration("cancellation_reason", [
    "abandoned",
    "duplicate",
    "fraudulent",
    "requested_by_customer",
  ]);
  const expandPaths = p.strings("expand");
  p.done();
  const intent = engine.cancelPaymentIntent(ctx, ctx.account.paymentIntent(id!), reason ?? null);
  return expand(ctx.account, intent, expandPaths);
}

function listPaymentIntents(ctx: Context, p: Params) {
  requireSecret(ctx);
  const customer = p.string("customer");
  const window = readWindow(p);
  const expandPaths = p.strings("expand");
  p.ignore("created");
  p.done();
  const items = ctx.account
    .all<Stripe.PaymentIntent>("payment_intent")
    .filter((i) => customer === undefined || i.customer === customer);
  return expand(ctx.account, list("/v1/payment_intents", items, window), expandPaths);
}

function createSetupIntent(ctx: Context, p: Params, _: string[], engine: Engine) {
  requireSecret(ctx);
  const customerId = p.string("customer");
  const methodId = p.string("payment_method");
  const methodData = p.object("payment_method_data");
  const methodTypes = readMethodTypes(p);
  const usage = p.enumeration("usage", ["off_session", "on_session"]);
  const confirm = p.boolean("confirm") ?? false;
  const returnUrl = p.string("return_url");
  const metadata = p.metadata() ?? {};
  const description = p.string("description", { max: 1000 });
  p.boolean("use_stripe_sdk");
  readMethodOptions(p);
  p.ignore("mandate_data", "single_use", "flow_directions", "attach_to_self", "payment_method_configuration");
  const expandPaths = p.strings("expand");
  if (returnUrl !== undefined && !confirm) {
    throw invalidRequest(
      "The parameter return_url cannot be passed when creating a SetupIntent unless confirm is set to true.",
      { param: "return_url" },
    );
  }
  if (methodId && methodData) {
    throw invalidRequest("You may only specify one of these parameters: payment_method, payment_method_data.", {
      param: "payment_method_data",
    });
  }
  const data = methodData ? readMethodData(methodData, "payment_method_data") : undefined;
  p.done();
  const customer = customerRef(ctx.account, customerId);
  const method = data ? methodFrom(ctx, engine, data) : undefined;
  const resolved = method ?? (methodId ? engine.method(ctx, methodId, "payment_method") : undefined);
  if (resolved) engine.checkMethodFor(ctx, resolved, customer, "payment_method");
  const intent = objects.setupIntent({
    customer,
    description: description ?? null,
    metadata,
    paymentMethodTypes: methodTypes?.types ?? ["card"],
    automaticPaymentMethods: methodTypes ? methodTypes.automatic : true,
    usage: usage ?? "off_session",
    livemode: ctx.account.livemode,
  });
  if (resolved) {
    intent.payment_method = resolved.id;
    intent.status = "requires_confirmation";
  }
  ctx.account.put(intent);
  engine.emit(ctx, "setup_intent.created", intent);
  if (confirm) engine.confirmSetupIntent(ctx, intent, { returnUrl });
  return expand(ctx.account, intent, expandPaths);
}

function retrieveSetupIntent(ctx: Context, p: Params, [id]: string[]) {
  const expandPaths = p.strings("expand");
  p.ignore("key");
  const intent = ctx.account.setupIntent(id!);
  checkClientSecret(ctx, p, intent);
  p.done();
  return expand(ctx.account, intent, ctx.publishable ? undefined : expandPaths);
}

function updateSetupIntent(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const customerId = p.string("customer");
  const methodId = p.string("payment_method");
  const metadata = p.metadata();
  const description = p.nullableString("description", { max: 1000 });
  const expandPaths = p.strings("expand");
  p.done();
  const intent = ctx.account.setupIntent(id!);
  if (!["requires_payment_method", "requires_confirmation", "requires_action"].includes(intent.status)) {
    throw invalidRequest(`You cannot update this SetupIntent because it has a status of ${intent.status}.`, {
      code: "setup_intent_unexpected_state",
    });
  }
  if (customerId !== undefined) intent.customer = customerRef(ctx.account, customerId);
  if (metadata !== undefined) intent.metadata = mergeMetadata(intent.metadata ?? {}, metadata);
  if (description !== undefined) intent.description = description;
  if (methodId) {
    const method = engine.method(ctx, methodId, "payment_method");
    engine.checkMethodFor(ctx, method, intent.customer as string | null, "payment_method");
    intent.payment_method = method.id;
    intent.status = "requires_confirmation";
    intent.next_action = null;
  }
  return expand(ctx.account, intent, expandPaths);
}

function confirmSetupIntent(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  const methodId = p.string("payment_method");
  const methodData = p.object("payment_method_data");
  const returnUrl = p.string("return_url");
  p.boolean("use_stripe_sdk");
  readMethodOptions(p);
  p.ignore("mandate_data", "expected_payment_method_type", "key");
  const expandPaths = p.strings("expand");
  const intent = ctx.account.setupIntent(id!);
  checkClientSecret(ctx, p, intent);
  if (methodId && methodData) {
    throw invalidRequest("You may only specify one of these parameters: payment_method, payment_method_data.", {
      param: "payment_method_data",
    });
  }
  const data = methodData ? readMethodData(methodData, "payment_method_data") : undefined;
  p.done();
  const created = data ? methodFrom(ctx, engine, data) : undefined;
  const method = created ?? (methodId ? engine.method(ctx, methodId, "payment_method") : undefined);
  engine.confirmSetupIntent(ctx, intent, { method, returnUrl });
  return expand(ctx.account, intent, ctx.publishable ? undefined : expandPaths);
}

function cancelSetupIntent(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const reason = p.enumeration("cancellation_reason", ["abandoned", "duplicate", "requested_by_customer"]);
  const expandPaths = p.strings("expand");
  p.done();
  const intent = ctx.account.setupIntent(id!);
  if (!["requires_payment_method", "requires_confirmation", "requires_action"].includes(intent.status)) {
    throw invalidRequest(
      `You cannot cancel this SetupIntent because it has a status of ${intent.status}. Only a SetupIntent with one of the following statuses may be canceled: requires_payment_method, requires_confirmation, requires_action.`,
      { code: "setup_intent_unexpected_state" },
    );
  }
  const previous = { status: intent.status };
  intent.status = "canceled";
  intent.cancellation_reason = reason ?? null;
  intent.next_action = null;
  engine.emit(ctx, "setup_intent.canceled", intent, previous);
  return expand(ctx.account, intent, expandPaths);
}

function retrieveCharge(ctx: Context, p: Params, [id]: string[]) {
  requireSecret(ctx);
  const expandPaths = p.strings("expand");
  p.done();
  return expand(ctx.account, ctx.account.charge(id!), expandPaths);
}

function listCharges(ctx: Context, p: Params) {
  requireSecret(ctx);
  const intent = p.string("payment_intent");
  const customer = p.string("customer");
  const window = readWindow(p);
  const expandPaths = p.strings("expand");
  p.ignore("created", "transfer_group");
  p.done();
  const items = ctx.account
    .all<Stripe.Charge>("charge")
    .filter(
      (c) =>
        (intent === undefined || c.payment_intent === intent) && (customer === undefined || c.customer === customer),
    );
  return expand(ctx.account, list("/v1/charges", items, window), expandPaths);
}

function retrieveBalanceTransaction(ctx: Context, p: Params, [id]: string[]) {
  requireSecret(ctx);
  const expandPaths = p.strings("expand");
  p.done();
  return expand(ctx.account, ctx.account.balanceTransaction(id!), expandPaths);
}

function createRefund(ctx: Context, p: Params, _: string[], engine: Engine) {
  requireSecret(ctx);
  const intentId = p.string("payment_intent");
  const chargeId = p.string("charge");
  const amount = p.integer("amount", { min: 1 });
  const reason = p.enumeration("reason", ["duplicate", "fraudulent", "requested_by_customer"]);
  const metadata = p.metadata() ?? {};
  p.ignore("instructions_email", "origin");
  const expandPaths = p.strings("expand");
  if (!intentId && !chargeId) {
    throw invalidRequest("One of the following params should be provided for this request: payment_intent or charge.");
  }
  if (intentId && chargeId) {
    throw invalidRequest("You may only specify one of these parameters: charge, payment_intent.", {
      param: "payment_intent",
    });
  }
  p.done();
  const refund = engine.createRefund(ctx, {
    intent: intentId ? ctx.account.paymentIntent(intentId, "payment_intent") : undefined,
    charge: chargeId ? ctx.account.charge(chargeId, "charge") : undefined,
    amount,
    reason: reason ?? null,
    metadata,
  });
  return expand(ctx.account, refund, expandPaths);
}

function retrieveRefund(ctx: Context, p: Params, [id]: string[]) {
  requireSecret(ctx);
  const expandPaths = p.strings("expand");
  p.done();
  return expand(ctx.account, ctx.account.refund(id!), expandPaths);
}

function updateRefund(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const metadata = p.metadata();
  const expandPaths = p.strings("expand");
  p.done();
  const refund = ctx.account.refund(id!);
  if (metadata !== undefined) {
    const previous = { metadata: refund.metadata };
    refund.metadata = mergeMetadata(refund.metadata ?? {}, metadata);
    engine.emit(ctx, "refund.updated", refund, previous);
  }
  return expand(ctx.account, refund, expandPaths);
}

function listRefunds(ctx: Context, p: Params) {
  requireSecret(ctx);
  const intent = p.string("payment_intent");
  const charge = p.string("charge");
  const window = readWindow(p);
  const expandPaths = p.strings("expand");
  p.ignore("created");
  p.done();
  const items = ctx.account
    .all<Stripe.Refund>("refund")
    .filter(
      (r) => (intent === undefined || r.payment_intent === intent) && (charge === undefined || r.charge === charge),
    );
  return expand(ctx.account, list("/v1/refunds", items, window), expandPaths);
}

function retrieveDispute(ctx: Context, p: Params, [id]: string[]) {
  requireSecret(ctx);
  const expandPaths = p.strings("expand");
  p.done();
  return expand(ctx.account, ctx.account.dispute(id!), expandPaths);
}

function listDisputes(ctx: Context, p: Params) {
  requireSecret(ctx);
  const intent = p.string("payment_intent");
  const charge = p.string("charge");
  const window = readWindow(p);
  const expandPaths = p.strings("expand");
  p.ignore("created");
  p.done();
  const items = ctx.account
    .all<Stripe.Dispute>("dispute")
    .filter(
      (d) => (intent === undefined || d.payment_intent === intent) && (charge === undefined || d.charge === charge),
    );
  return expand(ctx.account, list("/v1/disputes", items, window), expandPaths);
}

/**
 * Evidence and metadata. As in Stripe's test mode, submitting evidence whose `uncategorized_text`
 * is `winning_evidence` wins the dispute and `losing_evidence` loses it; other evidence puts it
 * `under_review`.
 */
function updateDispute(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const evidence = p.object("evidence");
  const text: Record<string, string> = {};
  if (evidence) {
    for (const key of Object.keys(evidence.raw)) {
      const value = evidence.string(key, { max: 20_000 });
      if (value !== undefined) text[key] = value;
    }
    evidence.done();
  }
  const metadata = p.metadata();
  const submit = p.boolean("submit") ?? true;
  const expandPaths = p.strings("expand");
  p.done();
  const dispute = ctx.account.dispute(id!);
  if (dispute.status === "won" || dispute.status === "lost") {
    throw invalidRequest(`This dispute is already closed (${dispute.status}).`, { code: "dispute_already_closed" });
  }
  const previous: Record<string, unknown> = {};
  if (evidence) {
    previous.evidence = { ...dispute.evidence };
    Object.assign(dispute.evidence, text);
    dispute.evidence_details.has_evidence = true;
  }
  if (metadata !== undefined) {
    previous.metadata = dispute.metadata;
    dispute.metadata = mergeMetadata(dispute.metadata, metadata);
  }
  if (evidence && submit) {
    dispute.evidence_details.submission_count += 1;
    if (text.uncategorized_text === "winning_evidence") return engine.closeDispute(ctx, dispute, "won");
    if (text.uncategorized_text === "losing_evidence") return engine.closeDispute(ctx, dispute, "lost");
    previous.status = dispute.status;
    dispute.status = "under_review";
  }
  engine.emit(ctx, "charge.dispute.updated", dispute, previous);
  return expand(ctx.account, dispute, expandPaths);
}

function closeDispute(ctx: Context, p: Params, [id]: string[], engine: Engine) {
  requireSecret(ctx);
  const expandPaths = p.strings("expand");
  p.done();
  return expand(ctx.account, engine.closeDispute(ctx, ctx.account.dispute(id!), "lost"), expandPaths);
}

function retrieveEvent(ctx: Context, p: Params, [id]: string[]) {
  requireSecret(ctx);
  p.strings("expand");
  p.done();
  const record = ctx.account.eventsById.get(id!);
  if (!record) throw missing("event", id!);
  return record.event;
}

function listEvents(ctx: Context, p: Params) {
  requireSecret(ctx);
  const type = p.string("type");
  const types = p.strings("types");
  const window = readWindow(p);
  p.ignore("created", "delivery_success", "expand");
  p.done();
  const matches = (eventType: string) => {
    if (type !== undefined) {
      const pattern = new RegExp(`^${type.replace(/[.]/g, "\\.").replace(/\*/g, ".*")}$`);
      if (!pattern.test(eventType)) return false;
    }
    return types === undefined || types.includes(eventType);
  };
  const items = ctx.account.events.map((record) => record.event).filter((event) => matches(event.type));
  return list("/v1/events", items, window);
}

export const API_ROUTES: ApiRoute[] = [
  route("GET", "/v1/account", retrieveAccount),
  route("GET", "/v1/accounts/:id", (ctx, p, [id]) => {
    if (id !== ctx.account.id) throw missing("account", id!);
    return retrieveAccount(ctx, p);
  }),
  route("POST", "/v1/customers", createCustomer),
  route("GET", "/v1/customers", listCustomers),
  route("GET", "/v1/customers/:id", retrieveCustomer),
  route("POST", "/v1/customers/:id", updateCustomer),
  route("DELETE", "/v1/customers/:id", deleteCustomer),
  route("GET", "/v1/customers/:id/payment_methods", listPaymentMethods),
  route("POST", "/v1/payment_methods", createPaymentMethod, true),
  route("GET", "/v1/payment_methods", (ctx, p) => listPaymentMethods(ctx, p, [])),
  route("GET", "/v1/payment_methods/:id", retrievePaymentMethod),
  route("POST", "/v1/payment_methods/:id", updatePaymentMethod),
  route("POST", "/v1/payment_methods/:id/attach", attachPaymentMethod),
  route("POST", "/v1/payment_methods/:id/detach", detachPaymentMethod),
  route("POST", "/v1/payment_intents", createPaymentIntent),
  route("GET", "/v1/payment_intents", listPaymentIntents),
  route("GET", "/v1/payment_intents/:id", retrievePaymentIntent, true),
  route("POST", "/v1/payment_intents/:id", updatePaymentIntent),
  route("POST", "/v1/payment_intents/:id/confirm", confirmPaymentIntent, true),
  route("POST", "/v1/payment_intents/:id/cancel", cancelPaymentIntent),
  route("POST", "/v1/setup_intents", createSetupIntent),
  route("GET", "/v1/setup_intents/:id", retrieveSetupIntent, true),
  route("POST", "/v1/setup_intents/:id", updateSetupIntent),
  route("POST", "/v1/setup_intents/:id/confirm", confirmSetupIntent, true),
  route("POST", "/v1/setup_intents/:id/cancel", cancelSetupIntent),
  route("GET", "/v1/charges", listCharges),
  route("GET", "/v1/charges/:id", retrieveCharge),
  route("GET", "/v1/balance_transactions/:id", retrieveBalanceTransaction),
  route("POST", "/v1/refunds", createRefund),
  route("GET", "/v1/refunds", listRefunds),
  route("GET", "/v1/refunds/:id", retrieveRefund),
  route("POST", "/v1/refunds/:id", updateRefund),
  route("GET", "/v1/disputes", listDisputes),
  route("GET", "/v1/disputes/:id", retrieveDispute),
  route("POST", "/v1/disputes/:id", updateDispute),
  route("POST", "/v1/disputes/:id/close", closeDispute),
  route("GET", "/v1/events", listEvents),
  route("GET", "/v1/events/:id", retrieveEvent),
];
