/** Sign-in (lib/auth/next-auth.ts) and its route's check (lib/http/next-auth-route.ts) with hostile input. */
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { nextAuthRoute } from "../http/next-auth-route.ts";
import { authOptions, verifyCredentials } from "./next-auth.ts";

describe("verifyCredentials", () => {
  it("answers null, never throws, for whatever a hostile sign-in form sends", async () => {
    for (const [email, password] of [
      ["a\u0000b@example.com", "x"],
      ["\udc00@example.com", "x"],
      ["x".repeat(100_000), "x"],
      [5, "x"],
      [{ email: "a" }, ["x"]],
      [null, null],
      ["owner@example.com", "\u0000"],
    ]) {
      await expect(verifyCredentials(email, password)).resolves.toBeNull();
    }
  });
});

describe("the next-auth route's check (nextAuthRoute)", () => {
  const handler = nextAuthRoute(authOptions);
  const post = (body: string) =>
    handler(
      new NextRequest("http://localhost/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
      { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) },
    );

  it("refuses a JSON body that does not parse with 400 bad_request in the API's error shape", async () => {
    for (const body of ["{", "\u0000", '{"a":"\\ud800'] as const) {
      const res = await post(body);
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.error).toMatchObject({ type: "request_error", code: "bad_request" });
    }
  });
});
