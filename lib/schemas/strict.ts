/**
 * Strict checking of a response against its zod schema. zod objects strip unknown keys, so a
 * plain parse would pass a response carrying a field the schema does not name: here every key of
 * every object must be one the schema names, and every key the schema names must be there (a
 * missing key is a parse failure already; `.optional()` is the only way to declare a key absent).
 * Used by the entity test (lib/schemas/entities.test.ts) and by every integration test's call().
 */
import type { z } from "zod";

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType;
  getter?: () => z.ZodType;
};

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The options of a union worth trying for `value`: of a discriminated union (GET /events' events
 * by `event_type`), only those whose discriminator takes the value's, so that a union of many
 * options is not parsed once per option.
 */
function unionOptions(def: Def, value: unknown): z.ZodType[] {
  const options = def.options ?? [];
  const key = def.discriminator;
  if (!key || !isPlainObject(value)) return options;
  return options.filter((option) => {
    const values = (option as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod.propValues;
    return values?.[key]?.has(value[key]) ?? true;
  });
}

/** The keys of `value` that `schema` does not name, as paths (`items.0.price.foo`). */
function unknownKeys(schema: z.ZodType, value: unknown, path: string, out: string[]): void {
  const def = defOf(schema);
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  switch (def.type) {
    case "object": {
      if (!isPlainObject(value)) return;
      const shape = def.shape ?? {};
      const catchall = def.catchall && defOf(def.catchall).type !== "never" ? def.catchall : undefined;
      for (const [key, item] of Object.entries(value)) {
        const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
        if (field) unknownKeys(field, item, at(key), out);
        else if (catchall) unknownKeys(catchall, item, at(key), out);
        else out.push(`${at(key)}: not in the schema`);
      }
      return;
    }
    case "array":
      if (Array.isArray(value)) {
        value.forEach((item, i) => {
          unknownKeys(def.element as z.ZodType, item, at(i), out);
        });
      }
      return;
    case "tuple":
      if (Array.isArray(value)) {
        value.forEach((item, i) => {
          const itemSchema = def.items?.[i] ?? def.rest;
          if (itemSchema) unknownKeys(itemSchema, item, at(i), out);
        });
      }
      return;
    case "record":
      if (isPlainObject(value)) {
        for (const [key, item] of Object.entries(value)) unknownKeys(def.valueType as z.ZodType, item, at(key), out);
      }
      return;
    case "union": {
      // The first option that takes the value with no unknown key; else the first that parses.
      let first: string[] | null = null;
      for (const option of unionOptions(def, value)) {
        if (!option.safeParse(value).success) continue;
        const own: string[] = [];
        unknownKeys(option, value, path, own);
        if (own.length === 0) return;
        first ??= own;
      }
      if (first) out.push(...first);
      return;
    }
    case "intersection":
      // Both sides' keys are allowed: check the merged object shape only when both are objects.
      return;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
    case "catch":
      if (value === null || value === undefined) return;
      unknownKeys(def.innerType as z.ZodType, value, path, out);
      return;
    case "pipe":
      unknownKeys(def.in as z.ZodType, value, path, out);
      return;
    case "lazy":
      unknownKeys((def.getter as () => z.ZodType)(), value, path, out);
      return;
    default:
      return;
  }
}

/** Why `value` does not match `schema` strictly, one line per problem; empty when it does. */
export function strictProblems(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const out: string[] = [];
  unknownKeys(schema, value, "", out);
  return out;
}

/** Throws, naming every problem, unless `value` matches `schema` strictly. */
export function assertStrict(schema: z.ZodType, value: unknown, what = "response"): void {
  const problems = strictProblems(schema, value);
  if (problems.length > 0) {
    throw new Error(`${what} does not match its schema:\n  ${problems.join("\n  ")}\n${JSON.stringify(value)}`);
  }
}
