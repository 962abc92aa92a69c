/**
 * Reading one endpoint's parameters the way Stripe does: each endpoint reads the parameters it
 * knows, typed (integers, booleans, enums, metadata), and `done()` refuses whatever is left with
 * `parameter_unknown`, so a request the real API would refuse is refused here too (a misspelt
 * parameter in the product fails its tests instead of being silently ignored).
 */
import { invalidRequest, missingParameter, unknownParameter } from "./errors.ts";
import type { FormObject, FormValue } from "./form.ts";

export class Params {
  private readonly read = new Set<string>();

  /** Called when `done()` accepts the request: the endpoint starts executing (idempotency stores from here). */
  onDone: (() => void) | undefined;

  constructor(
    readonly raw: FormObject,
    private readonly prefix = "",
  ) {}

  private name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.raw, key);
  }

  private take(key: string): FormValue | undefined {
    this.read.add(key);
    return Object.hasOwn(this.raw, key) ? this.raw[key] : undefined;
  }

  private text(key: string, value: FormValue): string {
    if (typeof value !== "string") {
      throw invalidRequest(`Invalid value for ${this.name(key)}: expected a string.`, {
        code: "parameter_invalid_string",
        param: this.name(key),
      });
    }
    return value;
  }

  string(key: string): string | undefined;
  string(key: string, options: { required: true; max?: number }): string;
  string(key: string, options: { required?: boolean; max?: number }): string | undefined;
  string(key: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.take(key);
    if (value === undefined || value === "") {
      if (options.required) throw missingParameter(this.name(key));
      return undefined;
    }
    const text = this.text(key, value);
    if (text.length > (options.max ?? 5000)) {
      throw invalidRequest(
        `Invalid string: ${text.slice(0, 20)}...; must be at most ${options.max ?? 5000} characters`,
        { code: "parameter_invalid_string_too_long", param: this.name(key) },
      );
    }
    return text;
  }

  /** A string that may be sent empty to clear it (null). */
  nullableString(key: string, options: { max?: number } = {}): string | null | undefined {
    if (this.has(key) && this.raw[key] === "") {
      this.read.add(key);
      return null;
    }
    return this.string(key, options);
  }

  enumeration<T extends string>(key: string, values: readonly T[], options: { required?: boolean } = {}) {
    const value = this.string(key, options);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      throw invalidRequest(`Invalid ${this.name(key)}: must be one of ${values.join(", ")}`, { param: this.name(key) });
    }
    return value as T;
  }

  integer(key: string): number | undefined;
  integer(key: string, options: { required: true; min?: number; max?: number }): number;
  integer(key: string, options: { required?: boolean; min?: number; max?: number }): number | undefined;
  integer(key: string, options: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const value = this.take(key);
    if (value === undefined || value === "") {
      if (options.required) throw missingParameter(this.name(key));
      return undefined;
    }
    const text = this.text(key, value);
    if (!/^-?\d{1,15}$/.test(text)) {
      throw invalidRequest(`Invalid integer: ${text}`, { code: "parameter_invalid_integer", param: this.name(key) });
    }
    const number = Number(text);
    if (options.min !== undefined && number < options.min) {
      throw invalidRequest(`This value must be greater than or equal to ${options.min}.`, {
        code: "parameter_invalid_integer",
        param: this.name(key),
      });
    }
    if (options.max !== undefined && number > options.max) {
      throw invalidRequest(`This value must be less than or equal to ${options.max}.`, {
        code: "parameter_invalid_integer",
        param: this.name(key),
      });
    }
    return number;
  }

  boolean(key: string): boolean | undefined {
    const value = this.take(key);
    if (value === undefined || value === "") return undefined;
    const text = this.text(key, value);
    if (text !== "true" && text !== "false") {
      throw invalidRequest(`Invalid boolean: ${text}`, { code: "parameter_invalid_boolean", param: this.name(key) });
    }
    return text === "true";
  }

  /** A nested object's parameters (undefined when absent). */
  object(key: string): Params | undefined {
    const value = this.take(key);
    if (value === undefined || value === "") return undefined;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw invalidRequest(`Invalid object`, { code: "parameter_invalid_object", param: this.name(key) });
    }
    return new Params(value, this.name(key));
  }

  /** An array of strings (`expand[]`, `payment_method_types[]`). */
  strings(key: string): string[] | undefined {
    const value = this.take(key);
    if (value === undefined || value === "") return undefined;
    const list = Array.isArray(value) ? value : typeof value === "object" ? Object.values(value) : [value];
    return list.map((item, i) => {
      if (typeof item !== "string") {
        throw invalidRequest(`Invalid array`, { param: `${this.name(key)}[${i}]` });
      }
      return item;
    });
  }

  /**
   * `metadata`: up to 50 string keys (≤ 40 characters) with string values (≤ 500). On update, an
   * empty value removes a key and `metadata=` removes all (returned as null: "clear").
   */
  metadata(): Record<string, string> | null | undefined {
    const value = this.take("metadata");
    if (value === undefined) return undefined;
    if (value === "") return null;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw invalidRequest("Invalid metadata: must be an object", { param: this.name("metadata") });
    }
    const entries = Object.entries(value);
    if (entries.length > 50) {
      throw invalidRequest("Invalid metadata: metadata can have up to 50 keys", { param: this.name("metadata") });
    }
    const out: Record<string, string> = {};
    for (const [k, v] of entries) {
      if (typeof v !== "string") {
        throw invalidRequest(`Invalid value for metadata[${k}]: expected a string`, {
          param: `${this.name("metadata")}[${k}]`,
        });
      }
      if (k.length > 40) {
        throw invalidRequest(`Metadata keys can have up to 40 characters`, { param: `${this.name("metadata")}[${k}]` });
      }
      if (v.length > 500) {
        throw invalidRequest(`Metadata values can have up to 500 characters`, {
          param: `${this.name("metadata")}[${k}]`,
        });
      }
      out[k] = v;
    }
    return out;
  }

  /** Marks keys as accepted and ignored (Stripe.js's bookkeeping parameters). */
  ignore(...keys: string[]): void {
    for (const key of keys) this.read.add(key);
  }

  /** Refuses any parameter that was not read (Stripe: `parameter_unknown`). */
  done(): void {
    for (const key of Object.keys(this.raw)) {
      if (!this.read.has(key)) throw unknownParameter(this.name(key));
    }
    this.onDone?.();
  }
}

/** Applies a metadata update: keys with "" are removed, null clears everything. */
export function mergeMetadata(
  current: Record<string, string>,
  update: Record<string, string> | null | undefined,
): Record<string, string> {
  if (update === undefined) return current;
  if (update === null) return {};
  const next = { ...current };
  for (const [k, v] of Object.entries(update)) {
    if (v === "") delete next[k];
    else next[k] = v;
  }
  return next;
}
