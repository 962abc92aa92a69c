/**
 * The one walk over parsed input — a JSON body, a query string's parameters — that refuses what
 * no schema should have to think about, naming the field (invalid_field):
 *
 * - U+0000, which PostgreSQL text and json cannot store;
 * - unpaired UTF-16 surrogates (JSON can carry `"\udc00"`): PostgreSQL's jsonb refuses them, text
 *   columns silently turn them into U+FFFD, and a stored json value holding one breaks every later
 *   read of it as jsonb (the event fan-out);
 * - nesting deeper than MAX_JSON_DEPTH levels, which would overflow the stack of the recursive code
 *   that handles the value later (JSON.stringify, zod, PostgreSQL's own parser limits).
 *
 * Object keys are checked like values. The walk is iterative, so that no input overflows it, and
 * it is one pass over the value whatever it finds.
 */

import { fieldPath, invalidField } from "../errors.ts";
import { isWellFormed } from "../unicode.ts";

/**
 * Levels of objects and arrays a request body may nest, the body itself being the first: real
 * payloads (custom_data, simulation payloads) need a handful; a 30 KB body can otherwise nest
 * 5,000 levels deep.
 */
export const MAX_JSON_DEPTH = 32;

export const NUL_MESSAGE = "must not contain the NUL character (U+0000)";
export const SURROGATE_MESSAGE = "must not contain unpaired UTF-16 surrogates (U+D800 to U+DFFF without their pair)";
export const DEPTH_MESSAGE = `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`;

/** What is wrong with a string (a value or a key), or null. */
function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  if (!isWellFormed(text)) return SURROGATE_MESSAGE;
  return null;
}

/**
 * Throws invalid_field for the first string or key (in document order) holding NUL or an unpaired
 * surrogate, or for the top-level field whose value nests too deep; returns when `value` is clean.
 * Clean input (nearly all of it) costs one pass that builds no paths; only a refused value is
 * walked again, by `report`, to name its field.
 */
export function guardInput(value: unknown): void {
  // Two parallel stacks rather than one of tuples: nothing is allocated per value.
  const items: unknown[] = [value];
  const depths: number[] = [0];
  while (items.length > 0) {
    const item = items.pop();
    const depth = depths.pop() as number;
    if (typeof item === "string") {
      if (textProblem(item)) report(value);
    } else if (typeof item === "object" && item !== null) {
      if (depth >= MAX_JSON_DEPTH) report(value);
      if (Array.isArray(item)) {
        for (let i = item.length - 1; i >= 0; i--) {
          items.push(item[i]);
          depths.push(depth + 1);
        }
      } else {
        for (const key in item) {
          if (textProblem(key)) report(value);
          items.push((item as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
      }
    }
  }
}

// Each entry links to its parent's: a path is built only for the value refused.
type At = { key: PropertyKey; parent: At | null } | null;

function pathOf(at: At): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let node = at; node; node = node.parent) path.unshift(node.key);
  return path;
}

/** The walk again, in document order, keeping paths: throws for the first problem. */
function report(value: unknown): never {
  const stack: [unknown, At, number][] = [[value, null, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, at, depth] = next;
    if (typeof item === "string") {
      const problem = textProblem(item);
      if (problem) throw invalidField(fieldPath(pathOf(at)), problem);
    } else if (typeof item === "object" && item !== null) {
      if (depth >= MAX_JSON_DEPTH) {
        // The top-level field the client sent: the full path of a too-deep value is as long as
        // the nesting, which is the problem.
        throw invalidField(fieldPath(pathOf(at).slice(0, 1)), DEPTH_MESSAGE);
      }
      const entries: [PropertyKey, unknown][] = Array.isArray(item) ? [...item.entries()] : Object.entries(item);
      // Keys are checked as their object is reached, before any of its values.
      for (const [key] of entries) {
        const problem = typeof key === "string" ? textProblem(key) : null;
        if (problem) throw invalidField(fieldPath(pathOf({ key, parent: at })), problem);
      }
      // Pushed last to first, so the first is checked first.
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i];
        if (entry) stack.push([entry[1], { key: entry[0], parent: at }, depth + 1]);
      }
    }
  }
  throw new Error("guardInput: a problem was found that the report walk did not find");
}
