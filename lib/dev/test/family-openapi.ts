/**
 * The family's published OpenAPI document (`../shared/reference/paddle-openapi.yaml` beside the
 * repository, OpenAPI 3.1, published 2025-05-27) as a validator of our answers: the integration
 * suite's call() (lib/dev/test/api.ts) checks every 2xx and 4xx JSON answer of an operation the family
 * has (same method and path template) against the family's schema for that operation and status, so
 * that a client of the family, written against that document, reads everything we send.
 *
 * - The document is read at test time from ../shared (never copied into the repository), renamed as
 *   our API is (`pdl_` → `svc_`, `Paddle-Version` → `Service-Version`). Parsing its 36,000 lines of
 *   YAML takes most of a second, so the parsed JSON is cached in the OS temp directory under the hash
 *   of the text: each test process then reads JSON (a few ms). Where the document is absent, the
 *   check says so once and is skipped.
 * - Each operation's schema is compiled once, when a test first meets it (ajv, JSON Schema 2020-12).
 * - What we send on purpose that the family's schemas do not allow (a field, an enum value, a null, a
 *   form of text) is allowed in one list, FAMILY_EXTENSIONS below, each entry with its reason.
 *   Nothing else is.
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { parse } from "yaml";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Where the family's document is: beside the repository's root (in CI, `<clone>/../shared/…`). */
export const FAMILY_DOCUMENT = path.resolve(ROOT, "../shared/reference/paddle-openapi.yaml");

/**
 * Something we send that the family's schema (at `at`, a JSON pointer into the document) does not
 * allow: a `field` its object schema does not name (`additionalProperties: false`), a `value` its
 * enum does not list, null where it has none (`nullable`), or text of another form (`pattern`, which
 * replaces the family's). Either the family added it after the document's date (2025-05-27; its
 * SDKs read it), or it is one of our documented extensions (new optional fields and values, which
 * the family's SDKs ignore: docs/family-conformance.md), or a decision of ours documented where
 * it is made. Every entry says why. A field or value the document has caught up with fails the
 * check (remove its entry then), so those entries never outlive their use.
 */
export type FamilyExtension = { at: string; why: string } & (
  | { field: string }
  | { value: string }
  | { nullable: true }
  | { pattern: string }
);

const DISCOUNT = "/components/schemas/discount";
const PERMISSION = "/components/schemas/permission";
const SCHEMAS = "/components/schemas";
const EVENT_TYPE = "/components/schemas/event_type_name";

export const FAMILY_EXTENSIONS: readonly FamilyExtension[] = [
  // Added by the family after the document's date (its SDKs read them):
  {
    at: DISCOUNT,
    field: "discount_group_id",
    why: "discount groups (family, June 2025: SDK Discount.discount_group_id)",
  },
  { at: DISCOUNT, field: "discount_group", why: "include=discount_group on discounts (family, June 2025)" },
  {
    at: "/components/schemas/status-discount",
    value: "expired",
    why: "the family reports expired discounts so (its SDKs' DiscountStatus has had it since 2024); the document lists only active and archived",
  },
  {
    at: "/components/schemas/status-discount",
    value: "used",
    why: "as expired: a discount whose usage_limit is reached",
  },
  { at: "/components/schemas/tax_mode", value: "location", why: "price tax_mode location (family, November 2025)" },
  { at: EVENT_TYPE, value: "client_token.created", why: "client-side tokens' events (family, July 2025)" },
  { at: EVENT_TYPE, value: "client_token.updated", why: "client-side tokens' events (family, July 2025)" },
  { at: EVENT_TYPE, value: "client_token.revoked", why: "client-side tokens' events (family, July 2025)" },
  { at: EVENT_TYPE, value: "discount_group.created", why: "discount groups' events (family, June 2025)" },
  { at: EVENT_TYPE, value: "discount_group.updated", why: "discount groups' events (family, June 2025)" },
  {
    at: "/components/schemas/permission",
    value: "checkout_domain.read",
    why: "checkout domains' permissions (family, after the document: its Python SDK's checkout_domains)",
  },
  {
    at: "/components/schemas/permission",
    value: "checkout_domain.write",
    why: "checkout domains' permissions (family, after the document)",
  },
  // Where the document is silent:
  {
    at: "/components/schemas/price/properties/id",
    nullable: true,
    why: "a non-catalogue price in PATCH /subscriptions/{id}/preview is not created yet: its id is null, as in the family's transaction previews (price-preview); our own price schema still requires an ID in every other answer",
  },
  // Ours (documented extensions: the family's SDKs ignore them):
  {
    at: DISCOUNT,
    field: "revision_id",
    why: "ours, only with include=revision: the revision PATCH /discounts/dsc_…@dscrev_… names (README: Discount revisions)",
  },
  ...["discount_group.read", "discount_group.write", "client_token.read", "client_token.write"].map((value) => ({
    at: PERMISSION,
    value,
    why: "the permissions of discount groups and client-side tokens, which the family added after the document (June, July 2025)",
  })),
  ...["api_key.read", "api_key.write", "audit_log.read", "event.read", "metrics.read"].map((value) => ({
    at: PERMISSION,
    value,
    why: "ours: API keys, the audit log, events and our metrics endpoints have permissions of their own (lib/auth/permissions.ts); the family's SDKs take a permission they do not know",
  })),
  ...["payment_link.read", "payment_link.write"].map((value) => ({
    at: PERMISSION,
    value,
    why: "ours: payment links (lib/services/payment-links.ts; README: Payment links)",
  })),
  ...["settings.read", "settings.write", "user.read", "user.write"].map((value) => ({
    at: PERMISSION,
    value,
    why: "ours: account settings and the team (lib/auth/permissions.ts)",
  })),
  // Ours, decided and documented where they are made (each answers what the family's would not):
  {
    at: `${SCHEMAS}/apikey-secret-redacted`,
    pattern: "^svc_apikey_(sdbx|live)_…[A-Za-z0-9_]{4}$",
    why: "ours: a key is shown by its last four characters (lib/db/entities/api-key.ts), the family's by its first ones then ****; only its hash is stored",
  },
  {
    at: `${SCHEMAS}/notification_setting/properties/endpoint_secret_key`,
    nullable: true,
    why: "ours: null to callers without notification_setting.write, who could sign requests as us with it (lib/db/entities/notification-setting.ts)",
  },
  {
    at: `${SCHEMAS}/notification_log/properties/response_code`,
    nullable: true,
    why: "ours: null when no server answered (a timeout, a refused connection), with our `error` saying why (lib/db/entities/notification.ts)",
  },
  {
    at: `${SCHEMAS}/notification_log/properties/response_body`,
    nullable: true,
    why: "ours: null when no server answered, as response_code",
  },
  ...["JPY", "HKD", "SGD", "ARS", "BRL", "COP", "ILS", "INR", "KRW", "MXN", "NOK", "NZD"]
    .concat(["RUB", "THB", "TRY", "TWD", "UAH", "VND"])
    .map((value) => ({
      at: `${SCHEMAS}/currency_code-payout`,
      value,
      why: "ours: payouts are in the transaction's currency, never converted (lib/billing/totals.ts payoutTotals, exchange_rate 1); the family converts into one of its payout currencies",
    })),
];

/** Our renaming of the family's names (README.md: `svc_` for `pdl_`, `Service-Version` for `Paddle-Version`). */
export function renameFamily(text: string): string {
  return text.replaceAll("pdl_", "svc_").replaceAll("Paddle-Version", "Service-Version");
}

type Json = any;

// Bump when renameFamily changes, so that a cached parse of the older rename is not reused.
const CACHE_VERSION = 1;

/** The family's document, renamed, parsed; null where it is absent. Cached as JSON (see above). */
export function readFamilyDocument(file = FAMILY_DOCUMENT): Json | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, "utf8");
  const hash = createHash("sha256").update(`${CACHE_VERSION}\n${text}`).digest("hex").slice(0, 24);
  const dir = path.join(tmpdir(), "billing-family-openapi");
  const cached = path.join(dir, `${hash}.json`);
  if (existsSync(cached)) {
    try {
      return JSON.parse(readFileSync(cached, "utf8"));
    } catch {
      // A cache written by another process at the same moment, or damaged: parse the YAML again.
    }
  }
  const document = parse(renameFamily(text), { maxAliasCount: -1 });
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${cached}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(document));
    renameSync(temporary, cached);
  } catch {
    // No cache: each process parses the YAML itself, slower but the same.
  }
  return document;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

export interface FamilyOperation {
  method: string;
  /** The family's path template, `/transactions/{transaction_id}`. */
  path: string;
  segments: string[];
}

/** Every operation of the document: method (upper case) and path template. */
export function familyOperations(document: Json): FamilyOperation[] {
  const out: FamilyOperation[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      if (item?.[method]) out.push({ method: method.toUpperCase(), path: template, segments: template.split("/") });
    }
  }
  return out;
}

/** The operation a request's method and path (without `/api` and query) is, or undefined. */
export function matchOperation(
  operations: readonly FamilyOperation[],
  method: string,
  pathname: string,
): FamilyOperation | undefined {
  const segments = pathname.replace(/\/+$/, "").split("/");
  let best: FamilyOperation | undefined;
  let bestLiterals = -1;
  for (const op of operations) {
    if (op.method !== method.toUpperCase() || op.segments.length !== segments.length) continue;
    let literals = 0;
    let matches = true;
    for (let i = 0; i < segments.length; i++) {
      const part = op.segments[i];
      if (part!.startsWith("{") && part!.endsWith("}")) {
        if (segments[i] === "") matches = false;
      } else if (part === segments[i]) literals++;
      else matches = false;
      if (!matches) break;
    }
    // `/transactions/preview` is the literal operation, not `/transactions/{transaction_id}`.
    if (matches && literals > bestLiterals) {
      best = op;
      bestLiterals = literals;
    }
  }
  return best;
}

/** Escapes a JSON pointer's segment, then URI-encodes it (ajv reads `$ref` fragments as URIs). */
function pointerSegment(segment: string): string {
  return encodeURIComponent(segment.replaceAll("~", "~0").replaceAll("/", "~1"));
}

function resolvePointer(document: Json, pointer: string): Json {
  let node = document;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = node?.[key];
  }
  return node;
}

/** Adds each extension to the schema it extends: a field (any value: our zod schema checks it), or an enum value. */
function applyExtensions(document: Json, extensions: readonly FamilyExtension[]): void {
  for (const extension of extensions) {
    const { at } = extension;
    const schema = resolvePointer(document, at);
    if (!schema || typeof schema !== "object") throw new Error(`FAMILY_EXTENSIONS: ${at} is not in the document`);
    if ("field" in extension) {
      if (schema.properties && Object.hasOwn(schema.properties, extension.field)) {
        throw new Error(`FAMILY_EXTENSIONS: ${at} has ${extension.field} now: remove the entry`);
      }
      schema.properties = { ...schema.properties, [extension.field]: true };
    } else if ("pattern" in extension) {
      if (typeof schema.pattern !== "string") throw new Error(`FAMILY_EXTENSIONS: ${at} has no pattern`);
      schema.pattern = extension.pattern;
    } else if ("nullable" in extension) {
      const copy = { ...schema };
      for (const key of Object.keys(schema)) delete schema[key];
      schema.oneOf = [copy, { type: "null" }];
    } else {
      if (!Array.isArray(schema.enum)) throw new Error(`FAMILY_EXTENSIONS: ${at} is not an enum`);
      if (schema.enum.includes(extension.value)) {
        throw new Error(`FAMILY_EXTENSIONS: ${at} has ${extension.value} now: remove the entry`);
      }
      schema.enum = [...schema.enum, extension.value];
    }
  }
}

/** Human lines for ajv's errors: where (JSON pointer into the body) and what failed. */
export function describeErrors(errors: readonly ErrorObject[]): string[] {
  // `oneOf: [X, {type: "null"}]` reports "must be null" beside X's own failures: that branch says
  // nothing useful when the value is not null, and neither does the oneOf summary when a branch
  // says more.
  const useful = errors.filter((e) => {
    if (e.keyword === "type" && (e.params as { type?: unknown }).type === "null") {
      return !errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath) && o.keyword !== "oneOf");
    }
    if (e.keyword === "oneOf" || e.keyword === "anyOf") {
      return !errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath) && o.keyword !== e.keyword);
    }
    return true;
  });
  const lines = useful.map((e) => {
    const where = e.instancePath || "(root)";
    const params = e.params as Record<string, unknown>;
    const title = (e.parentSchema as { title?: string } | undefined)?.title;
    const schema = title ? `the family's ${title}` : "the family's schema";
    if (e.keyword === "additionalProperties") {
      return `${where}: has "${params.additionalProperty}", which ${schema} does not allow`;
    }
    if (e.keyword === "required") return `${where}: lacks "${params.missingProperty}", which ${schema} requires`;
    return `${where}: ${e.message} (${JSON.stringify(params)}, schema ${e.schemaPath})`;
  });
  return [...new Set(lines)];
}

export interface FamilyCheck {
  /** The family's operation, `GET /transactions/{transaction_id}`. */
  operation: string;
  /** One line per problem: empty when the answer conforms. */
  problems: string[];
}

export interface FamilyValidator {
  operations: readonly FamilyOperation[];
  /**
   * The problems of an answer of `method pathname` with `status`, or null where the family has no
   * such operation (our extensions are not checked).
   */
  check(method: string, pathname: string, status: number, body: unknown): FamilyCheck | null;
}

/**
 * Where the events inside an answer are (JSON pointers), for the operations that carry events:
 * each is checked against the family's schema of its event type (`transaction.updated`, …), the
 * webhook payload the family documents. The operations' own schemas type `data` only as an object.
 */
const EVENTS_IN: Record<string, (body: any) => [string, unknown][]> = {
  "GET /events": (body) => (body?.data ?? []).map((event: unknown, i: number) => [`/data/${i}`, event]),
  "GET /notifications": (body) =>
    (body?.data ?? []).map((n: { payload?: unknown }, i: number) => [`/data/${i}/payload`, n?.payload]),
  "GET /notifications/{notification_id}": (body) => [["/data/payload", body?.data?.payload]],
};

/** A validator over `document` (already renamed): the suite's one, or a test's own. */
export function familyValidator(
  document: Json,
  extensions: readonly FamilyExtension[] = FAMILY_EXTENSIONS,
): FamilyValidator {
  const copy = structuredClone(document);
  applyExtensions(copy, extensions);
  // verbose: an error carries its schema, whose title names the family's entity in the message.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, verbose: true });
  addFormats(ajv);
  ajv.addSchema(copy, "family");
  const operations = familyOperations(copy);
  const compiled = new Map<string, ValidateFunction | string>();

  function compileAt(key: string, pointer: string): ValidateFunction {
    let validate = compiled.get(key);
    if (typeof validate !== "function") {
      validate = ajv.compile({ $ref: `family#${pointer}` });
      compiled.set(key, validate);
    }
    return validate;
  }

  /** The validator of an operation's answer with `status`, or a sentence saying why there is none. */
  function validatorFor(op: FamilyOperation, status: number): ValidateFunction | string {
    const key = `${op.method} ${op.path} ${status}`;
    const known = compiled.get(key);
    if (known) return known;
    const opPointer = `/paths/${pointerSegment(op.path)}/${op.method.toLowerCase()}`;
    const responses = copy.paths[op.path][op.method.toLowerCase()].responses ?? {};
    const name = [String(status), `${String(status)[0]}XX`, status >= 400 ? "default" : ""].find(
      (n) => n && Object.hasOwn(responses, n),
    );
    let result: ValidateFunction | string;
    if (!name) {
      // Every error of the family has the one error shape, also where an operation does not list
      // its errors (POST /customers/{customer_id}/auth-token); a success must be one it lists.
      result =
        status >= 400
          ? compileAt("error", "/components/schemas/error")
          : `the family answers ${Object.keys(responses)
              .filter((n) => n !== "default")
              .join(", ")}, not ${status}`;
    } else {
      let pointer = `${opPointer}/responses/${pointerSegment(name)}`;
      let response = responses[name];
      if (typeof response?.$ref === "string") {
        // A shared answer (`#/components/responses/error`): its $ref is a pointer already.
        pointer = response.$ref.slice(1);
        response = resolvePointer(copy, pointer);
      }
      result = response?.content?.["application/json"]?.schema
        ? compileAt(`${pointer} schema`, `${pointer}/content/application~1json/schema`)
        : `the family's ${name} answer of this operation has no JSON body`;
    }
    compiled.set(key, result);
    return result;
  }

  function checkEvents(operation: string, body: unknown): string[] {
    const problems: string[] = [];
    for (const [at, event] of EVENTS_IN[operation]?.(body) ?? []) {
      const type = (event as { event_type?: unknown } | null)?.event_type;
      if (typeof type !== "string" || !copy.components.schemas[type]) continue;
      const validate = compileAt(`event ${type}`, `/components/schemas/${pointerSegment(type)}`);
      if (!validate(event)) {
        problems.push(
          ...describeErrors(validate.errors ?? []).map(
            (line) => `${at}${line.replace(/^\(root\)/, "")} (the ${type} event)`,
          ),
        );
      }
    }
    return problems;
  }

  return {
    operations,
    check(method, pathname, status, body) {
      const op = matchOperation(operations, method, pathname);
      if (!op) return null;
      const operation = `${op.method} ${op.path}`;
      const validate = validatorFor(op, status);
      if (typeof validate === "string") return { operation, problems: [validate] };
      const problems = validate(body) ? [] : describeErrors(validate.errors ?? []);
      if (status < 300) problems.push(...checkEvents(operation, body));
      return { operation, problems };
    },
  };
}

let suiteValidator: FamilyValidator | null | undefined;

/**
 * The suite's validator over the family's document, made on first use; null where it is absent
 * (the global setup, lib/dev/test/global-setup.ts, says so once per run).
 */
export function suiteFamilyValidator(): FamilyValidator | null {
  if (suiteValidator === undefined) {
    const document = readFamilyDocument();
    suiteValidator = document ? familyValidator(document) : null;
  }
  return suiteValidator;
}

/** Once per run, before the test files: parses and caches the document, or says that it is absent. */
export function prepareFamilyDocument(): void {
  if (!readFamilyDocument()) {
    console.warn(
      `The family's OpenAPI document is not at ${FAMILY_DOCUMENT}: answers are not checked against it in this run.`,
    );
  }
}

/**
 * Throws, naming the operation, the status and every problem, unless the answer conforms to the
 * family's schema (or the family has no such operation, or the document is absent).
 *
 * With FAMILY_CHECK_LOG=<file>, a problem is appended to that file as a JSON line (with the test's
 * name) instead of failing the test: one run of the whole suite then surveys every shape the family
 * refuses, as the first run of this check did.
 */
export function expectFamilyConformance(method: string, url: string, status: number, body: unknown): void {
  const validator = suiteFamilyValidator();
  if (!validator) return;
  const pathname = new URL(url).pathname.replace(/^\/api(?=\/)/, "");
  const result = validator.check(method, pathname, status, body);
  if (!result || result.problems.length === 0) return;
  const log = process.env.FAMILY_CHECK_LOG;
  if (log) {
    const { testPath, currentTestName } = expect.getState();
    appendFileSync(log, `${JSON.stringify({ ...result, status, testPath, test: currentTestName })}\n`);
    return;
  }
  const text = JSON.stringify(body);
  throw new Error(
    `${result.operation} answered ${status}, which the family's OpenAPI document (${path.relative(ROOT, FAMILY_DOCUMENT)}) does not accept:\n  ${result.problems.join("\n  ")}\n${text.length > 3000 ? `${text.slice(0, 3000)}…` : text}`,
  );
}
