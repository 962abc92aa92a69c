/**
 * Stripe's request encoding, read back: `application/x-www-form-urlencoded` bodies (and GET query
 * strings) whose keys use bracket notation for nesting: `metadata[order]=7`, `expand[]=customer`,
 * `expand[0]=customer`, `payment_method_data[card][number]=4242…`. This is what the `stripe`
 * package writes (indexed arrays, brackets left unencoded) and what Stripe.js writes (`[]` arrays).
 *
 * Every leaf is a string, as on the wire: the endpoints' parameter readers (params.ts) turn them into
 * integers and booleans and refuse what does not parse, the way Stripe does.
 */

export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

export class FormError extends Error {}

/** `a[b][0]` → ["a", "b", "0"]; `a[]` → ["a", ""]. */
function keyPath(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  const rest = key.slice(open);
  const pattern = /\[([^[\]]*)\]/g;
  let consumed = 0;
  for (let match = pattern.exec(rest); match; match = pattern.exec(rest)) {
    if (match.index !== consumed) throw new FormError(`Invalid parameter name: ${key}`);
    parts.push(match[1]!);
    consumed = match.index + match[0].length;
  }
  if (consumed !== rest.length) throw new FormError(`Invalid parameter name: ${key}`);
  return parts;
}

const MAX_DEPTH = 8;
const MAX_PAIRS = 2_000;

/**
 * Parses form-encoded text into nested objects. Indexed arrays (`a[0]`, `a[1]`) and pushed arrays
 * (`a[]`) both become arrays; an index must continue the array (0, 1, 2 … as the package sends them).
 */
export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  if (text === "") return root;
  const pairs = text.split("&");
  if (pairs.length > MAX_PAIRS) throw new FormError("Too many parameters.");
  for (const pair of pairs) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? "" : pair.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, " "));
      value = decodeURIComponent(rawValue.replace(/\+/g, " "));
    } catch {
      throw new FormError("The request body is not valid form encoding.");
    }
    const path = keyPath(key);
    if (path.length > MAX_DEPTH) throw new FormError(`Parameter nested too deeply: ${key}`);
    assign(root, path, value, key);
  }
  return root;
}

function assign(target: FormObject | FormValue[], path: string[], value: string, key: string): void {
  const [head, ...rest] = path;
  if (Array.isArray(target)) {
    const index = head === "" ? target.length : /^\d+$/.test(head!) ? Number(head) : Number.NaN;
    if (Number.isNaN(index) || index > target.length) throw new FormError(`Invalid array index in ${key}`);
    if (rest.length === 0) {
      if (index < target.length) throw new FormError(`Parameter given twice: ${key}`);
      target.push(value);
      return;
    }
    let child = target[index];
    if (child === undefined) {
      child = rest[0] === "" || /^\d+$/.test(rest[0]!) ? [] : {};
      target.push(child);
    }
    if (typeof child === "string") throw new FormError(`Parameter has two shapes: ${key}`);
    assign(child, rest, value, key);
    return;
  }
  if (head === "" || head === "__proto__" || head === "constructor" || head === "prototype") {
    throw new FormError(`Invalid parameter name: ${key}`);
  }
  if (rest.length === 0) {
    if (Object.hasOwn(target, head!)) throw new FormError(`Parameter given twice: ${key}`);
    target[head!] = value;
    return;
  }
  let child = Object.hasOwn(target, head!) ? target[head!] : undefined;
  if (child === undefined) {
    child = rest[0] === "" || /^\d+$/.test(rest[0]!) ? [] : {};
    target[head!] = child;
  }
  if (typeof child === "string") {
    // `metadata=` (empty: "unset all") followed by `metadata[k]=v` is not a shape Stripe accepts either.
    throw new FormError(`Parameter has two shapes: ${key}`);
  }
  assign(child, rest, value, key);
}

/** The inverse, for the stand-in's own clients (Stripe.js, tests): indexed arrays, like the package. */
export function encodeForm(data: Record<string, unknown>): string {
  const pairs: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (value === null) {
      pairs.push(`${encodeURIComponent(key)}=`);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        add(`${key}[${i}]`, item);
      });
    } else if (typeof value === "object") {
      for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    } else {
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  };
  for (const [key, value] of Object.entries(data)) add(key, value);
  return pairs.join("&");
}
