/** The walk over parsed input (lib/http/input-guard.ts): NUL, unpaired surrogates, nesting depth. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { DEPTH_MESSAGE, guardInput, MAX_JSON_DEPTH, NUL_MESSAGE, SURROGATE_MESSAGE } from "./input-guard.ts";

function problem(value: unknown): { field: string; message: string } | null {
  try {
    guardInput(value);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e.code).toBe("invalid_field");
    expect(e.errors).toHaveLength(1);
    return e.errors![0]!;
  }
}

/** `levels` objects nested in one another: `{"a":{"a":…{}}}`. */
function nested(levels: number): unknown {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

describe("guardInput", () => {
  it("accepts clean input of every JSON type, paired surrogates (emoji) included", () => {
    expect(problem({ a: "plain", b: 1, c: null, d: true, e: ["😀", { f: "\ud83d\ude00" }], "😀": "x" })).toBeNull();
    expect(problem(undefined)).toBeNull();
    expect(problem({})).toBeNull();
  });

  it.each([
    ["a lone low surrogate", "\udc00"],
    ["a lone high surrogate", "\ud800"],
    ["a high surrogate at the end", "abc\udbff"],
    ["a low surrogate before its high one", "\udc00\ud800"],
  ])("refuses %s, naming the field", (_, text) => {
    expect(problem({ custom_data: { note: text } })).toEqual({ field: "custom_data.note", message: SURROGATE_MESSAGE });
    expect(problem({ items: [{ ok: "x" }, { name: `x${text}` }] })).toEqual({
      field: "items[1].name",
      message: SURROGATE_MESSAGE,
    });
  });

  it("refuses NUL and unpaired surrogates in keys, naming the key", () => {
    expect(problem({ custom_data: { "k\udc00": 1 } })).toEqual({
      field: "custom_data.k\udc00",
      message: SURROGATE_MESSAGE,
    });
    expect(problem({ "a\u0000b": 1 })).toEqual({ field: "a\u0000b", message: NUL_MESSAGE });
  });

  it("refuses NUL anywhere", () => {
    expect(problem({ name: "a\u0000b" })).toEqual({ field: "name", message: NUL_MESSAGE });
    expect(problem({ after: "\u0000" })).toEqual({ field: "after", message: NUL_MESSAGE });
  });

  it("reports the first problem in document order", () => {
    expect(problem({ a: "ok", b: ["\udc00"], c: "\u0000" })?.field).toBe("b[0]");
    expect(problem({ a: { "\u0000": 1, x: "\udc00" } })?.field).toBe("a.\u0000");
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more, naming the top-level field`, () => {
    expect(problem({ custom_data: nested(MAX_JSON_DEPTH - 1) })).toBeNull();
    expect(problem({ custom_data: nested(MAX_JSON_DEPTH) })).toEqual({
      field: "custom_data",
      message: DEPTH_MESSAGE,
    });
    let array: unknown = [];
    for (let i = 0; i < MAX_JSON_DEPTH; i++) array = [array];
    expect(problem({ payload: array })?.field).toBe("payload");
  });

  it("walks 100,000 levels without overflowing the stack (the depth stops it at once)", () => {
    expect(problem({ deep: nested(100_000) })?.message).toBe(DEPTH_MESSAGE);
  });

  it("walks a wide body quickly", () => {
    const wide = { items: Array.from({ length: 50_000 }, (_, i) => ({ id: `x${i}`, tags: ["a", "b"] })) };
    const started = performance.now();
    expect(problem(wide)).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
