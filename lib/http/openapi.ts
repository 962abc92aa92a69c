/**
 * The OpenAPI 3.1 document of the API, built from the route declarations (lib/http/route.ts): the
 * permission, the path, query and body schemas, the response schema and the summary each route
 * file declares. Nothing here is written by hand twice: the zod schemas of lib/schemas become the
 * document's JSON Schemas (z.toJSONSchema), named after their exports.
 */
import { z } from "zod";
import * as accountSettings from "../schemas/account-settings.ts";
import * as address from "../schemas/address.ts";
import * as adjustment from "../schemas/adjustment.ts";
import * as apiKey from "../schemas/api-key.ts";
import * as auditLog from "../schemas/audit-log.ts";
import * as business from "../schemas/business.ts";
import * as clientToken from "../schemas/client-token.ts";
import * as customer from "../schemas/customer.ts";
import * as discount from "../schemas/discount.ts";
import * as discountGroup from "../schemas/discount-group.ts";
import * as document from "../schemas/document.ts";
import * as email from "../schemas/email.ts";
import * as envelopes from "../schemas/envelope.ts";
import * as event from "../schemas/event.ts";
import * as eventPayloads from "../schemas/event-payloads.ts";
import * as health from "../schemas/health.ts";
import * as metrics from "../schemas/metrics.ts";
import * as notification from "../schemas/notification.ts";
import * as notificationSetting from "../schemas/notification-setting.ts";
import * as payment from "../schemas/payment.ts";
import * as paymentMethod from "../schemas/payment-method.ts";
import * as portal from "../schemas/portal.ts";
import * as price from "../schemas/price.ts";
import * as product from "../schemas/product.ts";
import * as report from "../schemas/report.ts";
import * as simulation from "../schemas/simulation.ts";
import * as subscription from "../schemas/subscription.ts";
import * as taxRate from "../schemas/tax-rate.ts";
import * as team from "../schemas/team.ts";
import * as transaction from "../schemas/transaction.ts";
import { CURRENT_VERSION } from "../versions.ts";
import { eventSchemaNames, SIGNATURE_PARAMETER, webhooks } from "./openapi-webhooks.ts";
import { PaginatedList, type RouteDeclaration } from "./route.ts";

/** A route module as the manifest (app/api/openapi.json/routes.ts) lists it. */
export interface RouteModule {
  path: string;
  module: Record<string, unknown>;
}

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type JsonSchema = Record<string, unknown>;

const SCHEMA_MODULES = [
  accountSettings,
  address,
  adjustment,
  apiKey,
  auditLog,
  business,
  clientToken,
  customer,
  discount,
  discountGroup,
  document,
  email,
  envelopes,
  event,
  eventPayloads,
  health,
  metrics,
  notification,
  notificationSetting,
  payment,
  paymentMethod,
  portal,
  price,
  product,
  report,
  simulation,
  subscription,
  taxRate,
  team,
  transaction,
];

/** `customerSchema` → `Customer`, `createCustomerBody` → `CreateCustomerBody`: names of the components. */
function schemaNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  for (const module of SCHEMA_MODULES) {
    for (const [name, value] of Object.entries(module)) {
      if (!(value instanceof z.ZodType) || names.has(value)) continue;
      const base = name.replace(/Schema$/, "");
      names.set(value, base.charAt(0).toUpperCase() + base.slice(1));
    }
  }
  for (const [name, schema] of eventSchemaNames()) if (!names.has(schema)) names.set(schema, name);
  return names;
}

/** The handlers of a route module that are operations: route() handlers carry their declaration. */
export function declaredOperations(module: Record<string, unknown>): [string, RouteDeclaration][] {
  const out: [string, RouteDeclaration][] = [];
  for (const method of HTTP_METHODS) {
    const declaration = (module[method] as { declaration?: RouteDeclaration } | undefined)?.declaration;
    if (declaration) out.push([method, declaration]);
  }
  return out;
}

/**
 * Components named after the schemas' exports, one registry per direction: a request body is
 * described as the input zod takes, a response as the output it gives.
 */
export class Components {
  readonly names = schemaNames();
  readonly used = new Set<string>();
  readonly input = z.registry<{ id: string }>();
  readonly output = z.registry<{ id: string }>();
  private counter = 0;

  ref(schema: z.ZodType, io: "input" | "output", fallback: string): JsonSchema {
    const registry = io === "input" ? this.input : this.output;
    let id = registry.get(schema)?.id;
    if (!id) {
      const base = this.names.get(schema) ?? fallback;
      id = this.used.has(base) ? `${base}${io === "input" ? "Input" : ""}${++this.counter}` : base;
      this.used.add(id);
      registry.add(schema, { id });
    }
    return { $ref: `#/components/schemas/${id}` };
  }

  schemas(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const [io, registry] of [
      ["input", this.input],
      ["output", this.output],
    ] as const) {
      const { schemas } = z.toJSONSchema(registry, {
        io,
        unrepresentable: "any",
        uri: (id) => `#/components/schemas/${id}`,
      }) as { schemas: Record<string, JsonSchema> };
      for (const [id, schema] of Object.entries(schemas)) {
        const { $schema: _schema, $id: _id, ...rest } = schema;
        out[id] = rest;
      }
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** The path or query parameters of an object schema. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query"): JsonSchema[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/\{([^}]+)\}/g, "by-$1")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w.charAt(0).toUpperCase() + w.slice(1))].join("");
}

function successResponse(declaration: RouteDeclaration, components: Components, name: string): JsonSchema {
  const response = declaration.response;
  const status = String(declaration.status ?? 200);
  if (response === "no_content") return { "204": { description: "Done: no content." } };
  if (response === "pdf") {
    return {
      "200": {
        description: "The document.",
        content: { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } },
      },
    };
  }
  if (response === "json_document") {
    return { "200": { description: "The document.", content: { "application/json": { schema: { type: "object" } } } } };
  }
  if (response === "csv") {
    return {
      "200": {
        description: "The report file.",
        content: { "text/csv": { schema: { type: "string", contentMediaType: "text/csv" } } },
      },
    };
  }
  if (!response) return { [status]: { description: "Success." } };
  const paginatedList = response instanceof PaginatedList;
  const data = paginatedList
    ? { type: "array", items: components.ref(response.item, "output", name) }
    : components.ref(response, "output", name);
  const meta = components.ref(paginatedList ? envelopes.paginatedMetaSchema : envelopes.metaSchema, "output", "Meta");
  const envelope = declaration.withoutMeta
    ? { type: "object", properties: { data }, required: ["data"] }
    : { type: "object", properties: { data, meta }, required: ["data", "meta"] };
  return {
    [status]: {
      description: paginatedList ? "A page of the list." : "Success.",
      content: { "application/json": { schema: envelope } },
    },
  };
}

const ERROR_RESPONSES = {
  BadRequest: "The request is invalid (`invalid_field` names each field in `errors`).",
  Unauthorized: "A missing, malformed, revoked, expired or wrong-environment key (`invalid_token`).",
  Forbidden: "The key lacks the permission (`forbidden`).",
  NotFound: "No such entity (`not_found`).",
  TooManyRequests: "Rate limited (`too_many_requests`); retry after `Retry-After` seconds.",
  InternalError: "An unexpected error (`internal_error`); never a stack or SQL.",
  ServiceUnavailable:
    "The database is unavailable for the moment (`service_unavailable`); nothing was changed, retry after `Retry-After` seconds.",
} as const;

function operation(method: string, path: string, declaration: RouteDeclaration, components: Components): JsonSchema {
  const id = operationId(method, path);
  const pascal = id.charAt(0).toUpperCase() + id.slice(1);
  const open = declaration.permission === "public" || declaration.permission === "signed";
  const errors: Record<string, JsonSchema> = {
    "400": { $ref: "#/components/responses/BadRequest" },
    ...(open
      ? {}
      : {
          "401": { $ref: "#/components/responses/Unauthorized" },
          "403": { $ref: "#/components/responses/Forbidden" },
        }),
    ...(declaration.params ? { "404": { $ref: "#/components/responses/NotFound" } } : {}),
    "429": { $ref: "#/components/responses/TooManyRequests" },
    "500": { $ref: "#/components/responses/InternalError" },
    "503": { $ref: "#/components/responses/ServiceUnavailable" },
  };
  const op: JsonSchema = {
    operationId: id,
    summary: declaration.summary,
    tags: [tagOf(path)],
    security: open ? [] : [{ bearerAuth: [] }],
    "x-permission": declaration.permission,
    parameters: [
      ...parameters(declaration.params, "path"),
      ...parameters(declaration.query, "query"),
      { $ref: "#/components/parameters/ServiceVersion" },
    ],
    responses: { ...successResponse(declaration, components, `${pascal}Response`), ...errors },
  };
  if (declaration.permission === "signed") {
    op.description = "A signed link: its `expires` and `signature` query parameters authenticate it.";
  }
  if (declaration.body) {
    op.requestBody = {
      required: !declaration.optionalBody,
      content: { "application/json": { schema: components.ref(declaration.body, "input", `${pascal}Body`) } },
    };
  }
  return op;
}

/** `/customers/{customer_id}/addresses` → `Customers`: one tag per top-level resource. */
function tagOf(path: string): string {
  const first = path.split("/")[1] ?? "";
  return first
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

export function openApiDocument(routes: readonly RouteModule[], serverUrl = "/api"): JsonSchema {
  const components = new Components();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { path, module } of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    for (const [method, declaration] of declaredOperations(module)) {
      paths[path] ??= {};
      paths[path][method.toLowerCase()] = operation(method, path, declaration, components);
    }
  }
  const error = components.ref(envelopes.errorSchema, "output", "Error");
  return {
    openapi: "3.1.0",
    info: {
      title: "Billing API",
      version: String(CURRENT_VERSION),
      description:
        "The billing service's REST API. Authenticate with an API key as a bearer token; each operation names the permission it needs (`x-permission`). Successes answer `{ data, meta }`, errors `{ error, meta }`.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    webhooks: webhooks(components),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key: `svc_apikey_sdbx_…` or `svc_apikey_live_…`.",
        },
      },
      parameters: {
        ServiceVersion: {
          name: "Service-Version",
          in: "header",
          required: false,
          description: `The API version; ${CURRENT_VERSION} when left out.`,
          schema: { type: "integer", default: CURRENT_VERSION },
        },
        ...SIGNATURE_PARAMETER,
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, description]) => [
          name,
          { description, content: { "application/json": { schema: error } } },
        ]),
      ),
      schemas: components.schemas(),
    },
  };
}
