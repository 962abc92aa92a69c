/**
 * The one error type (docs/architecture.md, One error type): every layer throws an ApiError (its code, its
 * detail, and for bad input the offending fields), and only lib/http renders it. Nothing here
 * knows HTTP beyond the status number each code carries, so lib/db, lib/schemas and the pure
 * lib/billing throw it too.
 *
 * The name stays ApiError, not AppError: it is the error the API answers with (the codes are the
 * API's catalogue), and keeping it made this move a change of import lines everywhere else.
 */
import type { z } from "zod";
import { ID_PREFIX } from "./id-prefixes.ts";

/** Every error code the API returns, with its HTTP status: the one table (docs/architecture.md). */
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_field: 400,
  invalid_version: 400,
  entity_archived: 400,
  transaction_immutable: 400,
  transaction_invalid_status_change: 400,
  transaction_invalid_status_to_revise: 400,
  transaction_revised_limit_reached: 400,
  adjustment_transaction_invalid_status_for_refund: 400,
  adjustment_transaction_invalid_status_for_credit: 400,
  transaction_invoice_unavailable: 400,
  transaction_not_payable: 400,
  payment_link_archived: 400,
  payment_link_used: 400,
  transaction_already_paid: 400,
  sandbox_only: 400,
  adjustment_credit_note_unavailable: 400,
  report_not_ready: 400,
  report_expired: 400,
  report_failed: 400,
  report_empty: 400,
  notification_maximum_active_settings_reached: 400,
  notification_replay_invalid_origin_type: 400,
  notification_cannot_replay: 400,
  notification_cannot_retry: 400,
  max_lookback_exceeded: 400,
  subscription_update_when_canceled: 400,
  subscription_update_when_past_due: 400,
  subscription_only_update_items_on_paused_subscription: 400,
  subscription_locked_pending_changes: 400,
  subscription_is_canceled_action_invalid: 400,
  subscription_cannot_be_paused: 400,
  subscription_continuing_existing_billing_period_not_allowed_subscription_past_due: 400,
  subscription_continuing_existing_billing_period_not_allowed: 400,
  subscription_continuing_existing_billing_period_not_allowed_no_billing_period: 400,
  subscription_must_be_paused: 400,
  subscription_missing_payment_method_cannot_resume: 400,
  subscription_cannot_activate: 400,
  subscription_manual_collection_mode_activation_not_allowed: 400,
  subscription_missing_payment_method_cannot_activate: 400,
  subscription_payment_declined: 400,
  subscription_not_active: 400,
  subscription_not_automatic_collection: 400,
  subscription_trialing_items_update_invalid_options: 400,
  subscription_missing_payment_method_cannot_update: 400,
  subscription_next_billed_at_too_soon: 400,
  subscription_items_update_missing_proration_billing_mode: 400,
  subscription_duplicate_price_ids: 400,
  subscription_quantity_missing_for_new_items: 400,
  subscription_update_transaction_balance_less_than_charge_limit: 400,
  invalid_token: 401,
  forbidden: 403,
  invalid_client_token: 403,
  document_link_invalid: 403,
  not_found: 404,
  method_not_allowed: 405,
  document_link_expired: 410,
  conflict: 409,
  customer_already_exists: 409,
  idempotency_key_in_use: 409,
  subscription_locked_renewal: 409,
  request_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  too_many_requests: 429,
  subscription_immediate_charge_hour_limit_exceeded: 429,
  subscription_immediate_charge_24_hour_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** What each code means, shown on the documentation page that `documentation_url` points at. */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  bad_request:
    "The request could not be read: the body is not valid UTF-8, not JSON, not a JSON object, or is sent with a content type other than application/json; or the path is not valid percent-encoded UTF-8.",
  invalid_field: "One or more fields failed validation. `errors` lists each offending field with a message.",
  invalid_version:
    "The Service-Version header names a version this API does not have. Send 1, or leave the header out for the current version.",
  entity_archived:
    "The entity is archived. Archived entities cannot be changed, except to set their status back to active.",
  transaction_immutable:
    "The transaction is billed, completed or canceled and cannot be changed: only draft and ready transactions can be edited, and a billed one can only be canceled. Record refunds and credits for billed and completed transactions with adjustments.",
  transaction_invalid_status_change:
    "The transaction cannot move to the status sent; the detail names the move. Only `billed` (from `ready`) and `canceled` (from `draft`, `ready` or `billed`) can be sent: the other statuses are set by the service (`draft` becomes `ready` once the transaction has items, a customer and an address).",
  transaction_invalid_status_to_revise:
    "Only billed, completed and past-due transactions can be revised: draft and ready ones are edited with PATCH /transactions/{transaction_id}, and canceled ones are void.",
  transaction_revised_limit_reached:
    "A transaction can be revised only once, and this one already was (`revised_at` is set).",
  adjustment_transaction_invalid_status_for_refund:
    "Only completed transactions can be refunded: a refund returns money the customer paid. To lower what is owed on an unpaid invoice, create a credit.",
  adjustment_transaction_invalid_status_for_credit:
    "Only manually-collected transactions that are billed or past due can be credited (a credit lowers what the customer owes on an issued invoice). Refund a completed transaction instead.",
  transaction_invoice_unavailable:
    "The transaction has no invoice PDF (yet): a manually-collected transaction has one once it is billed, an automatically-collected one once it is completed, and a zero-value transaction never has one.",
  payment_link_archived:
    "The payment link is archived: it no longer opens a checkout. Its merchant can set its status back to active, or send a new link.",
  payment_link_used:
    "The payment link is single-use (`reusable` false) and its one transaction has been paid or closed: it opens no other checkout. Ask the merchant for a new link.",
  transaction_not_payable:
    "The transaction cannot take a payment in its status: the hosted checkout takes payments for ready automatically-collected transactions and for billed or past-due manual invoices with checkout enabled; an invoice is marked paid only when billed or past due. The detail names the status.",
  transaction_already_paid:
    "The transaction is already completed: its payment was captured (or the invoice marked paid). It is never charged twice.",
  sandbox_only:
    "Simulated payments (test cards at the hosted checkout) exist only in the sandbox environment: this server is live, and processes no real cards.",
  adjustment_credit_note_unavailable:
    "The adjustment has no credit note: only approved refunds and credits have one (a refund pending approval gets it once approved; rejected adjustments and chargebacks never do).",
  report_not_ready:
    "The report is still being generated (status `pending`): poll GET /reports/{report_id} (or wait for the report.updated event) until its status is `ready`, then ask for the download link again.",
  report_expired:
    "The report has expired (status `expired`, 14 days after it was ready) and its file was deleted. Create a report again with the same type and filters.",
  report_failed:
    "The report could not be generated (status `failed`). Create a report again with the same type and filters.",
  report_empty:
    "The report is ready but has no rows (`rows` is 0): nothing matched its filters, so there is no file to download. Create a report with wider filters.",
  notification_maximum_active_settings_reached:
    "The account already has the maximum of 10 active notification destinations. Deactivate or delete one before creating or activating another.",
  notification_replay_invalid_origin_type:
    "Only notifications that an event created (origin `event`) can be replayed, not replays themselves.",
  notification_cannot_replay:
    "The notification is still being delivered. Only notifications whose delivery finished (status `delivered` or `failed`) can be replayed.",
  notification_cannot_retry:
    "Only a notification waiting for its next retry (status `needs_retry`) can be retried now. One not attempted yet is about to be; a delivered or failed one can be replayed.",
  max_lookback_exceeded:
    "The date range of a metrics request (`from` to `to`) is longer than the metric allows (1096 days for revenue). Ask for a shorter range.",
  subscription_update_when_canceled:
    "A canceled subscription is final and cannot be updated. To sell to the customer again, create a new transaction with the subscription's items.",
  subscription_update_when_past_due:
    "The subscription is past due: only `custom_data` and `scheduled_change` (to remove it) can change until its past-due payment is collected.",
  subscription_only_update_items_on_paused_subscription:
    "A paused subscription accepts changes to its `items` only (with `proration_billing_mode` `do_not_bill`), besides `custom_data` and removing its scheduled change.",
  subscription_locked_pending_changes:
    "The subscription has a scheduled pause or cancel, which locks other changes (and activation) until it takes effect. Remove it first with PATCH /subscriptions/{subscription_id} and `scheduled_change: null`.",
  subscription_is_canceled_action_invalid:
    "The subscription is canceled, which is final: it cannot be paused, resumed, canceled again or charged.",
  subscription_cannot_be_paused:
    "The subscription cannot be paused: it is already paused (to change when it resumes, POST /resume with an `effective_from` date), or it is in trial and asked to pause immediately (a trial pauses at its end: `effective_from` `next_billing_period`).",
  subscription_continuing_existing_billing_period_not_allowed_subscription_past_due:
    "A past-due subscription's billing period is unpaid, so it cannot be continued on resume: pause it with `on_resume` `start_new_billing_period`.",
  subscription_continuing_existing_billing_period_not_allowed:
    "`on_resume` `continue_existing_billing_period` needs the subscription to resume before its kept billing period ends, and it would resume after (a pause at the end of a billing period always does). Use `start_new_billing_period`, or resume earlier.",
  subscription_continuing_existing_billing_period_not_allowed_no_billing_period:
    "`on_resume` `continue_existing_billing_period` needs a billing period to continue, and the subscription has none. Use `start_new_billing_period`.",
  subscription_must_be_paused:
    "Only a paused subscription can be resumed (an active one with a scheduled pause can be given a resume date with an `effective_from` date). The detail names the subscription's status.",
  subscription_missing_payment_method_cannot_resume:
    "Resuming starts a new billing period charged to the subscription's saved payment method, and it has none. The customer adds one through the update-payment-method transaction; or resume with `continue_existing_billing_period` while its period lasts.",
  subscription_cannot_activate:
    "Only subscriptions in trial (status `trialing`) can be activated. The detail names the subscription's status.",
  subscription_manual_collection_mode_activation_not_allowed:
    "Manually-collected subscriptions cannot be activated: end the trial by changing `next_billed_at` with `proration_billing_mode` `do_not_bill`.",
  subscription_missing_payment_method_cannot_activate:
    "Activating charges the subscription's saved payment method now, and it has none.",
  subscription_payment_declined:
    "The charge to the subscription's saved payment method was declined, so nothing was changed: the subscription is as it was before the request.",
  subscription_not_active:
    "The action needs an active (or trialing) subscription: resume a paused one, or collect a past-due one's payment first.",
  subscription_not_automatic_collection:
    "The action needs an automatically-collected subscription: a manually-collected one is paid by invoice and keeps no payment method.",
  subscription_trialing_items_update_invalid_options:
    "Items cannot be added to or removed from a subscription in trial, and quantity changes must use `proration_billing_mode` `do_not_bill`.",
  invalid_token:
    "The API key is missing, malformed, unknown, revoked, expired, or belongs to the other environment. Send it as `Authorization: Bearer <API key>`.",
  forbidden:
    "The API key (or the signed-in staff member's role) lacks a permission the request needs: the endpoint's own; the read permission of the entity an event or notification carries (api_key.read for api_key.* events); or, when creating an API key, a permission it asks to grant (a key can only be given what its creator holds). The detail names it.",
  invalid_client_token:
    "Invalid, revoked or expired client-side token: the client-side library's endpoints (/js-api/…) take only an active client-side token of this environment (`test_…` in the sandbox, `live_…` in live), sent as `Authorization: Bearer <token>`. Create one under Developers → Client-side tokens. API keys are not accepted there, and client-side tokens are not accepted by the API.",
  document_link_invalid:
    "The document link is incomplete or its signature does not match: use the link exactly as the API returned it.",
  document_link_expired:
    "The document link has expired (invoice and credit-note links are valid for one hour, report links for 3 minutes). Ask the API for a new one, e.g. GET /transactions/{transaction_id}/invoice or GET /reports/{report_id}/download-url.",
  not_found: "No entity has the ID in the path, or no endpoint has this path.",
  method_not_allowed: "The endpoint does not support this HTTP method.",
  conflict:
    "The request conflicts with the current state of an entity, for example a unique value already in use or a stale revision.",
  customer_already_exists: "An active customer already has this email address. The detail names that customer's ID.",
  request_too_large: "The request body is larger than the server accepts (1 MiB). The server stops reading it there.",
  unsupported_media_type: "The request body must be sent with `Content-Type: application/json`.",
  idempotency_key_in_use:
    "A request with the same Idempotency-Key is still being processed. Retry after it has finished: you then get its answer, replayed.",
  idempotency_key_reused:
    "The Idempotency-Key was already used for a different request (another body, method or path) within the last 24 hours. Use a new key for a new request; a key is reused only to retry the very same request.",
  too_many_requests:
    "Too many requests in a short time: 240 a minute per client address (1,000 for preview endpoints), or, at the hosted checkout, too many declined card attempts. `Retry-After` says how many seconds to wait; the `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers of every API response show the budget left.",
  subscription_missing_payment_method_cannot_update:
    "The change bills the customer now, but the automatically-collected subscription has no saved payment method (e.g. its customer changed). Bill it on the next billing period, or have the customer add a card at the update-payment-method checkout first.",
  subscription_next_billed_at_too_soon:
    "`next_billed_at` must be at least 30 minutes after now (the subscription's clock).",
  subscription_items_update_missing_proration_billing_mode:
    "`proration_billing_mode` is required when `items` or `next_billed_at` change: it says how the change is billed.",
  subscription_duplicate_price_ids:
    "The same price appears in more than one item. Send one item per price, with the total quantity.",
  subscription_quantity_missing_for_new_items: "An item whose price is not on the subscription yet needs a `quantity`.",
  subscription_update_transaction_balance_less_than_charge_limit:
    "The change would charge the customer's card now less than the minimum charge (USD 0.70, or its equivalent in the subscription's currency). Bill it on the next billing period, or with `do_not_bill`.",
  subscription_locked_renewal:
    "The subscription renews within 30 minutes (or its renewal is due): changes that bill wait until it has renewed.",
  subscription_immediate_charge_hour_limit_exceeded:
    "The subscription was charged immediately 20 times in the last hour (changes billed now and one-time charges). Wait (see `Retry-After`), or bill on the next billing period.",
  subscription_immediate_charge_24_hour_limit_exceeded:
    "The subscription was charged immediately 100 times in the last 24 hours (changes billed now and one-time charges). Wait (see `Retry-After`), or bill on the next billing period.",
  internal_error: "Something went wrong on our side. The request ID identifies it in our logs.",
  service_unavailable:
    "The database could not take the request for the moment: it has no free connection (too many clients), is starting up or shutting down, or cannot be reached. The request was not carried out; retry after the seconds in `Retry-After`.",
};

export interface FieldError {
  field: string;
  message: string;
}

/** The one error type of the API. Thrown anywhere below a route; the route wrapper renders it. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = options.errors;
    this.headers = options.headers;
  }

  get detail(): string {
    return this.message;
  }
}

/** 400 `invalid_field` naming one field: how every layer reports one bad input. */
export function invalidField(field: string, message: string): ApiError {
  return invalidFields([{ field, message }]);
}

/** 400 `invalid_field` naming every bad field of a request at once. */
export function invalidFields(errors: FieldError[]): ApiError {
  return new ApiError("invalid_field", "Invalid request.", { errors });
}

/** Whether `error` is an `invalid_field` error (e.g. the pure billing rules' bad input). */
export function isInvalidField(error: unknown): error is ApiError & { errors: FieldError[] } {
  return error instanceof ApiError && error.code === "invalid_field" && error.errors !== undefined;
}

/**
 * The problems of one request, collected rather than thrown one by one, so that one response names
 * every bad field: broken rules as 400 `invalid_field`, archived entities as 400 `entity_archived`
 * (with the same `errors` list naming the field), the former first. One message per field.
 */
export class Problems {
  readonly invalid: FieldError[] = [];
  readonly archived: FieldError[] = [];

  field(field: string, message: string): void {
    if (!this.invalid.some((e) => e.field === field)) this.invalid.push({ field, message });
  }

  archivedField(field: string, message: string): void {
    if (!this.archived.some((e) => e.field === field)) this.archived.push({ field, message });
  }

  get empty(): boolean {
    return this.invalid.length === 0 && this.archived.length === 0;
  }

  throwIfAny(): void {
    if (this.invalid.length > 0) throw invalidFields(this.invalid);
    const [first] = this.archived;
    if (first) {
      throw new ApiError("entity_archived", `${first.field} ${first.message}`, { errors: this.archived });
    }
  }
}

/** "discount group" for `discountGroup`, keyed by ID prefix ("dsg"): how a not-found error names the entity. */
const NOUN_BY_PREFIX = new Map<string, string>(
  Object.entries(ID_PREFIX).map(([entity, prefix]) => [
    prefix,
    entity.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`).replace(/^api key$/, "API key"),
  ]),
);

/**
 * 404 for an unknown ID, in a merchant's words: "No customer with ID ctm_…". An ID whose prefix
 * names no entity (a malformed path segment) is "Nothing with ID …".
 */
export function notFound(id: string): ApiError {
  const prefix = /^([a-z]+)_/.exec(id)?.[1];
  const noun = prefix === undefined ? undefined : NOUN_BY_PREFIX.get(prefix);
  return new ApiError("not_found", `${noun ? `No ${noun}` : "Nothing"} with ID ${id}.`);
}

/** `contacts[0].email` from a zod path. */
export function fieldPath(path: readonly PropertyKey[], prefix = ""): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "(root)";
}

export function fromZodError(error: z.ZodError, prefix = ""): ApiError {
  const errors = error.issues.flatMap((issue) =>
    // An unknown body field is reported under its own name, not as a problem of the whole object.
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ field: fieldPath([...issue.path, key], prefix), message: "is not a known field" }))
      : [{ field: fieldPath(issue.path, prefix), message: issue.message }],
  );
  return invalidFields(errors);
}

/**
 * The request field a unique or foreign-key constraint guards, where it is not what PostgreSQL's
 * error says: a unique index on an expression (`lower(email)`) names no column. Constraints not
 * listed are a conflict without a field (unique: a row made twice by a race, an invoice number) or
 * name the column of the foreign key, which is the request's field of the same name
 * (`notification_setting_id`, `customer_id`, `discount_group_id`, …).
 */
const CONSTRAINT_FIELDS: Record<string, string> = {
  customers_active_email_key: "email",
  discounts_code_key: "code",
  users_email_key: "email",
};

/** Seconds a client is told to wait (`Retry-After`) when the database is unavailable for the moment. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATEs of a database that refuses or drops connections for a while: too_many_connections
 * (the server's max_connections, or a role's or database's CONNECTION LIMIT), cannot_connect_now
 * (starting up, shutting down, in recovery), admin_shutdown (the server stops: `pg_ctl stop`, a
 * restart, pg_terminate_backend) and crash_shutdown, and class 08 (connection exceptions).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  "53300",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

/** Node's network errors while reaching the server: refused, reset, timed out, unreachable, name not resolved. */
const UNAVAILABLE_NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
]);

/**
 * pg's own errors, which carry no code: its pool's `connectionTimeoutMillis` (no connection free
 * in time, lib/db/connection.ts), a client's connect timeout, and a connection the server closed
 * (during a statement, or between two: the client is then "not queryable").
 */
const UNAVAILABLE_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
  "Connection terminated unexpectedly",
  "Client has encountered a connection error and is not queryable",
];

type PgError = { code?: unknown; constraint?: unknown; table?: unknown; detail?: unknown; message?: unknown };

/**
 * Whether `error` is the database being unavailable for the moment (see the sets above), rather
 * than a fault of the request or of our code. Looks through `errors` (Node's AggregateError when
 * every address of a host refused) and `cause`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== "object" || depth > 3) return false;
  const { code, message } = error as PgError;
  if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NETWORK_CODES.has(code))) {
    return true;
  }
  if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((text) => message.startsWith(text))) return true;
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested) && nested.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1);
}

/** `Key (customer_id)=(ctm_…) is not present in table "customers".` → ["customer_id", "ctm_…"]. */
function keyOf(detail: unknown): [string, string] | null {
  const match =
    typeof detail === "string" ? /^Key \((.+?)\)=\((.*)\) (?:is not present|is still referenced)/.exec(detail) : null;
  const [, column, value] = match ?? [];
  return column !== undefined && value !== undefined ? [column, value] : null;
}

/** "customer" for `ctm_…`, else "entity". */
function nounOf(id: string): string {
  const prefix = /^([a-z]+)_/.exec(id)?.[1];
  return (prefix === undefined ? undefined : NOUN_BY_PREFIX.get(prefix)) ?? "entity";
}

/**
 * The one mapping of the database's errors to the API's (rendered by lib/http, whatever layer let
 * them through), so that no hand-written catch is needed for the common cases:
 * - 23505 unique_violation: 409 `conflict`, with a field error when the constraint guards a field
 *   a request sets (CONSTRAINT_FIELDS). Services that can say more keep their own (a customer's
 *   email: `customer_already_exists` naming the customer; a discount code: the discount holding it).
 * - 23503 foreign_key_violation on a write that references a row (gone since it was checked: a
 *   race): 400 `invalid_field` on the referencing field, "no notification setting has the ID …".
 *   On a delete of a row still referenced: 409 `conflict`.
 * - The database unavailable for the moment (isDatabaseUnavailable): 503 `service_unavailable` with
 *   `Retry-After`. Such a request was refused before it changed anything (no connection, or the
 *   server aborted its transaction). The one case we cannot tell apart is a connection cut while a
 *   COMMIT was under way, which a client cannot tell from any network failure either.
 * Null for anything else (an unknown error stays a 500).
 */
export function fromDatabaseError(error: unknown): ApiError | null {
  if (isDatabaseUnavailable(error)) {
    return new ApiError(
      "service_unavailable",
      `The database is unavailable for the moment; nothing was changed. Retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
      { headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) } },
    );
  }
  if (error === null || typeof error !== "object") return null;
  const { code, constraint, table, detail } = error as PgError;
  const name = typeof constraint === "string" ? constraint : "";
  if (code === "23505") {
    const field = CONSTRAINT_FIELDS[name];
    if (!field) return new ApiError("conflict", "A unique value is already in use by another entity.");
    return new ApiError("conflict", `${field} is already in use by another entity; it must be unique.`, {
      errors: [{ field, message: "is already in use by another entity" }],
    });
  }
  if (code === "23503") {
    const key = keyOf(detail);
    if (typeof detail === "string" && detail.includes("is still referenced")) {
      const what = key && !key[0].includes(",") ? `${nounOf(key[1])} ${key[1]}` : "The entity";
      return new ApiError("conflict", `${what} is still used by other entities, so it cannot be removed.`);
    }
    // The column, from the detail or else from the constraint's name (`<table>_<column>_fkey`).
    let field = CONSTRAINT_FIELDS[name] ?? key?.[0];
    if (!field && typeof table === "string" && name.startsWith(`${table}_`) && name.endsWith("_fkey")) {
      field = name.slice(table.length + 1, -"_fkey".length);
    }
    const message =
      key && !key[0].includes(",") ? `no ${nounOf(key[1])} has the ID ${key[1]}` : "names nothing that exists";
    return invalidField(field ?? "(root)", message);
  }
  return null;
}
