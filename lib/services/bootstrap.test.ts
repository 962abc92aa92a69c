/** First start, deployment settings and staff logins, on the SQL data path, against a real database. */
import { describe, expect, it } from "vitest";
import { parseApiKey } from "../auth/api-key-format.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { PERMISSIONS } from "../auth/permissions.ts";
import { query } from "../db/sql.ts";
import { bootstrapIfEmpty } from "./bootstrap.ts";
import { getOrCreateSetting } from "./settings.ts";
import { createUser, findUserByEmail, userRole } from "./users.ts";

describe("bootstrapIfEmpty", () => {
  it("makes one owner and one all-permission key, once, however many processes start at once", async () => {
    process.env.BILLING_OWNER_EMAIL = "Boss@Example.com";
    const starts = await Promise.all(Array.from({ length: 5 }, () => bootstrapIfEmpty()));
    const made = starts.filter((s) => s !== null);
    expect(made).toHaveLength(1);
    const first = made[0]!;
    expect(first.email).toBe("boss@example.com");
    expect(parseApiKey(first.apiKey)?.environment).toBe("sandbox");
    const owner = await findUserByEmail("boss@example.com");
    expect(owner).toMatchObject({ email: "boss@example.com", name: "Owner", role: "owner" });
    expect(await verifyPassword(first.password, owner!.passwordHash)).toBe(true);
    const keys = await query<{ permissions: string[] }>("SELECT permissions FROM api_keys");
    expect(keys).toEqual([{ permissions: [...PERMISSIONS] }]);
    const events = await query<{ event_type: string }>("SELECT event_type FROM events");
    expect(events).toEqual([{ event_type: "api_key.created" }]);
    expect(await bootstrapIfEmpty()).toBeNull();
    delete process.env.BILLING_OWNER_EMAIL;
  });
});

describe("getOrCreateSetting", () => {
  it("keeps the first value written, also under concurrent first reads", async () => {
    let n = 0;
    const values = await Promise.all(Array.from({ length: 8 }, () => getOrCreateSetting("probe", () => `v${n++}`)));
    expect(new Set(values).size).toBe(1);
    expect(await getOrCreateSetting("probe", () => "later")).toBe(values[0]);
  });
});

describe("createUser", () => {
  it("stores a lower-case email and a password hash; refuses a second login for the email", async () => {
    const user = await createUser({ email: " Ann@Example.com ", password: "correct horse battery", role: "viewer" });
    expect(user).toMatchObject({ email: "ann@example.com", name: null, role: "viewer" });
    expect(await userRole(user.id)).toBe("viewer");
    expect(await userRole("usr_unknown")).toBeNull();
    await expect(createUser({ email: "ANN@example.com", password: "another long one", role: "admin" })).rejects.toThrow(
      "a login for ann@example.com already exists",
    );
    const racing = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        createUser({ email: "race@example.com", password: "long enough pw", role: "admin" }),
      ),
    );
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of racing) if (r.status === "rejected") expect(String(r.reason)).toContain("already exists");
  });

  it("refuses a bad email, a short password or an unknown role", async () => {
    await expect(createUser({ email: "nope", password: "long enough pw", role: "admin" })).rejects.toThrow(
      "is not an email address",
    );
    await expect(createUser({ email: "x@example.com", password: "short", role: "admin" })).rejects.toThrow(
      "the password must be at least",
    );
    await expect(createUser({ email: "x@example.com", password: "long enough pw", role: "root" })).rejects.toThrow(
      "role must be one of",
    );
  });
});
