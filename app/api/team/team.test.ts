/** The Team API: owners only; last-owner and self rules; one-time invitation links. */
import { describe, expect, it } from "vitest";
import { verifyCredentials } from "@/lib/auth/next-auth";
import { PERMISSIONS, rolePermissions } from "@/lib/auth/permissions";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { staffSession } from "@/lib/dev/test/staff";
import * as invite from "./invites/[invite_id]/route";
import * as accept from "./invites/accept/route";
import * as invites from "./invites/route";
import * as member from "./members/[user_id]/route";
import * as members from "./members/route";

async function newInvite(headers: Record<string, string>, email: string, role = "developer") {
  const res = await call(invites.POST, "POST", "/team/invites", { headers, body: { email, role } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; url: string; email: string; status: string };
}

const tokenOf = (url: string) => url.split("/invite/")[1];

describe("Team API permissions", () => {
  it("refuses every role but owner, and keys without user.*", async () => {
    for (const role of ["admin", "developer", "viewer"] as const) {
      const { headers } = await staffSession(role);
      expectError(await call(members.GET, "GET", "/team/members", { headers }), 403, "forbidden");
      expectError(
        await call(invites.POST, "POST", "/team/invites", {
          headers,
          body: { email: "x@example.com", role: "viewer" },
        }),
        403,
        "forbidden",
      );
    }
    const key = await testKey(["customer.write"]);
    expectError(await call(members.GET, "GET", "/team/members", { key }), 403, "forbidden");
    const owner = await staffSession("owner");
    const list = await call(members.GET, "GET", "/team/members", { headers: owner.headers });
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: any) => m.id)).toContain(owner.userId);
    expect(Object.keys(list.body.data[0])).toEqual(["id", "email", "name", "role", "last_sign_in_at", "created_at"]);
  });

  it("404 for unknown or malformed IDs", async () => {
    const { headers } = await staffSession("owner");
    const missing = "usr_01aaaaaaaaaaaaaaaaaaaaaaaa";
    expectNotFound(
      await call(member.GET, "GET", `/team/members/${missing}`, { headers, params: { user_id: missing } }),
    );
    expectNotFound(
      await call(member.PATCH, "PATCH", `/team/members/${missing}`, {
        headers,
        params: { user_id: missing },
        body: { role: "viewer" },
      }),
    );
    expectNotFound(await call(member.DELETE, "DELETE", "/team/members/nope", { headers, params: { user_id: "nope" } }));
    expectNotFound(
      await call(invite.DELETE, "DELETE", "/team/invites/usrinv_01aaaaaaaaaaaaaaaaaaaaaaaa", {
        headers,
        params: { invite_id: "usrinv_01aaaaaaaaaaaaaaaaaaaaaaaa" },
      }),
    );
  });

  it("validates bodies: email, role, unknown fields, hostile input", async () => {
    const { headers } = await staffSession("owner");
    const post = (body: unknown) => call(invites.POST, "POST", "/team/invites", { headers, body });
    expectFieldError(await post({ email: "not-an-email", role: "viewer" }), "email");
    expectFieldError(await post({ email: `${"a".repeat(320)}@example.com`, role: "viewer" }), "email");
    expectFieldError(await post({ email: "a@example.com", role: "superuser" }), "role");
    expectFieldError(await post({ email: "a@example.com", role: "viewer", admin: true }), "admin");
    for (const hostile of [
      { email: ["a@example.com"], role: "viewer" },
      { email: "a\u0000@example.com", role: "viewer" },
      { email: "' OR 1=1 --@x.y", role: "owner'" },
    ]) {
      const res = await post(hostile);
      expect(res.status, JSON.stringify(hostile)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const other = await staffSession("viewer");
    expectFieldError(
      await call(member.PATCH, "PATCH", `/team/members/${other.userId}`, {
        headers,
        params: { user_id: other.userId },
        body: { role: "root" },
      }),
      "role",
    );
  });
});

describe("roles and removal", () => {
  it("a key with user.write grants, takes or removes no role beyond its own permissions (no way up to owner)", async () => {
    const owner = await staffSession("owner");
    const target = await staffSession("viewer");
    const narrow = await testKey(["user.write"]);
    const inviteAs = (key: string, role: string) =>
      call(invites.POST, "POST", "/team/invites", {
        key,
        body: { email: `k-${role}-${Date.now()}@example.com`, role },
      });
    const promote = (key: string, role: string) =>
      call(member.PATCH, "PATCH", `/team/members/${target.userId}`, {
        key,
        params: { user_id: target.userId },
        body: { role },
      });
    for (const role of ["owner", "admin", "viewer"]) {
      const refused = expectError(await inviteAs(narrow, role), 403, "forbidden");
      expect(refused.detail).toContain(role);
      expectError(await promote(narrow, role), 403, "forbidden");
    }
    const member_ = await call(member.GET, "GET", `/team/members/${target.userId}`, {
      headers: owner.headers,
      params: { user_id: target.userId },
    });
    expect(member_.body.data.role).toBe("viewer");
    // A key holding a developer's permissions (and user.write) may grant developer or viewer, nothing more.
    const developerLike = await testKey([...rolePermissions("developer"), "user.write"]);
    expect((await inviteAs(developerLike, "developer")).status).toBe(201);
    expect((await promote(developerLike, "developer")).status).toBe(200);
    expectError(await inviteAs(developerLike, "admin"), 403, "forbidden");
    expectError(await promote(developerLike, "owner"), 403, "forbidden");
    const full = await testKey(PERMISSIONS);
    expect((await promote(full, "owner")).status).toBe(200);
    // Nor does it demote or remove a member whose role is beyond it (the target is an owner now).
    const owners = () => query(`SELECT 1 FROM users WHERE id = $1 AND role = 'owner'`, [target.userId]);
    expectError(await promote(developerLike, "viewer"), 403, "forbidden");
    expectError(
      await call(member.DELETE, "DELETE", `/team/members/${target.userId}`, {
        key: developerLike,
        params: { user_id: target.userId },
      }),
      403,
      "forbidden",
    );
    expect(await owners()).toHaveLength(1);
  });
  it("never leaves the team without an owner, and nobody removes themselves", async () => {
    await query(`DELETE FROM users`);
    const owner = await staffSession("owner");
    const patch = (id: string, role: string) =>
      call(member.PATCH, "PATCH", `/team/members/${id}`, {
        headers: owner.headers,
        params: { user_id: id },
        body: { role },
      });
    const remove = (id: string) =>
      call(member.DELETE, "DELETE", `/team/members/${id}`, { headers: owner.headers, params: { user_id: id } });
    expectError(await patch(owner.userId, "admin"), 409, "conflict");
    expectError(await remove(owner.userId), 409, "conflict");
    const second = await staffSession("viewer");
    const promoted = await patch(second.userId, "owner");
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.role).toBe("owner");
    // Two owners now: either can be demoted, but not both.
    expect((await patch(second.userId, "admin")).status).toBe(200);
    expectError(await patch(owner.userId, "viewer"), 409, "conflict");
    expect((await remove(second.userId)).status).toBe(204);
    expectNotFound(
      await call(member.GET, "GET", `/team/members/${second.userId}`, {
        headers: owner.headers,
        params: { user_id: second.userId },
      }),
    );
    // The removed login's session is refused.
    expectError(await call(members.GET, "GET", "/team/members", { headers: second.headers }), 401, "invalid_token");
    const rows = await query<{ action: string }>(`SELECT action FROM audit_log WHERE actor_id = $1 ORDER BY id`, [
      owner.userId,
    ]);
    expect(rows.map((r) => r.action)).toEqual([
      `PATCH /api/team/members/${second.userId}`,
      `PATCH /api/team/members/${second.userId}`,
      `DELETE /api/team/members/${second.userId}`,
    ]);
  });
});

describe("invitations", () => {
  it("a link is shown once, works once, creates the login with the role, and is audited", async () => {
    const owner = await staffSession("owner");
    const created = await newInvite(owner.headers, "New.Person@Example.com", "admin");
    expect(created.email).toBe("new.person@example.com");
    expect(created.status).toBe("pending");
    expect(created.url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    const stored = await query<{ token_hash: string }>(`SELECT token_hash FROM user_invites WHERE id = $1`, [
      created.id,
    ]);
    expect(stored[0]!.token_hash).not.toContain(tokenOf(created.url));
    const listed = await call(invites.GET, "GET", "/team/invites", { headers: owner.headers });
    expect(listed.body.data[0].id).toBe(created.id);
    expect(listed.body.data[0].url).toBeUndefined();

    const token = tokenOf(created.url);
    expectFieldError(
      await call(accept.POST, "POST", "/team/invites/accept", { body: { token, password: "short" } }),
      "password",
    );
    const ok = await call(accept.POST, "POST", "/team/invites/accept", {
      body: { token, password: "a long password" },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data).toMatchObject({ email: "new.person@example.com", role: "admin" });
    expect(await verifyCredentials("new.person@example.com", "a long password", "198.51.100.1")).toBeTruthy();
    const again = await call(accept.POST, "POST", "/team/invites/accept", {
      body: { token, password: "another password" },
    });
    expect(expectNotFound(again).detail).toMatch(/already been used/);
    const audit = await query(
      `SELECT 1 FROM audit_log WHERE action = 'POST /api/team/invites/accept' AND actor_id = $1`,
      [ok.body.data.id],
    );
    expect(audit).toHaveLength(1);
    const audited = await query(`SELECT 1 FROM audit_log WHERE action = 'POST /api/team/invites' AND entity_id = $1`, [
      created.id,
    ]);
    expect(audited).toHaveLength(1);
    // Now a member: inviting the email again is a conflict.
    expectError(
      await call(invites.POST, "POST", "/team/invites", {
        headers: owner.headers,
        body: { email: "new.person@example.com", role: "viewer" },
      }),
      409,
      "conflict",
    );
  });

  it("an expired, replaced, revoked or made-up link is refused", async () => {
    const owner = await staffSession("owner");
    const expired = await newInvite(owner.headers, "late@example.com");
    await query(`UPDATE user_invites SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    const late = await call(accept.POST, "POST", "/team/invites/accept", {
      body: { token: tokenOf(expired.url), password: "a long password" },
    });
    expect(expectNotFound(late).detail).toMatch(/expired/);

    const first = await newInvite(owner.headers, "twice@example.com");
    await newInvite(owner.headers, "twice@example.com");
    expectNotFound(
      await call(accept.POST, "POST", "/team/invites/accept", {
        body: { token: tokenOf(first.url), password: "a long password" },
      }),
    );

    const revoked = await newInvite(owner.headers, "revoked@example.com");
    expect(
      (
        await call(invite.DELETE, "DELETE", `/team/invites/${revoked.id}`, {
          headers: owner.headers,
          params: { invite_id: revoked.id },
        })
      ).status,
    ).toBe(204);
    expectNotFound(
      await call(accept.POST, "POST", "/team/invites/accept", {
        body: { token: tokenOf(revoked.url), password: "a long password" },
      }),
    );

    expectNotFound(
      await call(accept.POST, "POST", "/team/invites/accept", {
        body: { token: "A".repeat(43), password: "a long password" },
      }),
    );
    expectFieldError(
      await call(accept.POST, "POST", "/team/invites/accept", {
        body: { token: "../../etc", password: "a long password" },
      }),
      "token",
    );
    expectFieldError(
      await call(accept.POST, "POST", "/team/invites/accept", {
        body: { token: "A".repeat(43), password: "x".repeat(201) },
      }),
      "password",
    );
  });
});
