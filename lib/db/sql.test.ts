/**
 * One-row reads (lib/db/sql.ts): queryOne says a row may be missing, queryExactlyOne that the SQL
 * guarantees one and that any other count is our bug.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { queryExactlyOne, queryOne } from "./sql.ts";

describe("queryOne", () => {
  it("is the first row, or undefined when the statement returns none", async () => {
    expect(await queryOne<{ n: number }>("SELECT 1 AS n")).toEqual({ n: 1 });
    expect(await queryOne<{ n: number }>("SELECT n FROM generate_series(1, 3) n ORDER BY n")).toEqual({ n: 1 });
    expect(await queryOne("SELECT 1 AS n WHERE $1", [false])).toBeUndefined();
  });
});

describe("queryExactlyOne", () => {
  it("is the statement's one row", async () => {
    expect(await queryExactlyOne<{ n: number }>("SELECT count(*)::int AS n FROM generate_series(1, 3)")).toEqual({
      n: 3,
    });
  });

  it("throws a plain Error (a 500 that shows no SQL) naming the statement by its first words", async () => {
    const none = await queryExactlyOne("SELECT 1 AS n WHERE $1", [false]).catch((error: unknown) => error);
    expect(none).toBeInstanceOf(Error);
    expect(none).not.toBeInstanceOf(ApiError);
    expect((none as Error).message).toBe("expected exactly one row, got 0: SELECT 1 AS n WHERE $1 …");
    await expect(
      queryExactlyOne("SELECT n FROM generate_series(1, 2) n -- a long statement is cut to its first words"),
    ).rejects.toThrow("expected exactly one row, got 2: SELECT n FROM generate_series(1, 2) n …");
  });
});
