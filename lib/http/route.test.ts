/**
 * The route wrapper (lib/http/route.ts) and authentication (lib/http/auth.ts), exercised through
 * real route handlers on a real database.
 */
import { createHash } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as catchAll from "@/app/api/[...path]/route";
import * as apiKeyItem from "@/app/api/api-keys/[api_key_id]/route";
import * as customerItem from "@/app/api/customers/[customer_id]/route";
import * as customers from "@/app/api/customers/route";
import * as eventTypes from "@/app/api/event-types/route";
import { generateApiKey, parseApiKey } from "../auth/api-key-format.ts";
import { PERMISSIONS, type Role } from "../auth/permissions.ts";
import { db } from "../db/connection.ts";
import { BASE, call, errorFields, expectError, testKey, testKeyWithId } from "../dev/test/api.ts";
import { newId } from "../ids.ts";
import { createApiKey, forgetApiKey } from "../services/api-keys.ts";
import { route } from "./route.ts";

let seq = 0;
function uniqueEmail(tag = "route"): string {
  seq += 1;
  return `${tag}-${seq}-${Date.now()}@example.com`;
}

function expectInvalidToken(result: Awaited<ReturnType<typeof call>>): void {
  expectError(result, 401, "invalid_token");
  const header = result.headers.get("www-authenticate");
  expect(header).not.toBeNull();
  expect(header).toMatch(/^Bearer\b/);
}

/** A key with one character of its secret changed: still shaped like a key, but the checksum fails. */
function breakChecksum(key: string): string {
  const i = 50;
  const replacement = key[i] === "A" ? "B" : "A";
  return key.slice(0, i) + replacement + key.slice(i + 1);
}

describe("success envelope", () => {
  it("wraps a read in data + meta.request_id, with the same ID in X-Request-Id, status 200", async () => {
    const key = await testKey();
    const res = await call(customers.GET, "GET", "/customers", { key });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(typeof res.body.meta.request_id).toBe("string");
    expect(res.body.meta.request_id.length).toBeGreaterThan(0);
    expect(res.headers.get("x-request-id")).toBe(res.body.meta.request_id);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(["data", "meta"]);
  });

  it("returns 201 for a creation, with the entity in data", async () => {
    const key = await testKey();
    const email = uniqueEmail();
    const res = await call(customers.POST, "POST", "/customers", { key, body: { email } });
    expect(res.status).toBe(201);
    expect(res.body.data.email).toBe(email);
    expect(res.headers.get("x-request-id")).toBe(res.body.meta.request_id);
  });

  it("gives every request its own request ID", async () => {
    const key = await testKey();
    const a = await call(customers.GET, "GET", "/customers", { key });
    const b = await call(customers.GET, "GET", "/customers", { key });
    expect(a.body.meta.request_id).not.toBe(b.body.meta.request_id);
  });
});

describe("invalid_token (401)", () => {
  it("without an Authorization header", async () => {
    const res = await call(customers.GET, "GET", "/customers");
    expectInvalidToken(res);
  });

  it.each([
    ["only the scheme", "Bearer"],
    ["scheme and blank", "Bearer    "],
    ["no scheme", "svc_apikey_sdbx_x"],
    ["two tokens", "Bearer a b"],
    ["empty", ""],
    ["garbage token", "Bearer not-a-key"],
  ])("with a malformed header (%s)", async (_name, value) => {
    const res = await call(customers.GET, "GET", "/customers", { headers: { authorization: value } });
    expectInvalidToken(res);
  });

  it("with the Basic scheme, even carrying a valid key", async () => {
    const key = await testKey();
    const basic = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
    expectInvalidToken(await call(customers.GET, "GET", "/customers", { headers: { authorization: basic } }));
    expectInvalidToken(await call(customers.GET, "GET", "/customers", { headers: { authorization: `Basic ${key}` } }));
  });

  it("with a well-formed key that was never created", async () => {
    const { key } = generateApiKey("sandbox");
    expectInvalidToken(await call(customers.GET, "GET", "/customers", { key }));
  });

  it("with a key whose checksum is broken", async () => {
    const key = await testKey();
    expect((await call(customers.GET, "GET", "/customers", { key })).status).toBe(200);
    expectInvalidToken(await call(customers.GET, "GET", "/customers", { key: breakChecksum(key) }));
  });

  it("with a key whose ID exists but whose secret differs", async () => {
    const { id, key } = await testKeyWithId();
    // Same ID, another secret, a correct checksum: only the stored hash can tell it apart.
    const body = `svc_apikey_sdbx_${id.slice("apikey_".length)}_${"A".repeat(22)}`;
    const digest = createHash("sha256").update(body).digest();
    const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    const forged = `${body}_${[0, 1, 2].map((i) => base62[digest[i]! % 62]).join("")}`;
    expect(forged).not.toBe(key);
    expect(parseApiKey(forged)).toEqual({ id, environment: "sandbox" });
    expectInvalidToken(await call(customers.GET, "GET", "/customers", { key: forged }));
  });

  it("with a revoked key (revoked through PATCH /api-keys/{id})", async () => {
    const admin = await testKey();
    const { id, key } = await testKeyWithId(["customer.read"]);
    expect((await call(customers.GET, "GET", "/customers", { key })).status).toBe(200);
    const revoke = await call(apiKeyItem.PATCH, "PATCH", `/api-keys/${id}`, {
      key: admin,
      body: { status: "revoked" },
      params: { api_key_id: id },
    });
    expect(revoke.status).toBe(200);
    expect(revoke.body.data.status).toBe("revoked");
    expectInvalidToken(await call(customers.GET, "GET", "/customers", { key }));
  });

  it("with an expired key", async () => {
    const created = await createApiKey({
      name: "expiring",
      permissions: ["customer.read"],
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await call(customers.GET, "GET", "/customers", { key: created.key })).status).toBe(200);
    await db().apiKey.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    forgetApiKey(created.id);
    expectInvalidToken(await call(customers.GET, "GET", "/customers", { key: created.key }));
  });

  it("with a live key against this sandbox server", async () => {
    const live = generateApiKey("live");
    await db().apiKey.create({
      data: {
        id: live.id,
        name: "live",
        environment: "live",
        permissions: [...PERMISSIONS],
        secretHash: live.hash,
        lastFour: live.key.slice(-4),
      },
    });
    // Control: a sandbox key inserted the same way is accepted.
    const sandbox = generateApiKey("sandbox");
    await db().apiKey.create({
      data: {
        id: sandbox.id,
        name: "sandbox",
        environment: "sandbox",
        permissions: [...PERMISSIONS],
        secretHash: sandbox.hash,
        lastFour: sandbox.key.slice(-4),
      },
    });
    expect((await call(customers.GET, "GET", "/customers", { key: sandbox.key })).status).toBe(200);
    expectInvalidToken(await call(customers.GET, "GET", "/customers", { key: live.key }));
  });

  it("accepts the Bearer word in any case", async () => {
    const key = await testKey();
    for (const word of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
      const res = await call(customers.GET, "GET", "/customers", { headers: { authorization: `${word} ${key}` } });
      expect(res.status, word).toBe(200);
    }
  });

  it("is also returned by a public endpoint given a bad key", async () => {
    const { key } = generateApiKey("sandbox");
    expectInvalidToken(await call(eventTypes.GET, "GET", "/event-types", { key }));
  });
});

describe("forbidden (403)", () => {
  it("names the missing permission", async () => {
    const key = await testKey(["product.read"]);
    const read = expectError(await call(customers.GET, "GET", "/customers", { key }), 403, "forbidden");
    expect(read.detail).toBe("You aren't permitted to perform this request: it needs the customer.read permission.");
    const write = expectError(
      await call(customers.POST, "POST", "/customers", { key, body: { email: uniqueEmail() } }),
      403,
      "forbidden",
    );
    expect(write.detail).toContain("customer.write");
  });

  it("is checked before the body is parsed", async () => {
    const key = await testKey(["customer.read"]);
    const res = await call(customers.POST, "POST", "/customers", {
      key,
      rawBody: "not json",
      headers: { "content-type": "application/json" },
    });
    expectError(res, 403, "forbidden");
  });
});

describe("Service-Version", () => {
  it("is optional", async () => {
    const key = await testKey();
    expect((await call(customers.GET, "GET", "/customers", { key })).status).toBe(200);
  });

  it("accepts 1", async () => {
    const key = await testKey();
    expect((await call(customers.GET, "GET", "/customers", { key, headers: { "service-version": "1" } })).status).toBe(
      200,
    );
  });

  it("accepts the family's own header, Paddle-Version: 1 (its SDKs send it), like Service-Version: 1", async () => {
    const key = await testKey();
    const ours = await call(customers.GET, "GET", "/customers", { key, headers: { "Service-Version": "1" } });
    const family = await call(customers.GET, "GET", "/customers", { key, headers: { "Paddle-Version": "1" } });
    expect(family.status).toBe(200);
    expect(family.body.data).toEqual(ours.body.data);
  });

  it.each(["2", "abc", "0", "1.5", "-1"])("refuses %s with 400 invalid_version", async (version) => {
    const key = await testKey();
    const res = await call(customers.GET, "GET", "/customers", { key, headers: { "Service-Version": version } });
    expectError(res, 400, "invalid_version");
  });

  it("refuses an unknown version on a write without creating anything", async () => {
    const key = await testKey();
    const email = uniqueEmail("version");
    const res = await call(customers.POST, "POST", "/customers", {
      key,
      body: { email },
      headers: { "service-version": "2" },
    });
    expectError(res, 400, "invalid_version");
    expect(await db().customer.count({ where: { email } })).toBe(0);
  });
});

describe("bad_request (400)", () => {
  const json = { "content-type": "application/json" };

  it.each([
    ["a body that is not JSON", "{not json", json],
    ["a truncated JSON object", '{"email": "a@example.com"', json],
    ["a JSON array", '[{"email":"a@example.com"}]', json],
    ["JSON null", "null", json],
    ["a JSON string", '"a@example.com"', json],
    ["a JSON number", "42", json],
    ["an empty body", "", json],
    ["a blank body", "   \n", json],
    ["text/plain content type", '{"email":"a@example.com"}', { "content-type": "text/plain" }],
    ["form content type", "email=a%40example.com", { "content-type": "application/x-www-form-urlencoded" }],
    ["no content type", '{"email":"a@example.com"}', {}],
  ])("for %s", async (_name, rawBody, headers) => {
    const key = await testKey();
    const before = await db().customer.count();
    const res = await call(customers.POST, "POST", "/customers", { key, rawBody, headers });
    expectError(res, 400, "bad_request");
    expect(await db().customer.count()).toBe(before);
  });

  it.each([
    ["a byte that is never UTF-8", [0xff]],
    ["an encoded lone surrogate", [0xed, 0xa0, 0x80]],
    ["a truncated sequence", [0xe2, 0x82]],
  ])("for a body that is not UTF-8: %s (refused, never read with U+FFFD in its place)", async (_name, bytes) => {
    const key = await testKey();
    const email = uniqueEmail("utf8");
    const body = Buffer.concat([Buffer.from(`{"email":"${email}","name":"A`), Buffer.from(bytes), Buffer.from('"}')]);
    const request = new Request(`${BASE}/customers`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    });
    const response = await customers.POST(request, { params: Promise.resolve({}) });
    const res = { status: response.status, body: await response.json(), headers: response.headers };
    expect(expectError(res, 400, "bad_request").detail).toBe("Request body is not valid UTF-8.");
    expect(await db().customer.count({ where: { email } })).toBe(0);
  });

  it("accepts application/json with a charset", async () => {
    const key = await testKey();
    const res = await call(customers.POST, "POST", "/customers", {
      key,
      rawBody: JSON.stringify({ email: uniqueEmail() }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(201);
  });

  it("optionalBody: no body at all parses as undefined; a body present is still read and checked", async () => {
    const { z } = await import("zod");
    const echo = route(
      { permission: "public", body: z.strictObject({ n: z.number() }).optional(), optionalBody: true },
      async ({ input }) => ({ body: input.body ?? null }),
    );
    const empty = await call(echo, "POST", "/echo", {});
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({ body: null });
    const given = await call(echo, "POST", "/echo", { body: { n: 1 } });
    expect(given.body.data).toEqual({ body: { n: 1 } });
    expectError(
      await call(echo, "POST", "/echo", { rawBody: "[]", headers: { "content-type": "application/json" } }),
      400,
      "bad_request",
    );
    expect(errorFields(await call(echo, "POST", "/echo", { body: { n: "x" } }))).toEqual(["n"]);
  });

  it("applies to updates too", async () => {
    const key = await testKey();
    const created = await call(customers.POST, "POST", "/customers", { key, body: { email: uniqueEmail() } });
    const id = created.body.data.id as string;
    const res = await call(customerItem.PATCH, "PATCH", `/customers/${id}`, {
      key,
      rawBody: "[]",
      headers: { "content-type": "application/json" },
      params: { customer_id: id },
    });
    expectError(res, 400, "bad_request");
  });
});

describe("request_too_large (413)", () => {
  it("refuses a body over 1 MiB", async () => {
    const key = await testKey();
    const email = uniqueEmail("large");
    const rawBody = JSON.stringify({ email, custom_data: { pad: "x".repeat(1024 * 1024) } });
    expect(Buffer.byteLength(rawBody)).toBeGreaterThan(1024 * 1024);
    const res = await call(customers.POST, "POST", "/customers", {
      key,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expectError(res, 413, "request_too_large");
    expect(await db().customer.count({ where: { email } })).toBe(0);
  });

  it("accepts a body of exactly 1 MiB", async () => {
    const key = await testKey();
    const email = uniqueEmail("exact");
    const shell = JSON.stringify({ email, custom_data: { pad: "" } });
    const rawBody = JSON.stringify({ email, custom_data: { pad: "x".repeat(1024 * 1024 - Buffer.byteLength(shell)) } });
    expect(Buffer.byteLength(rawBody)).toBe(1024 * 1024);
    const res = await call(customers.POST, "POST", "/customers", {
      key,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(201);
  });

  /** A body of `total` bytes made on demand, 64 KiB at a time, counting what was taken from it. */
  function streamedBody(total: number) {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const counter = { produced: 0 };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (counter.produced >= total) return controller.close();
        counter.produced += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return { stream, counter };
  }

  async function postStream(
    handler: typeof customers.POST,
    path: string,
    headers: Record<string, string>,
    total: number,
  ) {
    const { stream, counter } = streamedBody(total);
    const request = new Request(`${BASE}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const response = await handler(request, { params: Promise.resolve({}) });
    return { res: { status: response.status, body: await response.json(), headers: response.headers }, counter };
  }

  it("stops reading a chunked body (no Content-Length) at the limit: 30 MiB sent, about 1 MiB read", async () => {
    const key = await testKey();
    const before = await db().customer.count();
    const { res, counter } = await postStream(
      customers.POST,
      "/customers",
      { authorization: `Bearer ${key}` },
      30 * 1024 * 1024,
    );
    expectError(res, 413, "request_too_large");
    expect(counter.produced).toBeGreaterThan(1024 * 1024);
    expect(counter.produced).toBeLessThan(1024 * 1024 + 4 * 64 * 1024);
    expect(await db().customer.count()).toBe(before);
  });

  it("refuses a declared Content-Length over the limit before reading the body", async () => {
    const key = await testKey();
    const { res, counter } = await postStream(
      customers.POST,
      "/customers",
      { authorization: `Bearer ${key}`, "content-length": String(30 * 1024 * 1024) },
      30 * 1024 * 1024,
    );
    expectError(res, 413, "request_too_large");
    expect(counter.produced).toBeLessThanOrEqual(64 * 1024);
  });

  it("reads a chunked body under the limit whole", async () => {
    const key = await testKey();
    const email = uniqueEmail("chunked");
    const parts = [`{"email":"${email}",`, '"name":"Chunked"}'].map((part) => new TextEncoder().encode(part));
    const request = new Request(`${BASE}/customers`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: new ReadableStream({
        pull(controller) {
          const part = parts.shift();
          if (part) controller.enqueue(part);
          else controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    const response = await customers.POST(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(201);
    expect((await response.json()).data.name).toBe("Chunked");
  });

  it("counts bytes, not characters", async () => {
    const key = await testKey();
    // 400,000 three-byte characters: 1.2 MB of UTF-8 in fewer than 1,048,576 characters.
    const rawBody = JSON.stringify({ email: uniqueEmail(), custom_data: { pad: "€".repeat(400_000) } });
    expect(rawBody.length).toBeLessThan(1024 * 1024);
    const res = await call(customers.POST, "POST", "/customers", {
      key,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expectError(res, 413, "request_too_large");
  });
});

describe("not_found and method_not_allowed", () => {
  it("gives 404 not_found for an unknown route", async () => {
    const handlers = {
      GET: catchAll.GET,
      POST: catchAll.POST,
      PUT: catchAll.PUT,
      PATCH: catchAll.PATCH,
      DELETE: catchAll.DELETE,
    };
    for (const [method, handler] of Object.entries(handlers)) {
      const res = await call(handler, method, "/no-such-thing/abc", { params: { path: "no-such-thing/abc" } });
      expectError(res, 404, "not_found");
    }
  });

  it("names the entity of an unknown or malformed ID in words", async () => {
    const key = await testKey();
    const id = "ctm_00000000000000000000000000";
    const unknown = expectError(
      await call(customerItem.GET, "GET", `/customers/${id}`, { key, params: { customer_id: id } }),
      404,
      "not_found",
    );
    expect(unknown.detail).toBe(`No customer with ID ${id}.`);
    const malformed = expectError(
      await call(customerItem.GET, "GET", "/customers/nope", { key, params: { customer_id: "nope" } }),
      404,
      "not_found",
    );
    expect(malformed.detail).toBe("Nothing with ID nope.");
  });

  it("gives 404 for an unknown route even with a valid key", async () => {
    const key = await testKey();
    const res = await call(catchAll.GET, "GET", "/customer", { key });
    expectError(res, 404, "not_found");
  });

  it("gives 405 method_not_allowed for a method a route does not support", async () => {
    const key = await testKey();
    expectError(await call(customers.DELETE, "DELETE", "/customers", { key }), 405, "method_not_allowed");
    expectError(await call(customers.PUT, "PUT", "/customers", { key, body: {} }), 405, "method_not_allowed");
    expectError(await call(customers.PATCH, "PATCH", "/customers", { key, body: {} }), 405, "method_not_allowed");
    const id = newId("ctm");
    expectError(
      await call(customerItem.DELETE, "DELETE", `/customers/${id}`, { key, params: { customer_id: id } }),
      405,
      "method_not_allowed",
    );
    expectError(
      await call(customerItem.POST, "POST", `/customers/${id}`, { key, body: {}, params: { customer_id: id } }),
      405,
      "method_not_allowed",
    );
    expectError(await call(eventTypes.POST, "POST", "/event-types", { body: {} }), 405, "method_not_allowed");
  });
});

describe("error shape", () => {
  it("has type, code, detail, documentation_url and meta.request_id on every error", async () => {
    const key = await testKey(["product.read"]);
    const full = await testKey();
    const results = [
      await call(customers.GET, "GET", "/customers"),
      await call(customers.GET, "GET", "/customers", { key }),
      await call(customers.POST, "POST", "/customers", { key: full, body: { email: "nope" } }),
      await call(customers.POST, "POST", "/customers", {
        key: full,
        rawBody: "x",
        headers: { "content-type": "application/json" },
      }),
      await call(catchAll.GET, "GET", "/nothing"),
      await call(customers.DELETE, "DELETE", "/customers", { key: full }),
    ];
    for (const res of results) {
      const body = res.body;
      expect(Object.keys(body).sort()).toEqual(["error", "meta"]);
      expect(typeof body.error.type).toBe("string");
      expect(typeof body.error.code).toBe("string");
      expect(typeof body.error.detail).toBe("string");
      expect(body.error.documentation_url).toMatch(/^https?:\/\/\S+$/);
      expect(body.error.documentation_url).toContain(body.error.code);
      expect(typeof body.meta.request_id).toBe("string");
      expect(res.headers.get("x-request-id")).toBe(body.meta.request_id);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("lists each invalid field with a field and a message", async () => {
    const key = await testKey();
    const res = await call(customers.POST, "POST", "/customers", {
      key,
      body: { email: "not-an-email", locale: "!!" },
    });
    const error = expectError(res, 400, "invalid_field");
    expect(Array.isArray(error.errors)).toBe(true);
    for (const entry of error.errors ?? []) {
      expect(Object.keys(entry).sort()).toEqual(["field", "message"]);
      expect(typeof entry.message).toBe("string");
      expect(entry.message.length).toBeGreaterThan(0);
    }
    expect(errorFields(res).sort()).toEqual(["email", "locale"]);
  });

  it("has no errors array on errors other than invalid_field", async () => {
    const res = await call(customers.GET, "GET", "/customers");
    expect(res.body.error.errors).toBeUndefined();
  });
});

describe("internal_error (500)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("maps an unknown error to 500 internal_error without leaking its message", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = route({ permission: "public" }, async () => {
      throw new Error("secret SQL: SELECT * FROM api_keys");
    });
    const res = await call(failing, "GET", "/boom");
    const error = expectError(res, 500, "internal_error");
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("secret");
    expect(text).not.toContain("SQL");
    expect(text).not.toContain("api_keys");
    expect(text).not.toMatch(/at .*\.ts:\d+/);
    expect(error.detail).toContain(res.body.meta.request_id);
    // Logged for the operators, with the request ID.
    expect(logged).toHaveBeenCalled();
    expect(String(logged.mock.calls[0]![0])).toContain(res.body.meta.request_id);
  });

  it("does not leak a non-Error thrown value either", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = route({ permission: "public" }, async () => {
      throw "password=hunter2";
    });
    const res = await call(failing, "GET", "/boom");
    expectError(res, 500, "internal_error");
    expect(JSON.stringify(res.body)).not.toContain("hunter2");
  });
});

describe("dashboard session cookie", () => {
  async function sessionFor(role: Role): Promise<{ cookie: string; userId: string }> {
    const userId = newId("usr");
    await db().user.create({
      data: { id: userId, email: `${userId}@staff.example.com`, passwordHash: "scrypt$unused", role },
    });
    const secret = process.env.NEXTAUTH_SECRET;
    if (!secret) throw new Error("NEXTAUTH_SECRET is not set for tests");
    const token = await encode({ token: { uid: userId, role }, secret });
    return { cookie: `next-auth.session-token=${token}`, userId };
  }

  const sameOrigin = { host: "localhost:3000", origin: "http://localhost:3000", "sec-fetch-site": "same-origin" };

  it("authenticates a read", async () => {
    const { cookie } = await sessionFor("owner");
    const res = await call(customers.GET, "GET", "/customers", { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
  });

  it("authenticates a write from the dashboard's own origin", async () => {
    const { cookie } = await sessionFor("owner");
    const email = uniqueEmail("session");
    const res = await call(customers.POST, "POST", "/customers", {
      body: { email },
      headers: { cookie, ...sameOrigin },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.email).toBe(email);
  });

  it("finds the cookie among others", async () => {
    const { cookie } = await sessionFor("viewer");
    const res = await call(customers.GET, "GET", "/customers", {
      headers: { cookie: `theme=dark; ${cookie}; other=1` },
    });
    expect(res.status).toBe(200);
  });

  it("refuses a cross-site request (Sec-Fetch-Site: cross-site) with 403", async () => {
    const { cookie } = await sessionFor("owner");
    const res = await call(customers.GET, "GET", "/customers", { headers: { cookie, "sec-fetch-site": "cross-site" } });
    expectError(res, 403, "forbidden");
  });

  it("refuses a request from a foreign Origin with 403", async () => {
    const { cookie } = await sessionFor("owner");
    const email = uniqueEmail("foreign");
    const res = await call(customers.POST, "POST", "/customers", {
      body: { email },
      headers: { cookie, host: "localhost:3000", origin: "https://evil.example" },
    });
    expectError(res, 403, "forbidden");
    expect(await db().customer.count({ where: { email } })).toBe(0);
    const get = await call(customers.GET, "GET", "/customers", {
      headers: { cookie, host: "localhost:3000", origin: "https://evil.example" },
    });
    expectError(get, 403, "forbidden");
  });

  it("refuses a write that does not show its origin", async () => {
    const { cookie } = await sessionFor("owner");
    const res = await call(customers.POST, "POST", "/customers", {
      body: { email: uniqueEmail() },
      headers: { cookie },
    });
    expectError(res, 403, "forbidden");
  });

  it("gives a viewer 403 on POST /customers, naming customer.write", async () => {
    const { cookie } = await sessionFor("viewer");
    const email = uniqueEmail("viewer");
    const res = await call(customers.POST, "POST", "/customers", {
      body: { email },
      headers: { cookie, ...sameOrigin },
    });
    const error = expectError(res, 403, "forbidden");
    expect(error.detail).toBe(
      "Your role cannot change customer data (it needs the customer.write permission). Ask an owner for access.",
    );
    expect(await db().customer.count({ where: { email } })).toBe(0);
  });

  it("refuses a token signed with another secret, or garbage, with 401", async () => {
    const userId = newId("usr");
    await db().user.create({
      data: { id: userId, email: `${userId}@staff.example.com`, passwordHash: "x", role: "owner" },
    });
    const forged = await encode({
      token: { uid: userId, role: "owner" },
      secret: "some-other-secret-0123456789abcdef",
    });
    expectInvalidToken(
      await call(customers.GET, "GET", "/customers", { headers: { cookie: `next-auth.session-token=${forged}` } }),
    );
    expectInvalidToken(
      await call(customers.GET, "GET", "/customers", { headers: { cookie: "next-auth.session-token=garbage" } }),
    );
    // A malformed percent-escape in the cookie: refused like any bad token, not a 500.
    expectInvalidToken(
      await call(customers.GET, "GET", "/customers", { headers: { cookie: "next-auth.session-token=%ZZ" } }),
    );
  });

  it("refuses a session whose user does not exist", async () => {
    const secret = process.env.NEXTAUTH_SECRET as string;
    const token = await encode({ token: { uid: newId("usr"), role: "owner" }, secret });
    expectInvalidToken(
      await call(customers.GET, "GET", "/customers", { headers: { cookie: `next-auth.session-token=${token}` } }),
    );
  });
});

describe("links the API hands out, and response headers", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const forged = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

  it("builds meta.pagination.next and documentation_url from PUBLIC_URL, not from a forged Host", async () => {
    const key = await testKey();
    await call(customers.POST, "POST", "/customers", { key, body: { email: uniqueEmail("link") } });
    const list = await call(customers.GET, "GET", "/customers?per_page=1&status=active", { key, headers: forged });
    expect(list.status).toBe(200);
    const next = new URL(list.body.meta.pagination.next);
    expect(next.origin).toBe("http://localhost:3000");
    expect(next.pathname).toBe("/api/customers");
    expect(next.searchParams.get("per_page")).toBe("1");
    expect(next.searchParams.get("after")).toBe(list.body.data[0].id);
    const error = await call(customers.GET, "GET", "/customers", { headers: forged });
    expect(error.body.error.documentation_url).toBe("http://localhost:3000/docs/errors/invalid_token");
  });

  it("puts them under PUBLIC_URL, path included (a server behind a proxy at https://host/billing)", async () => {
    vi.stubEnv("PUBLIC_URL", "https://pay.example.com/billing/");
    const key = await testKey();
    await call(customers.POST, "POST", "/customers", { key, body: { email: uniqueEmail("link") } });
    const list = await call(customers.GET, "GET", "/customers?per_page=1", { key, headers: forged });
    expect(list.body.meta.pagination.next).toMatch(
      /^https:\/\/pay\.example\.com\/billing\/api\/customers\?per_page=1&after=ctm_/,
    );
    const error = await call(catchAll.GET, "GET", "/nothing", { headers: forged });
    expect(error.body.error.documentation_url).toBe("https://pay.example.com/billing/docs/errors/not_found");
  });

  it("sends X-Content-Type-Options: nosniff on answers and errors; Strict-Transport-Security only under https", async () => {
    const key = await testKey();
    const ok = await call(customers.GET, "GET", "/customers", { key });
    const refused = await call(customers.GET, "GET", "/customers");
    for (const res of [ok, refused]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
    vi.stubEnv("PUBLIC_URL", "https://pay.example.com");
    const secure = await call(customers.GET, "GET", "/customers", { key });
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect(secure.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
