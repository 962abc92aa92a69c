/**
 * Text and JSON that no request validated reach PostgreSQL storable (lib/db/storable.ts): unpaired
 * surrogates become U+FFFD, NUL is dropped, and a stored json value can always be read as jsonb.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonb, Params, query } from "./sql.ts";
import { storableJson, storableText } from "./storable.ts";

describe("storableText", () => {
  it("leaves clean text (emoji included) as it is, the same string", () => {
    const text = "Zoë 😀 \\udc00";
    expect(storableText(text)).toBe(text);
  });

  it("replaces unpaired surrogates with U+FFFD and drops NUL", () => {
    expect(storableText("a\udc00b\ud800")).toBe("a\ufffdb\ufffd");
    expect(storableText("a\u0000b")).toBe("ab");
    expect(storableText("😀".slice(0, 1))).toBe("\ufffd");
  });
});

describe("storableJson", () => {
  it("is JSON.stringify for clean values", () => {
    const value = { a: "x", b: [1, null, true], "😀": "😀", c: "tab\t", d: "\u0001" };
    expect(storableJson(value)).toBe(JSON.stringify(value));
  });

  it("replaces unpaired surrogates in values and keys with U+FFFD and drops NUL", () => {
    expect(JSON.parse(storableJson({ "k\udc00": "v\ud800", n: "a\u0000b" }))).toEqual({
      "k\ufffd": "v\ufffd",
      n: "ab",
    });
  });

  it("leaves typed text that looks like an escape alone", () => {
    const value = { a: "\\udc00", b: "\\u0000", c: "\\\\ud800", d: "\\\udc00" };
    expect(JSON.parse(storableJson(value))).toEqual({ a: "\\udc00", b: "\\u0000", c: "\\\\ud800", d: "\\\ufffd" });
  });
});

describe("in PostgreSQL", () => {
  it("a json value with hostile text is stored and reads back as jsonb", async () => {
    const hostile = { name: "\udc00", "\ud800": ["a\u0000b"], ok: "😀" };
    const [row] = await query<{ j: unknown; b: unknown }>("SELECT $1::json AS j, $1::json::jsonb AS b", [
      storableJson(hostile),
    ]);
    const clean = { name: "\ufffd", "\ufffd": ["ab"], ok: "😀" };
    expect(row!.j).toEqual(clean);
    expect(row!.b).toEqual(clean);
    const params = new Params();
    const [viaParams] = await query<{ b: unknown }>(`SELECT ${params.add(jsonb(hostile))} AS b`, params.values);
    expect(viaParams!.b).toEqual(clean);
  });

  it("text parameters with NUL or unpaired surrogates (a remote server's answer) are stored cleaned", async () => {
    const [row] = await query<{ t: string; a: string[] }>("SELECT $1::text AS t, $2::text[] AS a", [
      "a\u0000b\udc00",
      ["ok", "x\u0000", "\ud800"],
    ]);
    expect(row!.t).toBe("ab\ufffd");
    expect(row!.a).toEqual(["ok", "x", "\ufffd"]);
  });
});

describe("the code", () => {
  /** Server code that writes to the database: every JSON text it makes must be storableJson's. */
  const ROOTS = ["lib/services", "lib/events", "lib/db", "lib/billing", "lib/documents", "lib/auth", "lib/cli"];
  /** JSON.stringify that never reaches the database, each with its reason. */
  const ALLOWED = new Set([
    "lib/db/storable.ts", // storableJson itself
    "lib/db/sql.ts", // a cache key of list totals (listJson), kept in memory
    "lib/cli/complete-lock.ts", // writes package-lock.json, not the database
    "lib/services/portal/tokens.ts", // the claims of a signed portal token, never stored
    "lib/services/portal/management-urls.ts", // an API answer with portal links added, never stored
  ]);

  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return files(full);
      return full.endsWith(".ts") && !full.endsWith(".test.ts") ? [full] : [];
    });
  }

  it("makes JSON for the database only with storableJson (Jsonb, or the text of a ::json parameter)", () => {
    const offenders = ROOTS.flatMap(files).filter(
      (file) => !ALLOWED.has(file) && readFileSync(file, "utf8").includes("JSON.stringify("),
    );
    expect(offenders).toEqual([]);
  });
});
