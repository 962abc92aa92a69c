/**
 * The Stripe stand-in's HTTP server (node:http): Stripe's REST API under `/v1`, the test-control
 * API under `/_stand-in`, and a stand-in Stripe.js at `/v3/`. Test tooling only: nothing in
 * production code imports lib/dev. Start it in-process with `startStripeStandIn()` or as a process
 * with `tsx lib/dev/stripe/cli.ts` (see lib/dev/stripe/README.md for the whole contract).
 *
 * What every API request goes through, in Stripe's order:
 * 1. Authentication: `Authorization: Bearer <key>` (or HTTP Basic with the key as user name, as
 *    curl -u sends it; or, for publishable keys only, a `key` parameter, as Stripe.js sends it).
 *    No key: 401; an unknown key: 401 "Invalid API Key provided: sk_test_****abcd".
 * 2. Routing: an unknown path or method is 404 "Unrecognized request URL".
 * 3. Idempotency (POST with `Idempotency-Key`, keys scoped per API key): the same key with the
 *    same parameters replays the stored answer (`Idempotent-Replayed: true`); with other
 *    parameters or another endpoint it is 400 `idempotency_error`; while the first request is
 *    still executing, 409. An answer is stored once the endpoint started executing: a request
 *    refused for its parameters (400 before anything ran) stores nothing and may be retried with
 *    the same key, as Stripe documents.
 * 4. Test-control faults and latency (`/_stand-in/faults`, the `latencyMs` option), then the endpoint.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { API_ROUTES } from "./api.ts";
import { type ControlAnswer, handleControl } from "./control.ts";
import { Engine, type RefundSettings } from "./engine.ts";
import { errorJson, invalidRequest, StandInError } from "./errors.ts";
import { FormError, type FormObject, parseForm } from "./form.ts";
import { newId } from "./objects.ts";
import { Params } from "./params.ts";
import { type AccountConfig, AccountState, API_VERSION, type Context } from "./state.ts";
import { stripeJs } from "./stripe-js.ts";
import { WebhookDeliverer } from "./webhooks.ts";

/** The account a stand-in has when none is configured: test keys anyone can type. */
export const DEFAULT_ACCOUNT: AccountConfig = {
  secretKey: "sk_test_standin_0000000000000000000000000000",
  publishableKey: "pk_test_standin_0000000000000000000000000000",
  name: "Stand-in Test Shop",
  country: "US",
  defaultCurrency: "usd",
  email: "owner@stand-in.example",
};

export interface StandInOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** The address browsers reach it at (Stripe.js, 3-D Secure pages); default http://<host>:<port>. */
  publicUrl?: string;
  /** The Stripe accounts it serves, one per key pair; default DEFAULT_ACCOUNT. */
  accounts?: AccountConfig[];
  /** The first account's webhook endpoint (shorthand for `accounts[0].webhookUrl/webhookSecret`). */
  webhookUrl?: string;
  webhookSecret?: string;
  /** Added before every API request executes (the bench's "≤ 1 ms away"). */
  latencyMs?: number;
  refunds?: Partial<RefundSettings>;
}

export interface Fault {
  method?: string;
  /** A path prefix (`/v1/payment_intents`) or a regular expression source (`^/v1/payment_intents/.+/confirm$`). */
  path: string;
  /**
   * fail: 500 api_error before anything runs; drop: the connection closes before anything runs;
   * drop_after: the request runs, then the connection closes without an answer (the answer is lost,
   * the charge is not); delay: the request runs after `delay_ms`.
   */
  kind: "fail" | "drop" | "drop_after" | "delay";
  delayMs?: number;
  /** How many requests it applies to (default 1). */
  remaining: number;
}

export interface RequestLogEntry {
  id: string;
  at: number;
  method: string;
  path: string;
  account: string | null;
  publishable: boolean;
  idempotency_key: string | null;
  status: number;
  replayed: boolean;
  params: unknown;
}

export interface StripeStandIn {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** `STRIPE_JS_URL` for this stand-in. */
  stripeJsUrl: string;
  accounts: AccountState[];
  engine: Engine;
  webhooks: WebhookDeliverer;
  faults: Fault[];
  requests: RequestLogEntry[];
  latencyMs: number;
  /** A `stripe` client pointed at this stand-in (the first account's secret key by default). */
  client(key?: string, config?: Stripe.StripeConfig): Stripe;
  accountFor(keyOrId: string): AccountState | undefined;
  /** Forgets every object, event and stored answer; accounts and webhook endpoints stay. */
  reset(): void;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
const REQUEST_LOG_LIMIT = 5_000;
const IDEMPOTENCY_LIMIT = 200_000;

function masked(key: string): string {
  const prefix = /^(sk|pk|rk)_(test|live)_/.exec(key)?.[0] ?? "";
  return `${prefix}****${key.slice(-4)}`;
}

/** Card numbers and security codes never reach the request log in full. */
function redact(value: unknown, key = ""): unknown {
  if (typeof value === "string") {
    if (key === "number") return `…${value.slice(-4)}`;
    if (key === "cvc") return "***";
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => redact(item));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

function canonical(value: unknown): string {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return JSON.stringify(value);
}

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key, Stripe-Version, Stripe-Account",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-expose-headers": "Request-Id, Idempotent-Replayed, Original-Request, Idempotency-Key",
  "access-control-max-age": "300",
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw invalidRequest("Request body too large.", { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

interface Auth {
  key: string;
  account: AccountState;
  publishable: boolean;
}

export async function startStripeStandIn(options: StandInOptions = {}): Promise<StripeStandIn> {
  const configs = options.accounts?.length ? options.accounts : [{ ...DEFAULT_ACCOUNT }];
  if (options.webhookUrl) configs[0] = { ...configs[0]!, webhookUrl: options.webhookUrl };
  if (options.webhookSecret) configs[0] = { ...configs[0]!, webhookSecret: options.webhookSecret };
  const accounts = configs.map((config) => new AccountState(config));
  const webhooks = new WebhookDeliverer();
  let publicUrl = options.publicUrl ?? "";
  const engine = new Engine({
    onEvent: (account, record) => webhooks.enqueue(account, record),
    publicUrl: () => publicUrl,
  });
  engine.refunds = { ...engine.refunds, ...options.refunds };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json", ...CORS_HEADERS });
        res.end(JSON.stringify({ error: { type: "api_error", message: String(error) } }));
      }
    });
  });
  server.keepAliveTimeout = 30_000;

  function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      "cache-control": "no-cache, no-store",
      ...CORS_HEADERS,
      ...headers,
    });
    res.end(body);
  }

  function authenticate(req: IncomingMessage, params: FormObject): Auth {
    const header = req.headers.authorization;
    let key: string | undefined;
    if (header) {
      const [scheme, value = ""] = header.split(/\s+/, 2);
      if (/^bearer$/i.test(scheme!)) key = value;
      else if (/^basic$/i.test(scheme!)) key = Buffer.from(value, "base64").toString("utf8").split(":")[0];
    } else if (typeof params.key === "string") {
      key = params.key;
    }
    if (typeof params.key === "string") delete params.key;
    if (!key) {
      throw invalidRequest(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
        { status: 401 },
      );
    }
    const account = standIn.accountFor(key);
    if (!account || account.id === key) {
      throw invalidRequest(`Invalid API Key provided: ${masked(key)}`, { status: 401, code: "api_key_invalid" });
    }
    const found = { account, publishable: account.config.publishableKey === key };
    if (!found.publishable && !header) {
      // A secret key in the body (where Stripe.js puts publishable keys) is refused, as Stripe does.
      throw invalidRequest("Secret keys must be sent in the Authorization header.", { status: 401 });
    }
    return { key, account: found.account, publishable: found.publishable };
  }

  function takeFault(method: string, path: string): Fault | undefined {
    const fault = standIn.faults.find((f) => {
      if (f.remaining <= 0) return false;
      if (f.method && f.method.toUpperCase() !== method) return false;
      return f.path.startsWith("^") ? new RegExp(f.path).test(path) : path.startsWith(f.path);
    });
    if (fault) {
      fault.remaining -= 1;
      standIn.faults = standIn.faults.filter((f) => f.remaining > 0);
    }
    return fault;
  }

  function log(entry: RequestLogEntry): void {
    standIn.requests.push(entry);
    if (standIn.requests.length > REQUEST_LOG_LIMIT)
      standIn.requests.splice(0, standIn.requests.length - REQUEST_LOG_LIMIT);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const requestId = newId("req", 14);
    const idempotencyKey = method === "POST" ? ((req.headers["idempotency-key"] as string | undefined) ?? null) : null;
    const baseHeaders: Record<string, string> = {
      "request-id": requestId,
      "stripe-version": (req.headers["stripe-version"] as string | undefined) ?? API_VERSION,
    };
    if (idempotencyKey) baseHeaders["idempotency-key"] = idempotencyKey;
    const entry: RequestLogEntry = {
      id: requestId,
      at: Date.now(),
      method,
      path: url.pathname,
      account: null,
      publishable: false,
      idempotency_key: idempotencyKey,
      status: 0,
      replayed: false,
      params: null,
    };
    const fail = (error: StandInError) => {
      entry.status = error.status;
      log(entry);
      send(res, error.status, errorJson(error), {
        ...baseHeaders,
        "stripe-should-retry": error.status === 409 ? "true" : "false",
      });
    };

    let params: FormObject;
    let auth: Auth;
    try {
      const body = method === "POST" ? await readBody(req) : "";
      params = parseForm(method === "POST" ? body : url.search.slice(1));
      auth = authenticate(req, params);
    } catch (error) {
      if (error instanceof FormError) return fail(invalidRequest(error.message));
      if (error instanceof StandInError) return fail(error);
      throw error;
    }
    entry.account = auth.account.id;
    entry.publishable = auth.publishable;
    entry.params = redact(params);

    let route: (typeof API_ROUTES)[number] | undefined;
    let args: string[] = [];
    for (const candidate of API_ROUTES) {
      if (candidate.method !== method) continue;
      const match = candidate.pattern.exec(url.pathname);
      if (match) {
        route = candidate;
        args = match.slice(1);
        break;
      }
    }
    if (!route) {
      return fail(
        invalidRequest(
          `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
          { status: 404 },
        ),
      );
    }
    if (auth.publishable && !route.publishable) {
      return fail(
        invalidRequest(
          "This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.",
          { status: 401 },
        ),
      );
    }

    const { account } = auth;
    const scope = idempotencyKey ? `${auth.key}\n${idempotencyKey}` : null;
    const fingerprint = `${method} ${url.pathname} ${canonical(params)}`;
    if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
      return fail(invalidRequest("Idempotency-Key must be 1 to 255 characters long.", { param: "Idempotency-Key" }));
    }
    if (scope) {
      const stored = account.idempotency.get(scope);
      if (stored) {
        if (stored.fingerprint !== fingerprint) {
          return fail(
            new StandInError(400, {
              type: "idempotency_error",
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            }),
          );
        }
        entry.status = stored.status;
        entry.replayed = true;
        log(entry);
        return send(res, stored.status, stored.body, {
          ...baseHeaders,
          "idempotent-replayed": "true",
          "original-request": stored.requestId,
          ...(stored.status >= 400 ? { "stripe-should-retry": "false" } : {}),
        });
      }
      if (account.inFlight.has(scope)) {
        return fail(
          new StandInError(409, {
            type: "idempotency_error",
            code: "idempotency_key_in_use",
            message:
              "There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): " +
              `${idempotencyKey}. Please try again later.`,
          }),
        );
      }
    }

    const fault = takeFault(method, url.pathname);
    if (fault?.kind === "fail") {
      entry.status = 500;
      log(entry);
      return send(
        res,
        500,
        JSON.stringify({ error: { type: "api_error", message: "An unknown error occurred (a stand-in fault)." } }),
        baseHeaders,
      );
    }
    if (fault?.kind === "drop") {
      entry.status = 0;
      log(entry);
      req.socket.destroy();
      return;
    }

    if (scope) account.inFlight.add(scope);
    try {
      const delay = (fault?.kind === "delay" ? (fault.delayMs ?? 0) : 0) + standIn.latencyMs;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const ctx: Context = { account, publishable: auth.publishable, requestId, idempotencyKey };
      const p = new Params(params);
      let executing = false;
      p.onDone = () => {
        executing = true;
      };
      let status = 200;
      let body: string;
      try {
        body = JSON.stringify(route.handle(ctx, p, args, engine), null, 2);
      } catch (error) {
        if (!(error instanceof StandInError)) throw error;
        status = error.status;
        body = errorJson(error);
      }
      if (scope && executing) {
        // Bounded for long bench runs: the oldest answers go first (Stripe keeps them 24 hours).
        if (account.idempotency.size >= IDEMPOTENCY_LIMIT) {
          account.idempotency.delete(account.idempotency.keys().next().value as string);
        }
        account.idempotency.set(scope, {
          fingerprint,
          method,
          path: url.pathname,
          status,
          body,
          requestId,
          createdAt: Date.now(),
        });
      }
      entry.status = status;
      log(entry);
      if (fault?.kind === "drop_after") {
        req.socket.destroy();
        return;
      }
      send(res, status, body, {
        ...baseHeaders,
        "original-request": requestId,
        ...(status >= 400 ? { "stripe-should-retry": "false" } : {}),
      });
    } finally {
      if (scope) account.inFlight.delete(scope);
    }
  }

  async function handleControlRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    let answer: ControlAnswer;
    try {
      const text = method === "GET" ? "" : await readBody(req);
      let body: Record<string, unknown> = {};
      if (text.trim() !== "") {
        body = /json/i.test(req.headers["content-type"] ?? "") ? JSON.parse(text) : parseForm(text);
      }
      answer = await handleControl(standIn, method, url, body);
    } catch (error) {
      if (error instanceof StandInError) answer = { status: error.status, body: { error: error.body } };
      else if (error instanceof SyntaxError || error instanceof FormError)
        answer = { status: 400, body: { error: { type: "invalid_request_error", message: error.message } } };
      else throw error;
    }
    if (answer.html !== undefined) {
      res.writeHead(answer.status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(answer.html);
      return;
    }
    send(res, answer.status, JSON.stringify(answer.body, null, 2));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (req.method === "OPTIONS") {
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }
    if (url.pathname.startsWith("/v1/")) return handleApi(req, res, url);
    if (url.pathname.startsWith("/_stand-in/")) return handleControlRequest(req, res, url);
    if (req.method === "GET" && /^\/(v3\/?|[a-z0-9]+\/stripe\.js|stripe\.js)$/.test(url.pathname)) {
      const script = stripeJs(publicUrl);
      res.writeHead(200, {
        "content-type": "application/javascript; charset=utf-8",
        "content-length": String(Buffer.byteLength(script)),
        "cache-control": "no-cache",
        ...CORS_HEADERS,
      });
      res.end(script);
      return;
    }
    send(
      res,
      404,
      errorJson(
        invalidRequest(
          `Unrecognized request URL (${req.method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
          { status: 404 },
        ),
      ),
    );
  }

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  if (!publicUrl) publicUrl = url;

  const standIn: StripeStandIn = {
    url,
    port,
    stripeJsUrl: `${publicUrl}/v3/`,
    accounts,
    engine,
    webhooks,
    faults: [],
    requests: [],
    latencyMs: options.latencyMs ?? 0,
    client(key, config = {}) {
      return new Stripe(key ?? accounts[0]!.config.secretKey, {
        host,
        port,
        protocol: "http",
        maxNetworkRetries: 0,
        telemetry: false,
        ...config,
      });
    },
    accountFor(keyOrId) {
      return standIn.accounts.find(
        (account) =>
          account.id === keyOrId || account.secretKeys.includes(keyOrId) || account.config.publishableKey === keyOrId,
      );
    },
    reset() {
      engine.cancelTimers();
      engine.failNextRefunds.clear();
      engine.refunds = { mode: "auto", settleMs: 50, ...options.refunds };
      webhooks.clear();
      for (const account of standIn.accounts) account.reset();
      standIn.faults = [];
      standIn.requests = [];
    },
    async close() {
      engine.cancelTimers();
      webhooks.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}
