/**
 * PostgreSQL's unique (23505) and foreign-key (23503) violations through real routes, mapped once
 * for every route by lib/errors.ts (fromDatabaseError) where lib/http renders errors: never a 500.
 *
 * The violations are the races a check before the write cannot close (a row deleted or created by
 * another request between the check and the write). To provoke them on purpose, each test adds to
 * its own test database what the race would do: a trigger that deletes or inserts the row at the
 * moment of the write, a unique index or a referencing table that the schema does not have.
 */
import { afterEach, describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError } from "@/lib/dev/test/api";
import { admin, resource } from "@/lib/dev/test/resource";
import { createDestination } from "@/lib/dev/test/simulation";
import { staffSession } from "@/lib/dev/test/staff";
import * as settingItem from "./notification-settings/[notification_setting_id]/route";
import * as settings from "./notification-settings/route";
import * as productItem from "./products/[product_id]/route";
import * as products from "./products/route";
import * as simulationItem from "./simulations/[simulation_id]/route";
import * as simulations from "./simulations/route";
import * as accept from "./team/invites/accept/route";
import * as invites from "./team/invites/route";

const cleanups: string[] = [];
afterEach(async () => {
  for (const statement of cleanups.splice(0).reverse()) await query(statement);
});

/** Runs `statements` now and `undo` after the test. */
async function arrange(statements: string[], undo: string[]): Promise<void> {
  for (const statement of statements) await query(statement);
  cleanups.push(...undo);
}

describe("23503 foreign_key_violation", () => {
  const sims = resource("/simulations", "simulation_id", simulations, simulationItem);

  it("POST /simulations whose destination is deleted meanwhile: 400 invalid_field on notification_setting_id", async () => {
    const destination = await createDestination();
    await arrange(
      [
        `CREATE FUNCTION test_delete_destination() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN DELETE FROM notification_settings WHERE id = NEW.notification_setting_id; RETURN NEW; END $$`,
        `CREATE TRIGGER test_delete_destination BEFORE INSERT ON simulations
         FOR EACH ROW EXECUTE FUNCTION test_delete_destination()`,
      ],
      ["DROP FUNCTION test_delete_destination() CASCADE"],
    );
    const res = await sims.create({
      notification_setting_id: destination.id,
      name: "Raced",
      type: "customer.created",
    });
    const error = expectFieldError(res, "notification_setting_id");
    expect(error.errors).toEqual([
      { field: "notification_setting_id", message: `no notification setting has the ID ${destination.id}` },
    ]);
    expect((await query("SELECT 1 FROM simulations")).length).toBe(0);
  });

  it("PATCH /simulations/{id} to a destination deleted meanwhile: the same 400, nothing changed", async () => {
    const first = await createDestination();
    const created = await sims.create({ notification_setting_id: first.id, name: "Mine", type: "customer.created" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const second = await createDestination();
    await arrange(
      [
        `CREATE FUNCTION test_delete_new_destination() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN DELETE FROM notification_settings WHERE id = NEW.notification_setting_id
                 AND NEW.notification_setting_id IS DISTINCT FROM OLD.notification_setting_id;
               RETURN NEW; END $$`,
        `CREATE TRIGGER test_delete_new_destination BEFORE UPDATE ON simulations
         FOR EACH ROW EXECUTE FUNCTION test_delete_new_destination()`,
      ],
      ["DROP FUNCTION test_delete_new_destination() CASCADE"],
    );
    const res = await sims.update(created.body.data.id, { notification_setting_id: second.id, name: "Moved" });
    expect(expectFieldError(res, "notification_setting_id").errors?.[0]?.message).toBe(
      `no notification setting has the ID ${second.id}`,
    );
    const [row] = await query<{ notification_setting_id: string; name: string }>(
      "SELECT notification_setting_id, name FROM simulations WHERE id = $1",
      [created.body.data.id],
    );
    expect(row).toEqual({ notification_setting_id: first.id, name: "Mine" });
  });

  it("DELETE of a row something still references: 409 conflict naming it", async () => {
    const destination = await createDestination();
    await arrange(
      [
        "CREATE TABLE test_references (setting_id text REFERENCES notification_settings (id))",
        `INSERT INTO test_references VALUES ('${destination.id}')`,
      ],
      ["DROP TABLE test_references"],
    );
    const res = await call(settingItem.DELETE, "DELETE", `/notification-settings/${destination.id}`, {
      key: await admin(),
      params: { notification_setting_id: destination.id },
    });
    const error = expectError(res, 409, "conflict");
    expect(error.detail).toBe(
      `notification setting ${destination.id} is still used by other entities, so it cannot be removed.`,
    );
    // The list still has it.
    const listed = await call(settings.GET, "GET", "/notification-settings", {
      key: await admin(),
    });
    expect(listed.body.data.map((s: { id: string }) => s.id)).toContain(destination.id);
  });
});

describe("23505 unique_violation", () => {
  it("of a constraint guarding a field (users' email): 409 conflict naming the field", async () => {
    const owner = await staffSession("owner");
    const invited = await call(invites.POST, "POST", "/team/invites", {
      headers: owner.headers,
      body: { email: "raced@example.com", role: "viewer" },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    // Another process creates the same login between the accept's check and its insert.
    await arrange(
      [
        `CREATE FUNCTION test_same_email_first() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF pg_trigger_depth() = 1 THEN
             INSERT INTO users (id, email, role, password_hash) VALUES ('usr_raced', NEW.email, 'viewer', 'x');
           END IF;
           RETURN NEW;
         END $$`,
        `CREATE TRIGGER test_same_email_first BEFORE INSERT ON users
         FOR EACH ROW EXECUTE FUNCTION test_same_email_first()`,
      ],
      ["DROP FUNCTION test_same_email_first() CASCADE"],
    );
    const res = await call(accept.POST, "POST", "/team/invites/accept", {
      body: { token: invited.body.data.url.split("/invite/")[1], password: "a long password" },
    });
    const error = expectError(res, 409, "conflict");
    expect(error.errors).toEqual([{ field: "email", message: "is already in use by another entity" }]);
    // Rolled back whole: the invitation is still unused, and only the racing login exists.
    const [invite] = await query<{ accepted_at: Date | null }>("SELECT accepted_at FROM user_invites WHERE id = $1", [
      invited.body.data.id,
    ]);
    expect(invite!.accepted_at).toBeNull();
  });

  it("of any other unique constraint: 409 conflict, for a create and an update", async () => {
    const api = resource("/products", "product_id", products, productItem);
    await arrange(
      ["CREATE UNIQUE INDEX test_products_name_key ON products (name)"],
      ["DROP INDEX test_products_name_key"],
    );
    const first = await api.create({ name: "Only one", tax_category: "standard" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const twice = await api.create({ name: "Only one", tax_category: "standard" });
    expect(expectError(twice, 409, "conflict").detail).toBe("A unique value is already in use by another entity.");
    const other = await api.create({ name: "Another", tax_category: "standard" });
    const renamed = await api.update(other.body.data.id, { name: "Only one" });
    expectError(renamed, 409, "conflict");
    expect((await query("SELECT 1 FROM products WHERE name = 'Only one'")).length).toBe(1);
  });
});
