/**
 * Text and JSON as PostgreSQL can store them, for values that no request validated: payment
 * records, card names, webhook and simulation responses from arbitrary remote servers, error
 * messages, anything built in code. PostgreSQL refuses U+0000 in text, json and jsonb, and jsonb
 * refuses the escape of an unpaired UTF-16 surrogate (`"\udc00"`); a json column accepts that
 * escape, but every later read of the value as jsonb (the event fan-out, `->>`) then fails, so one
 * such value would block every later write and event of its row.
 *
 * Requests never get this far with such text: the route wrapper refuses it with a field error
 * (lib/http/input-guard.ts). What reaches the database from elsewhere is cleaned here, in the one
 * place every value passes (lib/db/sql.ts `query` and `Params`): unpaired surrogates become U+FFFD
 * (what PostgreSQL's own UTF-8 encoding would make of them in text) and NUL is dropped.
 */
import { isWellFormed, toWellFormed } from "../unicode.ts";

/** `text` without NUL and with every unpaired surrogate replaced by U+FFFD. */
export function storableText(text: string): string {
  if (isWellFormed(text) && !text.includes("\u0000")) return text;
  return toWellFormed(text).replaceAll("\u0000", "");
}

/**
 * JSON.stringify writes an unpaired surrogate as its escape (`\udc00`, lowercase) and NUL as
 * `\u0000`, while a paired surrogate stays the character itself: so these escapes, and only they,
 * are what PostgreSQL would refuse. An escaped backslash (`\\`) is matched as a whole, so that the
 * text `\udc00` typed by someone (`"\\udc00"` in JSON) is left alone.
 */
const REFUSED_ESCAPE = /\\\\|\\u(?:d[89a-f][0-9a-f]{2}|0000)/g;

/** The JSON text of `value` for a json or jsonb column. */
export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError("storableJson: the value has no JSON representation");
  if (!text.includes("\\u")) return text;
  return text.replace(REFUSED_ESCAPE, (match) => (match === "\\\\" ? match : match === "\\u0000" ? "" : "\\ufffd"));
}

/** A query parameter with its text made storable (strings, and the strings of arrays). */
export function storableParam(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) {
    // Copied only when an element changes: most arrays are IDs.
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const clean = storableParam(value[i]);
      if (clean !== value[i]) {
        out ??= [...value];
        out[i] = clean;
      }
    }
    return out ?? value;
  }
  return value;
}
