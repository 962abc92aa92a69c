/**
 * Hostile input over real HTTP against `next start` (issue #13): what the in-process fuzz
 * (app/api/fuzz.test.ts) cannot reach, NextAuth's sign-in route, and the input guard end to end.
 */
import { expect, test } from "@playwright/test";

test("a JSON POST to NextAuth that is not JSON is 400 bad_request, not a 500", async ({ request }) => {
  for (const data of ["{", "", '{"email":"a'] as const) {
    const response = await request.post("/api/auth/callback/credentials", {
      headers: { "content-type": "application/json" },
      // A Buffer is sent as it is (a string would be serialised as JSON).
      data: Buffer.from(data),
    });
    expect(response.status(), data).toBe(400);
    const body = await response.json();
    expect(body.error).toMatchObject({ type: "request_error", code: "bad_request" });
  }
});

test("signing in with a NUL in the email is a failed sign-in, with no internal error in the redirect", async ({
  request,
}) => {
  const csrf = await (await request.get("/api/auth/csrf")).json();
  const response = await request.post("/api/auth/callback/credentials", {
    form: { email: "a\u0000b@example.com", password: "x", csrfToken: csrf.csrfToken, json: "true" },
    maxRedirects: 0,
  });
  expect(response.status()).toBeLessThan(500);
  const location = `${response.headers().location ?? ""} ${await response.text()}`;
  expect(location).not.toMatch(/prisma|invalid byte sequence|PrismaClient/i);
});

test("an unpaired surrogate or a too-deep body is a field error over HTTP (public checkout)", async ({ request }) => {
  const surrogate = await request.post("/api/checkout/txn_00000000000000000000000000/payments", {
    headers: { "content-type": "application/json" },
    data: Buffer.from('{"cardholder_name":"\\udc00","number":"4242424242424242","expiry":"12/39","cvc":"123"}'),
  });
  expect(surrogate.status()).toBe(400);
  expect((await surrogate.json()).error.errors).toEqual([
    { field: "cardholder_name", message: expect.stringContaining("unpaired UTF-16 surrogates") },
  ]);
  const deep = await request.post("/api/checkout/txn_00000000000000000000000000/payments", {
    headers: { "content-type": "application/json" },
    data: Buffer.from(`{"cardholder_name":${"[".repeat(5_000)}${"]".repeat(5_000)}}`),
  });
  expect(deep.status()).toBe(400);
  expect((await deep.json()).error.errors[0].field).toBe("cardholder_name");
});
