/**
 * The stand-in's objects, built with the `stripe` package's own types (the authority for the
 * response shapes): every required field of Stripe.PaymentIntent, Stripe.Charge … is present with
 * its type, so a shape the package would not recognise fails the type check here, not in the product.
 * Fields the stand-in has no use for carry Stripe's empty value (null, [], false).
 */
import { createHash, randomBytes } from "node:crypto";
import type Stripe from "stripe";
import { displayBrand, type TestCard } from "./cards.ts";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

let pool = Buffer.alloc(0);
let used = 0;

/**
 * `length` random bytes from a pool refilled 4 KiB at a time: the stand-in makes several IDs and
 * secrets per request, and one system call each was a good part of its CPU time in the benchmarks.
 */
function randomBytesFromPool(length: number): Buffer {
  if (used + length > pool.length) {
    pool = randomBytes(Math.max(4096, length));
    used = 0;
  }
  used += length;
  return pool.subarray(used - length, used);
}

/** `pi_3Q…`: a prefix and 24 random base-62 characters, the shape of Stripe's IDs. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytesFromPool(length);
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte % 62];
  return `${prefix}_${out}`;
}

export function now(): number {
  return Math.floor(Date.now() / 1000);
}

export interface CardInput {
  card: TestCard;
  expMonth: number;
  expYear: number;
  cvc: string | null;
}

export interface BillingInput {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  address?: Stripe.Address | null;
}

function fingerprint(number: string): string {
  return createHash("sha256").update(`stand-in:${number}`).digest("base64url").replace(/[-_]/g, "").slice(0, 16);
}

export function paymentMethod(input: CardInput, billing: BillingInput, livemode: boolean): Stripe.PaymentMethod {
  const { card } = input;
  return {
    id: newId("pm"),
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: {
      address: billing.address ?? {
        city: null,
        country: null,
        line1: null,
        line2: null,
        postal_code: null,
        state: null,
      },
      email: billing.email ?? null,
      name: billing.name ?? null,
      phone: billing.phone ?? null,
      tax_id: null,
    },
    card: {
      brand: card.brand,
      checks: {
        address_line1_check: null,
        address_postal_code_check: null,
        cvc_check: input.cvc ? "unchecked" : null,
      },
      country: card.country,
      display_brand: displayBrand(card.brand),
      exp_month: input.expMonth,
      exp_year: input.expYear,
      fingerprint: fingerprint(card.number),
      funding: card.funding,
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: now(),
    customer: null,
    customer_account: null,
    livemode,
    metadata: {},
    type: "card",
  };
}

export function customer(livemode: boolean): Stripe.Customer {
  return {
    id: newId("cus", 14),
    object: "customer",
    address: null,
    balance: 0,
    created: now(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: null,
    invoice_prefix: randomBytesFromPool(4).toString("hex").toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode,
    metadata: {},
    name: null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

export interface PaymentIntentInput {
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  paymentMethodTypes: string[];
  automaticPaymentMethods: boolean;
  setupFutureUsage: Stripe.PaymentIntent.SetupFutureUsage | null;
  receiptEmail: string | null;
  statementDescriptor: string | null;
  statementDescriptorSuffix: string | null;
  captureMethod: Stripe.PaymentIntent.CaptureMethod;
  livemode: boolean;
}

export function paymentIntent(input: PaymentIntentInput): Stripe.PaymentIntent {
  const id = newId("pi");
  return {
    id,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: input.automaticPaymentMethods ? { allow_redirects: "always", enabled: true } : null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: input.captureMethod,
    client_secret: `${id}_secret_${randomBytesFromPool(18).toString("base64url").replace(/[-_]/g, "x")}`,
    confirmation_method: "automatic",
    created: now(),
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: input.livemode,
    managed_payments: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: {
        installments: null,
        mandate_options: null,
        network: null,
        request_three_d_secure: "automatic",
      },
    },
    payment_method_types: input.paymentMethodTypes,
    payment_record: null,
    processing: null,
    receipt_email: input.receiptEmail,
    review: null,
    setup_future_usage: input.setupFutureUsage,
    shipping: null,
    source: null,
    statement_descriptor: input.statementDescriptor,
    statement_descriptor_suffix: input.statementDescriptorSuffix,
    status: "requires_payment_method",
    transfer_data: null,
    transfer_group: null,
  };
}

export interface SetupIntentInput {
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  paymentMethodTypes: string[];
  automaticPaymentMethods: boolean;
  usage: string;
  livemode: boolean;
}

export function setupIntent(input: SetupIntentInput): Stripe.SetupIntent {
  const id = newId("seti");
  return {
    id,
    object: "setup_intent",
    allowed_payment_method_types: null,
    application: null,
    automatic_payment_methods: input.automaticPaymentMethods ? { allow_redirects: "always", enabled: true } : null,
    cancellation_reason: null,
    client_secret: `${id}_secret_${randomBytesFromPool(18).toString("base64url").replace(/[-_]/g, "x")}`,
    created: now(),
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: input.livemode,
    mandate: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { mandate_options: null, network: null, request_three_d_secure: "automatic" },
    },
    payment_method_types: input.paymentMethodTypes,
    single_use_mandate: null,
    status: "requires_payment_method",
    usage: input.usage,
  };
}

export interface ChargeInput {
  intent: Stripe.PaymentIntent;
  method: Stripe.PaymentMethod;
  status: Stripe.Charge.Status;
  failure: { code: string; declineCode: string | undefined; message: string } | null;
  authenticated: boolean;
  accountName: string;
}

export function charge(input: ChargeInput): Stripe.Charge {
  const { intent, method, failure } = input;
  const card = method.card!;
  const succeeded = input.status === "succeeded";
  const id = newId("ch");
  return {
    id,
    object: "charge",
    amount: intent.amount,
    amount_captured: succeeded ? intent.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: method.billing_details,
    calculated_statement_descriptor: (intent.statement_descriptor ?? input.accountName).toUpperCase().slice(0, 22),
    captured: succeeded,
    created: now(),
    currency: intent.currency,
    customer: typeof intent.customer === "string" ? intent.customer : (intent.customer?.id ?? null),
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    fraud_details: {},
    livemode: intent.livemode,
    metadata: { ...intent.metadata },
    on_behalf_of: null,
    outcome: failure
      ? {
          advice_code: failure.declineCode === "insufficient_funds" ? "try_again_later" : "do_not_try_again",
          network_advice_code: null,
          network_decline_code: null,
          network_status: "declined_by_network",
          reason: failure.declineCode ?? failure.code,
          risk_level: "normal",
          risk_score: 20,
          seller_message: "The bank did not return any further details with this decline.",
          type: "issuer_declined",
        }
      : {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: "approved_by_network",
          reason: null,
          risk_level: "normal",
          risk_score: 20,
          seller_message: "Payment complete.",
          type: "authorized",
        },
    paid: succeeded,
    payment_intent: intent.id,
    payment_method: method.id,
    payment_method_details: {
      card: {
        amount_authorized: failure ? null : intent.amount,
        authorization_code: failure ? null : String(100000 + (intent.amount % 900000)),
        brand: card.brand,
        checks: card.checks,
        country: card.country,
        electronic_commerce_indicator: input.authenticated ? "05" : null,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        fingerprint: card.fingerprint,
        funding: card.funding,
        installments: null,
        last4: card.last4,
        mandate: null,
        network: card.brand,
        network_transaction_id: failure ? null : randomBytesFromPool(8).toString("hex"),
        regulated_status: "unregulated",
        three_d_secure: input.authenticated
          ? {
              authentication_flow: "challenge",
              electronic_commerce_indicator: "05",
              exemption_indicator: null,
              result: "authenticated",
              result_reason: null,
              transaction_id: randomBytesFromPool(16).toString("hex"),
              version: "2.2.0",
            }
          : null,
        transaction_link_id: null,
        wallet: null,
      },
      type: "card",
    },
    receipt_email: intent.receipt_email,
    receipt_number: null,
    receipt_url: succeeded ? `https://pay.stripe.com/receipts/stand-in/${id}` : null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: intent.statement_descriptor,
    statement_descriptor_suffix: intent.statement_descriptor_suffix,
    status: input.status,
    transfer_data: null,
    transfer_group: null,
  };
}

export interface BalanceInput {
  amount: number;
  currency: string;
  exchangeRate: number | null;
  fee: number;
  type: Stripe.BalanceTransaction.Type;
  reportingCategory: string;
  source: string;
  description: string | null;
  feeDescription?: string;
}

export function balanceTransaction(input: BalanceInput): Stripe.BalanceTransaction {
  const created = now();
  return {
    id: newId("txn"),
    object: "balance_transaction",
    amount: input.amount,
    available_on: created + 2 * 86_400,
    balance_type: "payments",
    created,
    currency: input.currency,
    description: input.description,
    exchange_rate: input.exchangeRate,
    fee: input.fee,
    fee_details:
      input.fee === 0
        ? []
        : [
            {
              amount: input.fee,
              application: null,
              currency: input.currency,
              description: input.feeDescription ?? "Stripe processing fees",
              type: "stripe_fee",
            },
          ],
    net: input.amount - input.fee,
    reporting_category: input.reportingCategory,
    source: input.source,
    status: "pending",
    type: input.type,
  };
}

export interface RefundInput {
  amount: number;
  charge: Stripe.Charge;
  reason: Stripe.Refund.Reason | null;
  metadata: Record<string, string>;
}

export function refund(input: RefundInput): Stripe.Refund {
  return {
    id: newId("re"),
    object: "refund",
    amount: input.amount,
    balance_transaction: null,
    charge: input.charge.id,
    created: now(),
    currency: input.charge.currency,
    customer: typeof input.charge.customer === "string" ? input.charge.customer : null,
    customer_account: null,
    destination_details: {
      card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
      type: "card",
    },
    metadata: input.metadata,
    payment_intent: typeof input.charge.payment_intent === "string" ? input.charge.payment_intent : null,
    payment_method: input.charge.payment_method,
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "pending",
    transfer_reversal: null,
  };
}

const EMPTY_EVIDENCE: Stripe.Dispute.Evidence = {
  access_activity_log: null,
  billing_address: null,
  cancellation_policy: null,
  cancellation_policy_disclosure: null,
  cancellation_rebuttal: null,
  customer_communication: null,
  customer_email_address: null,
  customer_name: null,
  customer_purchase_ip: null,
  customer_signature: null,
  duplicate_charge_documentation: null,
  duplicate_charge_explanation: null,
  duplicate_charge_id: null,
  enhanced_evidence: {},
  product_description: null,
  receipt: null,
  refund_policy: null,
  refund_policy_disclosure: null,
  refund_refusal_explanation: null,
  service_date: null,
  service_documentation: null,
  shipping_address: null,
  shipping_carrier: null,
  shipping_date: null,
  shipping_documentation: null,
  shipping_tracking_number: null,
  uncategorized_file: null,
  uncategorized_text: null,
};

export function dispute(charge: Stripe.Charge, withdrawn: Stripe.BalanceTransaction): Stripe.Dispute {
  const created = now();
  return {
    id: newId("dp"),
    object: "dispute",
    amount: charge.amount,
    balance_transactions: [withdrawn],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: { ...EMPTY_EVIDENCE },
    evidence_details: {
      due_by: created + 7 * 86_400,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: "manual",
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: charge.livemode,
    metadata: {},
    network_reason_code: "10.4",
    payment_intent: charge.payment_intent,
    payment_method_details: {
      card: {
        brand: charge.payment_method_details?.card?.brand ?? "visa",
        case_type: "chargeback",
        network_reason_code: "10.4",
        network: charge.payment_method_details?.card?.network ?? "visa",
      },
      type: "card",
    },
    reason: "fraudulent",
    status: "needs_response",
  };
}

export interface AccountInput {
  id: string;
  name: string;
  country: string;
  defaultCurrency: string;
  email: string | null;
  created: number;
}

export function account(input: AccountInput): Stripe.Account {
  return {
    id: input.id,
    object: "account",
    business_profile: {
      mcc: "5734",
      minority_owned_business_designation: null,
      name: input.name,
      specified_commercial_transactions_act_url: null,
      support_address: null,
      support_email: input.email,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: "company",
    charges_enabled: true,
    country: input.country,
    created: input.created,
    default_currency: input.defaultCurrency,
    details_submitted: true,
    email: input.email,
    metadata: {},
    payouts_enabled: true,
    settings: {
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
      card_payments: {
        decline_on: { avs_failure: false, cvc_failure: false },
        statement_descriptor_prefix: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      dashboard: { display_name: input.name, timezone: "Etc/UTC" },
      payments: {
        statement_descriptor: input.name.toUpperCase().slice(0, 22),
        statement_descriptor_kana: null,
        statement_descriptor_kanji: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
    },
    type: "standard",
  };
}
