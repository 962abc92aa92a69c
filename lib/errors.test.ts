/**
 * The one mapping of database errors (lib/errors.ts, fromDatabaseError): PostgreSQL's own errors,
 * provoked for real on the test database, and the network and pool errors of `pg`, as they are.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { query } from "./db/sql.ts";
import { ApiError, fromDatabaseError, isDatabaseUnavailable } from "./errors.ts";

/** The error a statement fails with. */
async function failure(text: string, values: unknown[] = []): Promise<unknown> {
  try {
    await query(text, values);
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${text} to fail`);
}

describe("fromDatabaseError: integrity errors", () => {
  it("a unique violation of a constraint a request sets: 409 conflict naming the field", async () => {
    await query("INSERT INTO users (id, email, role, password_hash) VALUES ('usr_a', 'a@example.com', 'viewer', 'x')");
    const error = await failure(
      "INSERT INTO users (id, email, role, password_hash) VALUES ('usr_b', 'a@example.com', 'viewer', 'x')",
    );
    expect((error as { code: string }).code).toBe("23505");
    const mapped = fromDatabaseError(error);
    expect(mapped).toBeInstanceOf(ApiError);
    expect(mapped?.status).toBe(409);
    expect(mapped?.code).toBe("conflict");
    expect(mapped?.errors).toEqual([{ field: "email", message: "is already in use by another entity" }]);
    // Never the SQL, the constraint or the value.
    expect(mapped?.detail).not.toMatch(/users_email_key|duplicate key|a@example\.com/);
  });

  it("a unique violation of any other constraint (a primary key): 409 conflict without a field", async () => {
    const error = await failure(
      "INSERT INTO users (id, email, role, password_hash) VALUES ('usr_a', 'other@example.com', 'viewer', 'x')",
    );
    const mapped = fromDatabaseError(error);
    expect(mapped).toMatchObject({ code: "conflict", status: 409, errors: undefined });
    expect(mapped?.detail).toBe("A unique value is already in use by another entity.");
  });

  it("a reference to a row that does not exist: 400 invalid_field on the referencing column", async () => {
    const error = await failure(
      `INSERT INTO simulations (id, notification_setting_id, name, type) VALUES ('ntfsim_x', $1, 'n', 'customer.created')`,
      ["ntfset_01aaaaaaaaaaaaaaaaaaaaaaaa"],
    );
    expect((error as { code: string }).code).toBe("23503");
    const mapped = fromDatabaseError(error);
    expect(mapped).toMatchObject({ code: "invalid_field", status: 400 });
    expect(mapped?.errors).toEqual([
      {
        field: "notification_setting_id",
        message: "no notification setting has the ID ntfset_01aaaaaaaaaaaaaaaaaaaaaaaa",
      },
    ]);
  });

  it("a delete of a row still referenced: 409 conflict naming it", async () => {
    await query("INSERT INTO customers (id, email) VALUES ('ctm_01aaaaaaaaaaaaaaaaaaaaaaaa', 'ref@example.com')");
    await query(
      "INSERT INTO addresses (id, customer_id, country_code) VALUES ('add_01aaaaaaaaaaaaaaaaaaaaaaaa', 'ctm_01aaaaaaaaaaaaaaaaaaaaaaaa', 'US')",
    );
    const error = await failure("DELETE FROM customers WHERE id = 'ctm_01aaaaaaaaaaaaaaaaaaaaaaaa'");
    expect((error as { code: string }).code).toBe("23503");
    const mapped = fromDatabaseError(error);
    expect(mapped).toMatchObject({ code: "conflict", status: 409 });
    expect(mapped?.detail).toBe(
      "customer ctm_01aaaaaaaaaaaaaaaaaaaaaaaa is still used by other entities, so it cannot be removed.",
    );
  });

  it("from the constraint's name when the detail says nothing (no SELECT right on the columns)", () => {
    const mapped = fromDatabaseError({
      code: "23503",
      constraint: "discounts_discount_group_id_fkey",
      table: "discounts",
      detail: undefined,
    });
    expect(mapped?.errors).toEqual([{ field: "discount_group_id", message: "names nothing that exists" }]);
  });

  it("anything else is not a database error to map: null (an unknown error stays a 500)", async () => {
    expect(fromDatabaseError(await failure("SELECT 1/0"))).toBeNull();
    expect(fromDatabaseError(new Error("boom"))).toBeNull();
    expect(fromDatabaseError(null)).toBeNull();
    expect(fromDatabaseError("23505")).toBeNull();
    expect(fromDatabaseError({ code: 23505 })).toBeNull();
  });
});

describe("fromDatabaseError: the database unavailable for the moment", () => {
  const unavailable = (error: unknown) => {
    const mapped = fromDatabaseError(error);
    expect(mapped, String((error as Error)?.message ?? error)).toBeInstanceOf(ApiError);
    expect(mapped?.code).toBe("service_unavailable");
    expect(mapped?.status).toBe(503);
    expect(mapped?.headers).toEqual({ "Retry-After": "5" });
    expect(mapped?.detail).toMatch(/nothing was changed/);
  };

  it("PostgreSQL's refusals: too many clients, starting up or shutting down, terminated by an administrator", () => {
    for (const code of ["53300", "57P01", "57P02", "57P03", "08006", "08001"]) {
      unavailable(Object.assign(new Error("server says no"), { code, severity: "FATAL" }));
    }
  });

  it("network errors reaching the server, pg's pool and connect timeouts, a connection cut", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]) {
      unavailable(Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code }));
    }
    unavailable(new Error("timeout exceeded when trying to connect"));
    unavailable(new Error("Connection terminated due to connection timeout", { cause: new Error("x") }));
    unavailable(new Error("Connection terminated unexpectedly"));
    // Node's AggregateError when every address of a host refused (localhost: ::1 and 127.0.0.1).
    unavailable(new AggregateError([Object.assign(new Error("refused"), { code: "ECONNREFUSED" })], "all failed"));
    unavailable(new Error("wrapped", { cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }) }));
  });

  it("a real refusal: a pool on a port nothing listens on, and a role whose connection limit is 0", async () => {
    const refused = new pg.Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/postgres", max: 1 });
    const error = await refused.query("SELECT 1").catch((e: unknown) => e);
    await refused.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
    unavailable(error);

    const role = `billing_limited_${process.pid}_${Date.now()}`;
    await query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 0`);
    try {
      const url = new URL(process.env.DATABASE_URL as string);
      url.username = role;
      const limited = new pg.Pool({ connectionString: url.toString(), max: 1 });
      const tooMany = await limited.query("SELECT 1").catch((e: unknown) => e);
      await limited.end();
      expect((tooMany as { code: string }).code).toBe("53300");
      unavailable(tooMany);
    } finally {
      await query(`DROP ROLE ${role}`);
    }
  });

  it("errors of the request or of our code are not unavailability", async () => {
    expect(isDatabaseUnavailable(await failure("SELECT 1/0"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Connection refused by the remote webhook"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
