/**
 * The check of our answers against the family's OpenAPI document (family-openapi.ts) checks
 * something: a body the family's schema takes passes, one it refuses fails with a readable reason,
 * and our own operations are left alone. Skipped where the document is absent (as the check is).
 */
import { describe, expect, it } from "vitest";
import { ROUTES } from "@/app/api/openapi.json/routes";
import { EVENT_TYPES } from "../../events/catalogue.ts";
import { openApiDocument } from "../../http/openapi.ts";
import { methodNotAllowed } from "../../http/route.ts";
import { examplePayload } from "../../simulator/examples/payloads.ts";
import {
  FAMILY_EXTENSIONS,
  familyOperations,
  familyValidator,
  matchOperation,
  readFamilyDocument,
  renameFamily,
} from "./family-openapi.ts";

const document = readFamilyDocument();

/** A discount as the family's own example of GET /discounts/{discount_id} has it, renamed. */
function familyDiscount(): Record<string, unknown> {
  return {
    id: "dsc_01hv6scyf7qdnzcdq01t2y8dx4",
    status: "active",
    description: "Seasonal sale",
    enabled_for_checkout: true,
    code: "SPRINGSALE",
    type: "percentage",
    mode: "standard",
    amount: "10",
    currency_code: null,
    recur: true,
    maximum_recurring_intervals: 3,
    usage_limit: null,
    restrict_to: ["pro_01gsz4t5hdjse780zja8vvr7jg"],
    expires_at: "2024-12-03T00:00:00Z",
    times_used: 0,
    custom_data: null,
    import_meta: null,
    created_at: "2024-04-11T14:36:14.695Z",
    updated_at: "2024-04-11T14:41:22.343Z",
  };
}

const meta = { request_id: "74d0b3ed-9eba-437e-bbcc-f5619bb5a661" };

describe.skipIf(!document)("the family's OpenAPI document as a validator", () => {
  const validator = familyValidator(document);

  it("passes a body the family's schema takes, and fails one it refuses, saying where and why", () => {
    const path = "/discounts/dsc_01hv6scyf7qdnzcdq01t2y8dx4";
    expect(validator.check("GET", path, 200, { data: familyDiscount(), meta })).toEqual({
      operation: "GET /discounts/{discount_id}",
      problems: [],
    });
    const bad = { ...familyDiscount(), coupon_note: "ours", times_used: "0" } as Record<string, unknown>;
    delete bad.description;
    const result = validator.check("GET", path, 200, { data: bad, meta });
    expect(result?.operation).toBe("GET /discounts/{discount_id}");
    expect(result?.problems).toEqual(
      expect.arrayContaining([
        '/data: has "coupon_note", which the family\'s Discount does not allow',
        expect.stringMatching(/^\/data\/times_used: must be integer/),
      ]),
    );
    // Without meta, the envelope itself is refused.
    expect(validator.check("GET", path, 200, { data: familyDiscount() })?.problems).toEqual([
      '(root): lacks "meta", which the family\'s schema requires',
    ]);
  });

  it("checks errors against the family's error shape, also for operations that list no error answer", () => {
    const error = {
      error: {
        type: "request_error",
        code: "not_found",
        detail: "Entity ctm_01 not found",
        documentation_url: "https://developer.paddle.com/errors/shared/not_found",
      },
      meta,
    };
    expect(validator.check("GET", "/discounts/dsc_01", 404, error)?.problems).toEqual([]);
    expect(validator.check("POST", "/customers/ctm_01/auth-token", 403, error)?.problems).toEqual([]);
    const extra = { ...error, error: { ...error.error, errors: [{ field: "name", message: "x", hint: "y" }] } };
    expect(validator.check("GET", "/discounts/dsc_01", 400, extra)?.problems).toEqual([
      '/error/errors/0: has "hint", which the family\'s schema does not allow',
    ]);
  });

  it("refuses a success status the family does not answer", () => {
    expect(validator.check("POST", "/discounts", 200, { data: familyDiscount(), meta })?.problems).toEqual([
      "the family answers 201, not 200",
    ]);
  });

  it("checks the events inside GET /events against the family's schema of each event type", () => {
    const event = {
      event_id: "evt_01hv8x2acma2gz3he2hz5t8hgm",
      event_type: "discount.updated",
      occurred_at: "2024-04-12T10:18:49.621022Z",
      data: familyDiscount(),
    };
    const list = (data: unknown) => ({
      data: [data],
      meta: {
        ...meta,
        pagination: { per_page: 50, next: "https://x.example/events?after=1", has_more: false, estimated_total: 1 },
      },
    });
    expect(validator.check("GET", "/events", 200, list(event))?.problems).toEqual([]);
    const bad = { ...event, data: { ...familyDiscount(), amount: 10 } };
    expect(validator.check("GET", "/events", 200, list(bad))?.problems).toEqual([
      expect.stringMatching(/^\/data\/0\/data\/amount: must be string .*\(the discount\.updated event\)$/),
    ]);
  });

  it("leaves our own operations alone and prefers the literal path (/transactions/preview)", () => {
    expect(validator.check("GET", "/discount-groups/dsg_01", 200, { anything: true })).toBeNull();
    expect(validator.check("POST", "/subscriptions/sub_01/test-clock/advance", 200, {})).toBeNull();
    const operations = familyOperations(document);
    expect(matchOperation(operations, "POST", "/transactions/preview")?.path).toBe("/transactions/preview");
    expect(matchOperation(operations, "GET", "/transactions/txn_01")?.path).toBe("/transactions/{transaction_id}");
    expect(matchOperation(operations, "GET", "/transactions/")?.path).toBe("/transactions");
    expect(matchOperation(operations, "DELETE", "/transactions/txn_01")).toBeUndefined();
  });

  it("reads the document renamed (svc_, Service-Version)", () => {
    expect(renameFamily("pdl_ntfset_1 Paddle-Version")).toBe("svc_ntfset_1 Service-Version");
    expect(JSON.stringify(document)).not.toContain("pdl_");
  });

  it("allows only the listed extensions, each with its reason, and refuses an entry the document has caught up with", () => {
    for (const extension of FAMILY_EXTENSIONS) expect(extension.why.length, extension.at).toBeGreaterThan(10);
    const withGroup = { ...familyDiscount(), discount_group_id: null };
    const path = "/discounts/dsc_01hv6scyf7qdnzcdq01t2y8dx4";
    expect(validator.check("GET", path, 200, { data: withGroup, meta })?.problems).toEqual([]);
    expect(familyValidator(document, []).check("GET", path, 200, { data: withGroup, meta })?.problems).toEqual([
      '/data: has "discount_group_id", which the family\'s Discount does not allow',
    ]);
    // A null the family does not allow (nullable), and text of another form (pattern).
    const log = {
      id: "ntflog_01hv8x2acma2gz3he2hz5t8hgm",
      response_code: null,
      response_content_type: null,
      response_body: null,
      attempted_at: "2024-04-12T10:18:49.621022Z",
    };
    const logs = {
      data: [log],
      meta: {
        ...meta,
        pagination: { per_page: 50, next: "https://x.example/logs", has_more: false, estimated_total: 1 },
      },
    };
    const logsPath = "/notifications/ntf_01hv8x2acma2gz3he2hz5t8hgm/logs";
    expect(validator.check("GET", logsPath, 200, logs)?.problems).toEqual([]);
    expect(familyValidator(document, []).check("GET", logsPath, 200, logs)?.problems).toEqual([
      expect.stringMatching(/^\/data\/0\/response_code: must be integer/),
      expect.stringMatching(/^\/data\/0\/response_body: must be string/),
    ]);
    expect(() =>
      familyValidator(document, [{ at: "/components/schemas/discount", field: "code", why: "already there" }]),
    ).toThrow(/has code now: remove the entry/);
    expect(() =>
      familyValidator(document, [{ at: "/components/schemas/tax_mode", value: "internal", why: "already there" }]),
    ).toThrow(/has internal now: remove the entry/);
  });

  it("has the family's webhooks, named as the family's, and only the listed event types beside them", () => {
    const ours = openApiDocument(ROUTES) as { webhooks: Record<string, { post: { operationId: string } }> };
    const family = document.webhooks as Record<string, { post: { operationId: string } }>;
    const added = FAMILY_EXTENSIONS.filter((e) => e.at === "/components/schemas/event_type_name" && "value" in e).map(
      (e) => (e as { value: string }).value,
    );
    expect(Object.keys(ours.webhooks).sort()).toEqual([...Object.keys(family), ...added].sort());
    for (const [name, webhook] of Object.entries(family)) {
      expect(ours.webhooks[name]!.post.operationId, name).toBe(webhook.post.operationId);
    }
  });

  it("takes each simulator example, as a notification of its event type, by the family's webhook schema", () => {
    const events = EVENT_TYPES.map((type, i) => ({
      event_id: `evt_01j82g2d3e8yq0v5c1pmt2m9${String(i).padStart(2, "0")}`,
      event_type: type.name,
      occurred_at: "2024-09-18T12:00:00.000000Z",
      notification_id: `ntf_01j82g2d3e8yq0v5c1pmt2m9${String(i).padStart(2, "0")}`,
      data: examplePayload(type.name),
    }));
    const list = {
      data: events,
      meta: {
        ...meta,
        pagination: { per_page: 100, next: "https://x.example/events", has_more: false, estimated_total: 1 },
      },
    };
    expect(validator.check("GET", "/events", 200, list)?.problems).toEqual([]);
  });

  it("lists the family's operations we do not serve", () => {
    const served = new Set<string>();
    for (const { path, module } of ROUTES) {
      for (const [method, handler] of Object.entries(module as Record<string, unknown>)) {
        if (typeof handler === "function" && handler !== methodNotAllowed) served.add(`${method} ${path}`);
      }
    }
    const missing = familyOperations(document)
      .map((op) => `${op.method} ${op.path}`)
      .filter((op) => !served.has(op))
      // GET /ips is added by another change of issue 22: listed there, not asserted here.
      .filter((op) => op !== "GET /ips");
    expect(missing).toEqual(MISSING);
  });
});

/** The family's operations we do not serve (see the README's API notes). */
const MISSING: string[] = [];
