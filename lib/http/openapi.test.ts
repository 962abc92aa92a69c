import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as openApiRoute from "@/app/api/openapi.json/route";
import { ROUTES } from "@/app/api/openapi.json/routes";
import { call } from "../dev/test/api.ts";
import { EVENT_TYPES } from "../events/catalogue.ts";
import { HTTP_METHODS, openApiDocument } from "./openapi.ts";
import { apiPath, MANIFEST_FILE, manifestSource, NOT_IN_DOCUMENT, routeFiles } from "./openapi-manifest.ts";
import { methodNotAllowed, type RouteDeclaration } from "./route.ts";

type Document = {
  paths: Record<string, Record<string, Record<string, any>>>;
  webhooks: Record<string, { post: Record<string, any> }>;
  components: Record<string, Record<string, unknown>>;
};

const document = openApiDocument([...ROUTES, { path: "/openapi.json", module: openApiRoute }]) as Document;

describe("the OpenAPI document", () => {
  it("the route manifest is up to date (regenerate: npx tsx lib/http/openapi-manifest.ts)", () => {
    expect(readFileSync(MANIFEST_FILE, "utf8")).toBe(manifestSource());
  });

  it("has every route file under app/api with every method it serves, each with a summary and a response", () => {
    const modules = new Map<string, Record<string, unknown>>(ROUTES.map((r) => [r.path, r.module]));
    modules.set("/openapi.json", openApiRoute);
    const files = routeFiles().filter((file) => !NOT_IN_DOCUMENT.includes(file) || file === "openapi.json/route.ts");
    expect(files.length).toBeGreaterThanOrEqual(80);
    for (const file of files) {
      const path = apiPath(file);
      const module = modules.get(path);
      expect(module, file).toBeDefined();
      for (const method of HTTP_METHODS) {
        const handler = module?.[method] as { declaration?: RouteDeclaration } | undefined;
        if (!handler || handler === methodNotAllowed) continue;
        expect(handler.declaration?.summary, `${method} ${path}: summary`).toBeTruthy();
        expect(handler.declaration?.response, `${method} ${path}: response`).toBeTruthy();
        const op = document.paths[path]?.[method.toLowerCase()];
        expect(op, `${method} ${path} in the document`).toBeDefined();
        expect(op!.summary).toBe(handler.declaration?.summary);
        expect(op!["x-permission"]).toBe(handler.declaration?.permission);
      }
    }
  });

  it("describes permissions, parameters, bodies, the envelope and the errors; every $ref resolves", () => {
    const get = document.paths["/customers/{customer_id}"]!.get;
    expect(get!.security).toEqual([{ bearerAuth: [] }]);
    expect(get!["x-permission"]).toBe("customer.read");
    expect(get!.parameters[0]).toMatchObject({ name: "customer_id", in: "path", required: true });
    expect(get!.responses["200"].content["application/json"].schema).toMatchObject({
      properties: { data: { $ref: "#/components/schemas/Customer" }, meta: { $ref: "#/components/schemas/Meta" } },
    });
    expect(get!.responses["404"]).toEqual({ $ref: "#/components/responses/NotFound" });
    const list = document.paths["/customers"]!.get;
    expect(list!.responses["200"].content["application/json"].schema.properties).toMatchObject({
      data: { type: "array", items: { $ref: "#/components/schemas/Customer" } },
      meta: { $ref: "#/components/schemas/PaginatedMeta" },
    });
    expect(list!.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["after", "per_page", "order_by", "email", "status"]),
    );
    const create = document.paths["/customers"]!.post;
    expect(create!.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/CreateCustomerBody",
    });
    expect(Object.keys(create!.responses)).toContain("201");
    expect(document.paths["/event-types"]!.get!.security).toEqual([]);
    expect(
      Object.keys(document.paths["/customers/{customer_id}/payment-methods/{payment_method_id}"]!.delete!.responses),
    ).toContain("204");
    expect(
      document.paths["/documents/invoices/{transaction_id}"]!.get!.responses["200"].content["application/pdf"],
    ).toBeDefined();
    // Strict response schemas: no unknown key is allowed in a documented response.
    expect(document.components.schemas!.Customer).toMatchObject({ additionalProperties: false });

    const text = JSON.stringify(document);
    for (const [, ref] of text.matchAll(/"\$ref":"#\/components\/([^"]+)"/g)) {
      const [kind, name] = ref!.split("/");
      expect(document.components[kind!]?.[name!], ref).toBeDefined();
    }
  });

  it("names the team's, the emails' and the audit log's schemas after their exports, not after a route", () => {
    const names = Object.keys(document.components.schemas!);
    for (const name of ["TeamMember", "TeamInvite", "CreateInviteBody", "UpdateMemberBody", "Email", "AuditLogEntry"]) {
      expect(names).toContain(name);
    }
    expect(names.filter((name) => /^(Get|Post|Patch|Put|Delete)(Team|Emails|AuditLog)/.test(name))).toEqual([]);
    expect(document.paths["/team/members"]!.get!.responses["200"].content["application/json"].schema).toMatchObject({
      properties: { data: { items: { $ref: "#/components/schemas/TeamMember" } } },
    });
  });

  it("has a webhook per event type: the signed notification payload, its data typed by the event type", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(EVENT_TYPES.map((type) => type.name).sort());
    const completed = document.webhooks["transaction.completed"]!.post;
    expect(completed).toMatchObject({
      operationId: "transaction-completed",
      parameters: [{ $ref: "#/components/parameters/ServiceSignature" }],
      requestBody: {
        content: { "application/json": { schema: { $ref: "#/components/schemas/transaction.completed" } } },
      },
    });
    expect(document.components.parameters!.ServiceSignature).toMatchObject({ name: "Service-Signature", in: "header" });
    const payload = document.components.schemas!["transaction.completed"] as Record<string, any>;
    expect(payload.required).toEqual(["event_id", "event_type", "occurred_at", "notification_id", "data"]);
    expect(payload.properties.event_type).toMatchObject({ const: "transaction.completed" });
    // Sensitive fields are null unless the destination includes them.
    expect(payload.properties.data).toEqual({ $ref: "#/components/schemas/TransactionInNotification" });
    // GET /events: one event schema per type, its data the entity.
    const event = document.components.schemas!.Event as { oneOf: unknown[] };
    expect(event.oneOf).toHaveLength(EVENT_TYPES.length);
    expect(document.components.schemas!.TransactionCompletedEvent).toMatchObject({
      properties: { data: { $ref: "#/components/schemas/Transaction" } },
    });
  });

  it("is served at GET /api/openapi.json without a key", async () => {
    const res = await call(openApiRoute.GET, "GET", "/openapi.json", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths)).toContain("/transactions/{transaction_id}");
  });
});
