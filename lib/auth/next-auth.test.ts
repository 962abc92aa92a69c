/** Sign-in (lib/auth/next-auth.ts) and its route's check (lib/http/next-auth-route.ts) with hostile input. */
import { describe, expect, it } from "vitest";
import { guardNextAuth } from "../http/next-auth-route.ts";
import { verifyCredentials } from "./next-auth.ts";

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

describe("guardNextAuth", () => {
  const reached: Request[] = [];
  const handler = guardNextAuth(async (request: Request, _context: unknown) => {
    reached.push(request);
    return new Response("next-auth");
  });
  const post = (body: string, type = "application/json") =>
    handler(
      new Request("http://localhost/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": type },
        body,
      }),
      {},
    );

  it("refuses a JSON body that does not parse with 400 bad_request in the API's error shape", async () => {
    for (const body of ["{", "", "\u0000", '{"a":"\\ud800'] as const) {
      const res = await post(body);
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.error).toMatchObject({ type: "request_error", code: "bad_request" });
    }
    expect(reached).toHaveLength(0);
  });

  it("passes forms, valid JSON and GETs through untouched", async () => {
    expect(await (await post("email=a&password=b", "application/x-www-form-urlencoded")).text()).toBe("next-auth");
    expect(await (await post('{"email":"a"}')).text()).toBe("next-auth");
    expect(await reached[1].json()).toEqual({ email: "a" });
    const get = await handler(new Request("http://localhost/api/auth/session"), {});
    expect(await get.text()).toBe("next-auth");
  });
});
