import { describe, expect, it } from "vitest";
import {
  expandPermissions,
  isPermission,
  isRole,
  PERMISSIONS,
  ROLES,
  rolePermissions,
  ungrantablePermissions,
} from "./permissions.ts";

/** Every permission the spec names (Authentication, item 5, and the endpoints). */
const SPEC_PERMISSIONS = [
  "product.read",
  "product.write",
  "customer.read",
  "customer.write",
  "address.write",
  "discount.write",
  "subscription.read",
  "transaction.write",
  "metrics.read",
  "client_token.read",
  "notification.read",
  "notification_setting.read",
  "notification_simulation.read",
  "notification_simulation.write",
];

describe("PERMISSIONS", () => {
  it.each(SPEC_PERMISSIONS)("includes %s", (permission) => {
    expect(PERMISSIONS).toContain(permission);
    expect(isPermission(permission)).toBe(true);
  });

  it("includes the API key and customer-portal-session permissions", () => {
    expect(isPermission("api_key.read")).toBe(true);
    expect(isPermission("api_key.write")).toBe(true);
    expect(isPermission("customer_portal_session.write")).toBe(true);
  });

  it("has no duplicates and only <entity>.read / <entity>.write", () => {
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
    for (const p of PERMISSIONS) expect(p).toMatch(/^[a-z_]+\.(read|write)$/);
  });

  it("rejects unknown permissions", () => {
    expect(isPermission("customer.delete")).toBe(false);
    expect(isPermission("customers.read")).toBe(false);
    expect(isPermission("Customer.read")).toBe(false);
    expect(isPermission("")).toBe(false);
    expect(isPermission("*")).toBe(false);
  });
});

describe("expandPermissions", () => {
  it("adds read for every write", () => {
    const set = expandPermissions(["customer.write", "product.write"]);
    expect(set.has("customer.write")).toBe(true);
    expect(set.has("customer.read")).toBe(true);
    expect(set.has("product.read")).toBe(true);
  });

  it("does not add write for read, nor anything unrelated", () => {
    const set = expandPermissions(["customer.read"]);
    expect([...set]).toEqual(["customer.read"]);
    const set2 = expandPermissions(["customer.write"]);
    expect([...set2].sort()).toEqual(["customer.read", "customer.write"]);
    expect(set2.has("address.read")).toBe(false);
  });

  it("gives write-implies-read for every writable permission of the catalogue", () => {
    for (const p of PERMISSIONS.filter((x) => x.endsWith(".write"))) {
      expect(expandPermissions([p]).has(p.replace(/\.write$/, ".read"))).toBe(true);
    }
  });

  it("is empty for nothing", () => {
    expect(expandPermissions([]).size).toBe(0);
  });
});

describe("rolePermissions", () => {
  it("knows the roles", () => {
    for (const role of ROLES) expect(isRole(role)).toBe(true);
    expect(isRole("superuser")).toBe(false);
    expect(isRole("")).toBe(false);
  });

  it("gives the owner every permission", () => {
    const owner = rolePermissions("owner");
    for (const p of PERMISSIONS) expect(owner.has(p), p).toBe(true);
    for (const p of SPEC_PERMISSIONS) expect(owner.has(p), p).toBe(true);
  });

  it("gives an admin every permission but the team's", () => {
    const admin = rolePermissions("admin");
    for (const p of PERMISSIONS.filter((x) => !x.startsWith("user."))) expect(admin.has(p), p).toBe(true);
    expect(admin.has("audit_log.read")).toBe(true);
    expect(admin.has("user.read")).toBe(false);
    expect(admin.has("user.write")).toBe(false);
  });

  it("keeps the team to owners and the audit log to owners and admins", () => {
    expect(PERMISSIONS).toContain("audit_log.read");
    expect(PERMISSIONS).not.toContain("audit_log.write");
    expect(PERMISSIONS).toEqual(expect.arrayContaining(["user.read", "user.write"]));
    for (const role of ["developer", "viewer"] as const) {
      const set = rolePermissions(role);
      for (const p of ["audit_log.read", "user.read", "user.write"]) expect(set.has(p), `${role}: ${p}`).toBe(false);
    }
  });

  it("gives a viewer no write and no api_key.read, but every other read", () => {
    const viewer = rolePermissions("viewer");
    expect([...viewer].filter((p) => p.endsWith(".write"))).toEqual([]);
    expect(viewer.has("api_key.read")).toBe(false);
    expect(viewer.has("api_key.write")).toBe(false);
    for (const p of PERMISSIONS.filter((x) => x.endsWith(".read") && !/^(api_key|user|audit_log)\./.test(x))) {
      expect(viewer.has(p), p).toBe(true);
    }
    expect(viewer.has("customer.read")).toBe(true);
    expect(viewer.has("customer.write")).toBe(false);
  });

  it("gives a developer every read and the integration writes, but no business writes", () => {
    const dev = rolePermissions("developer");
    for (const p of PERMISSIONS.filter((x) => x.endsWith(".read") && !/^(user|audit_log)\./.test(x))) {
      expect(dev.has(p), p).toBe(true);
    }
    expect(dev.has("api_key.write")).toBe(true);
    expect(dev.has("notification_setting.write")).toBe(true);
    expect(dev.has("notification_simulation.write")).toBe(true);
    expect(dev.has("customer.write")).toBe(false);
    expect(dev.has("transaction.write")).toBe(false);
    expect(dev.has("product.write")).toBe(false);
  });

  it("holds write-implies-read for every role", () => {
    for (const role of ROLES) {
      const set = rolePermissions(role);
      for (const p of set) {
        if (p.endsWith(".write") && !p.startsWith("customer_portal_session.")) {
          expect(set.has(p.replace(/\.write$/, ".read")), `${role}: ${p}`).toBe(true);
        }
      }
    }
  });
});

describe("ungrantablePermissions", () => {
  it("is what is asked beyond what is held, sorted, each once; read comes with write", () => {
    const held = expandPermissions(["api_key.write", "customer.write"]);
    expect(ungrantablePermissions(held, ["customer.read", "customer.write", "api_key.read"])).toEqual([]);
    expect(
      ungrantablePermissions(held, ["transaction.write", "settings.write", "customer.read", "settings.write"]),
    ).toEqual(["settings.write", "transaction.write"]);
  });

  it("leaves a developer no way to customer.write, an owner everything", () => {
    expect(ungrantablePermissions(rolePermissions("developer"), PERMISSIONS)).toContain("customer.write");
    expect(ungrantablePermissions(rolePermissions("developer"), PERMISSIONS)).not.toContain("api_key.write");
    expect(ungrantablePermissions(rolePermissions("owner"), PERMISSIONS)).toEqual([]);
  });
});
