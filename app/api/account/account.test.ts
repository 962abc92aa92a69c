/**
 * The signed-in staff member's own login, through the real route handler on a real database:
 *   GET   /account (ours)
 *   PATCH /account (ours)
 */
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { query } from "@/lib/db/sql";
import { type ApiResult, call, errorFields, expectError, testKey } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed } from "@/lib/dev/test/checks";
import { type StaffSession, staffSession } from "@/lib/dev/test/staff";
import * as route from "./route";

const PASSWORD = "correct horse battery";

/** A staff session whose login has a known password. */
async function member(role: "owner" | "viewer" = "viewer"): Promise<StaffSession> {
  const session = await staffSession(role);
  await query("UPDATE users SET password_hash = $2 WHERE id = $1", [session.userId, await hashPassword(PASSWORD)]);
  return session;
}

function get(session: StaffSession | null, key?: string): Promise<ApiResult> {
  return call(route.GET, "GET", "/account", { headers: session?.headers, key });
}

function patch(session: StaffSession | null, body: unknown, key?: string): Promise<ApiResult> {
  return call(route.PATCH, "PATCH", "/account", { headers: session?.headers, key, body });
}

async function stored(userId: string): Promise<{ email: string; name: string | null; password_hash: string }> {
  const [row] = await query<{ email: string; name: string | null; password_hash: string }>(
    "SELECT email, name, password_hash FROM users WHERE id = $1",
    [userId],
  );
  return row!;
}

describe("GET /account", () => {
  it("answers the signed-in member's own login, any role", async () => {
    const viewer = await member("viewer");
    const res = await get(viewer);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: viewer.userId,
      email: `${viewer.userId}@staff.example.com`,
      name: null,
      role: "viewer",
    });
  });

  it("an API key has no account (403); no credentials is 401", async () => {
    const error = expectError(await get(null, await testKey()), 403, "forbidden");
    expect(error.detail).toContain("API key");
    expectError(await get(null), 401, "invalid_token");
  });
});

describe("PATCH /account", () => {
  it("changes the name without the password; an empty name clears it", async () => {
    const viewer = await member();
    const named = await patch(viewer, { name: "  Maya Chen " });
    expect(named.status).toBe(200);
    expect(named.body.data.name).toBe("Maya Chen");
    expect((await patch(viewer, { name: "" })).body.data.name).toBeNull();
    expect((await patch(viewer, { name: null })).body.data.name).toBeNull();
  });

  it("changes the email (kept in lower case) with the current password", async () => {
    const viewer = await member();
    const email = `New.${viewer.userId}@Example.com`;
    const res = await patch(viewer, { email, current_password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe(email.toLowerCase());
    expect((await stored(viewer.userId)).email).toBe(email.toLowerCase());
  });

  it("changes the password with the current one; the new one then verifies", async () => {
    const viewer = await member();
    const res = await patch(viewer, { password: "a much longer new secret", current_password: PASSWORD });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(["email", "id", "name", "role"]);
    const { password_hash } = await stored(viewer.userId);
    expect(await verifyPassword("a much longer new secret", password_hash)).toBe(true);
    expect(await verifyPassword(PASSWORD, password_hash)).toBe(false);
  });

  it("a new email or password needs the current password, and the right one; nothing changes otherwise", async () => {
    const viewer = await member();
    const before = await stored(viewer.userId);
    for (const body of [{ email: "x@example.com" }, { password: "long enough password" }]) {
      const missing = expectError(await patch(viewer, body), 400, "invalid_field");
      expect(errorFields({ status: 400, body: { error: missing }, headers: new Headers() })).toEqual([
        "current_password",
      ]);
      const wrong = await patch(viewer, { ...body, current_password: "not the password" });
      expectError(wrong, 400, "invalid_field");
      expect(errorFields(wrong)).toEqual(["current_password"]);
    }
    expect(await stored(viewer.userId)).toEqual(before);
  });

  it("refuses an email another login has", async () => {
    const [viewer, other] = [await member(), await member()];
    const res = await patch(viewer, { email: `${other.userId}@staff.example.com`, current_password: PASSWORD });
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["email"]);
    expect(res.body.error.errors[0].message).toContain("Another login");
  });

  it("validates each field with a sentence naming it", async () => {
    const viewer = await member();
    const cases: [unknown, string][] = [
      [{ name: "x".repeat(201) }, "name"],
      [{ name: 42 }, "name"],
      [{ email: "not an email", current_password: PASSWORD }, "email"],
      [{ email: `${"a".repeat(320)}@example.com`, current_password: PASSWORD }, "email"],
      [{ password: "short", current_password: PASSWORD }, "password"],
      [{ password: "p".repeat(201), current_password: PASSWORD }, "password"],
      [{ password: ["a"], current_password: PASSWORD }, "password"],
      [{ current_password: { $ne: "" }, password: "long enough password" }, "current_password"],
      [{ role: "owner" }, "role"],
    ];
    for (const [body, field] of cases) {
      const res = await patch(viewer, body);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res), JSON.stringify(body)).toContain(field);
    }
    // No caller grants itself a role: `role` is not a field of the account.
    expect((await get(viewer)).body.data.role).toBe("viewer");
  });

  it("hostile input never gives a 5xx", async () => {
    const viewer = await member();
    for (const body of [
      { name: "\ud800 lone surrogate" },
      { name: "nul \u0000 byte" },
      { email: "a\u0000@example.com", current_password: PASSWORD },
      { name: "x".repeat(1_000_000) },
    ]) {
      const res = await patch(viewer, body);
      expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBeLessThan(500);
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    for (const rawBody of ["{not json", `{"name":${"[".repeat(5000)}"x"${"]".repeat(5000)}}`, "\udead"]) {
      const bad = await call(route.PATCH, "PATCH", "/account", {
        headers: { ...viewer.headers, "content-type": "application/json" },
        rawBody,
      });
      expect(bad.status).toBe(400);
    }
  });

  it("an API key cannot change any login (403)", async () => {
    expectError(await patch(null, { name: "Robot" }, await testKey()), 403, "forbidden");
  });

  it("answers 405 for the methods it does not have", async () => {
    await expectMethodsNotAllowed(route, ["POST", "PUT", "DELETE"], "/account");
  });
});
