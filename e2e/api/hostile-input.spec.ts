/**
 * Hostile input over real HTTP (issue #13): malformed paths, junk to next-auth's routes, oversized
 * chunked bodies, forged Host headers, and the security headers of every kind of response. Requests
 * go through node:http so that paths are sent exactly as written (fetch would re-encode them).
 */
import http from "node:http";
import { expect, test } from "@playwright/test";
import { newId } from "../../lib/ids";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";

const origin = new URL(baseURL);

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => any;
}

/** One request with the path exactly as given. */
function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: origin.hostname, port: origin.port, method, path, headers: options.headers, agent: false },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The API's error shape, with the request ID in the body and the header. */
function expectApiError(res: RawResponse, status: number, code: string): any {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  const body = res.json();
  expect(body.error.code).toBe(code);
  expect(body.error.type).toBe("request_error");
  expect(body.error.documentation_url).toBe(`${baseURL}/docs/errors/${code}`);
  expect(typeof body.meta.request_id).toBe("string");
  expect(res.headers["x-request-id"]).toBe(body.meta.request_id);
  return body.error;
}

test.describe("malformed percent-encoding in the path", () => {
  const apiPaths = [
    "/api/checkout/txn_%ZZ",
    "/api/customers/%ED%A0%80",
    "/api/%ZZ",
    "/api/%",
    "/api/customers/%C0%80/addresses",
    "/api/transactions/txn_%FF/invoice",
    "/api/auth/%ZZ",
    "/api/auth/callback/%E2%82",
  ];
  for (const path of apiPaths) {
    test(`${path}: 400 bad_request in the API's error shape, GET and POST`, async () => {
      for (const method of ["GET", "POST"]) {
        const res = await raw(method, path, {
          headers: { "content-type": "application/json" },
          body: method === "POST" ? "{}" : undefined,
        });
        const error = expectApiError(res, 400, "bad_request");
        expect(error.detail).toMatch(/percent-encoded UTF-8/);
      }
    });
  }

  for (const path of ["/customers/%ZZ", "/transactions/%FF", "/checkout/%ZZ", "/%ZZ", "/docs/errors/%ED%A0%80"]) {
    test(`${path}: an HTML 400 page`, async () => {
      const res = await raw("GET", path);
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.text).toContain("Bad request");
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    });
  }

  test("a well-formed non-ASCII path is still routed (to a 404 here)", async () => {
    const key = cliApiKey();
    const res = await raw("GET", "/api/customers/%E2%82%AC", { headers: { authorization: `Bearer ${key}` } });
    expectApiError(res, 404, "not_found");
  });
});

test.describe("next-auth's routes refuse junk with a 4xx", () => {
  test("GET on the credentials callback: 405", async () => {
    const res = await raw("GET", "/api/auth/callback/credentials");
    expectApiError(res, 405, "method_not_allowed");
    expect(res.headers.allow).toBe("POST");
  });

  for (const callbackUrl of ["javascript:alert(1)", "%ZZ", "data:text/html,x"]) {
    test(`sign-in page with callbackUrl=${callbackUrl}: back to the sign-in page with an error`, async () => {
      const res = await raw("GET", `/api/auth/signin?callbackUrl=${callbackUrl}`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe("/sign-in?error=InvalidCallbackUrl");
    });
  }

  test("a JSON endpoint with a bad callbackUrl: 400 invalid_field", async () => {
    for (const path of ["/api/auth/session?callbackUrl=%ZZ", "/api/auth/csrf?callbackUrl=javascript:alert(1)"]) {
      const error = expectApiError(await raw("GET", path), 400, "invalid_field");
      expect(error.errors).toEqual([
        { field: "callbackUrl", message: "must be a path on this site or an http(s) URL" },
      ]);
    }
  });

  test("a bad callback-url cookie: 400, and the cookie is cleared", async () => {
    const res = await raw("GET", "/api/auth/session", {
      headers: { cookie: "next-auth.callback-url=javascript%3Aalert(1)" },
    });
    expectApiError(res, 400, "invalid_field");
    expect(res.headers["set-cookie"]).toContain("next-auth.callback-url=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
  });

  for (const path of [
    "/api/auth/callback/credentials",
    "/api/auth/signin/credentials",
    "/api/auth/session",
    "/api/auth/_log",
  ]) {
    test(`POST ${path} with malformed JSON: 400 bad_request`, async () => {
      const res = await raw("POST", path, { headers: { "content-type": "application/json" }, body: '{"email": ' });
      expect(expectApiError(res, 400, "bad_request").detail).toBe("Request body is not valid JSON.");
    });
  }

  test("POST with a callbackUrl that is not a string or not a URL: 400 invalid_field", async () => {
    const json = await raw("POST", "/api/auth/signin/credentials", {
      headers: { "content-type": "application/json" },
      body: '{"callbackUrl": 5}',
    });
    expectApiError(json, 400, "invalid_field");
    const form = await raw("POST", "/api/auth/callback/credentials", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "callbackUrl=%25ZZ&email=a%40example.com&password=x",
    });
    expectApiError(form, 400, "invalid_field");
  });

  test("POST with bytes that are not UTF-8: 400", async () => {
    const res = await raw("POST", "/api/auth/callback/credentials", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: Buffer.concat([Buffer.from("email=a%40example.com&name="), Buffer.from([0xff, 0xfe])]),
    });
    expect(expectApiError(res, 400, "bad_request").detail).toBe("Request body is not valid UTF-8.");
  });

  test("an unknown action: 404; an unknown provider: 404; PUT: 405", async () => {
    expectApiError(await raw("GET", "/api/auth/nothing"), 404, "not_found");
    expectApiError(await raw("GET", "/api/auth/callback/github"), 404, "not_found");
    expectApiError(await raw("PUT", "/api/auth/session"), 405, "method_not_allowed");
  });

  test("the real endpoints still answer: csrf, providers, session, a sign-in", async () => {
    const csrf = await raw("GET", "/api/auth/csrf");
    expect(csrf.status).toBe(200);
    expect(csrf.headers["x-content-type-options"]).toBe("nosniff");
    const { csrfToken } = csrf.json();
    expect(typeof csrfToken).toBe("string");
    // Over http, the cookies are not Secure and carry no __Secure- prefix.
    const cookies = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]);
    expect(cookies.some((c) => c!.startsWith("next-auth.csrf-token="))).toBe(true);
    expect((csrf.headers["set-cookie"] ?? []).join("\n")).not.toMatch(/Secure/);
    expect((await raw("GET", "/api/auth/providers")).json().credentials.type).toBe("credentials");
    expect((await raw("GET", "/api/auth/session")).status).toBe(200);

    const signIn = await raw("POST", "/api/auth/callback/credentials", {
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
      body: new URLSearchParams({
        csrfToken,
        email: "owner@example.com",
        password: "e2e-owner-password",
        callbackUrl: "/customers",
        json: "true",
      }).toString(),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.json().url).toBe(`${baseURL}/customers`);
    expect((signIn.headers["set-cookie"] ?? []).some((c) => c.startsWith("next-auth.session-token="))).toBe(true);
  });
});

test.describe("a request body over 1 MiB is refused as it arrives", () => {
  /**
   * Streams up to 30 MiB of chunked body (no Content-Length), 64 KiB at a time as the socket takes
   * it, until the answer arrives. Returns the answer and how much had been sent by then.
   */
  function streamUpload(
    path: string,
    headers: Record<string, string>,
  ): Promise<{ res: RawResponse | null; sent: number }> {
    const total = 30 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    return new Promise((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const request = http.request(
        {
          host: origin.hostname,
          port: origin.port,
          method: "POST",
          path,
          headers: { "content-type": "application/json", ...headers },
          agent: false,
        },
        (response) => {
          answered = true;
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (part) => {
            text += part;
          });
          response.on("end", () => {
            const res = {
              status: response.statusCode ?? 0,
              headers: response.headers,
              text,
              json: () => JSON.parse(text),
            };
            resolve({ res, sent });
            request.destroy();
          });
        },
      );
      request.on("error", (error: NodeJS.ErrnoException) => {
        if (answered) return;
        // The server answered 413 and closed the connection while we were still sending: our next
        // write meets the closed socket (EPIPE, or ECONNRESET when the peer's reset came first), and
        // the reset may discard the answer before Node parses it. That is a refusal too; what
        // matters is how much had been sent by then (res null).
        if (error.code === "EPIPE" || error.code === "ECONNRESET") {
          answered = true;
          resolve({ res: null, sent });
          return;
        }
        reject(error);
      });
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!request.write(chunk)) {
            request.once("drain", pump);
            return;
          }
        }
        if (!answered) request.end();
      };
      request.write("{");
      pump();
    });
  }

  test("POST /api/customers with a valid key: 413 long before 30 MiB were sent", async () => {
    const key = cliApiKey();
    const { res, sent } = await streamUpload("/api/customers", { authorization: `Bearer ${key}` });
    if (res) expectApiError(res, 413, "request_too_large");
    // What was sent beyond the 1 MiB read sits in socket buffers (a few MiB on loopback).
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  test("the public checkout's payment POST: 413 long before 30 MiB were sent", async () => {
    const { res, sent } = await streamUpload(`/api/checkout/${newId("txn")}/payments`, {});
    if (res) expectApiError(res, 413, "request_too_large");
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  test("the server still answers on new connections afterwards", async () => {
    expect((await raw("GET", "/api/event-types")).status).toBe(200);
  });
});

test.describe("links and headers", () => {
  test("meta.pagination.next and documentation_url ignore a forged Host / X-Forwarded-Host", async () => {
    const key = cliApiKey();
    const forged = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    const list = await raw("GET", "/api/event-types", { headers: forged });
    expect(list.status).toBe(200);
    const customers = await raw("GET", "/api/customers?per_page=1", {
      headers: { ...forged, authorization: `Bearer ${key}` },
    });
    expect(customers.status).toBe(200);
    expect(customers.json().meta.pagination.next).toMatch(new RegExp(`^${baseURL}/api/customers\\?per_page=1`));
    const error = await raw("GET", "/api/customers", { headers: forged });
    expect(error.json().error.documentation_url).toBe(`${baseURL}/docs/errors/invalid_token`);
  });

  test("pages: a Content-Security-Policy that forbids framing, nosniff, a referrer policy", async () => {
    for (const path of ["/sign-in", "/customers", "/docs/errors"]) {
      const res = await raw("GET", path);
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      // Served over http here (PUBLIC_URL is http): no Strict-Transport-Security.
      expect(res.headers["strict-transport-security"]).toBeUndefined();
    }
  });

  test("the hosted checkout sends no referrer (its address holds the transaction ID)", async () => {
    const res = await raw("GET", `/checkout?_ptxn=${newId("txn")}`);
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  test("hosted invoice and invitation pages send no referrer (their address is their capability)", async () => {
    for (const path of [`/invoices/${newId("txn")}-1-abc`, "/invite/not-a-real-token"]) {
      const res = await raw("GET", path);
      expect(res.headers["referrer-policy"], path).toBe("no-referrer");
    }
  });

  test("API responses: nosniff on answers, errors and next-auth's; static files too", async () => {
    expect((await raw("GET", "/api/event-types")).headers["x-content-type-options"]).toBe("nosniff");
    expect((await raw("GET", "/api/customers")).headers["x-content-type-options"]).toBe("nosniff");
    expect((await raw("GET", "/api/auth/providers")).headers["x-content-type-options"]).toBe("nosniff");
    const page = await raw("GET", "/sign-in");
    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeTruthy();
    expect((await raw("GET", script as string)).headers["x-content-type-options"]).toBe("nosniff");
  });
});
