/**
 * Turning API errors into what a form shows: field errors beside their inputs, everything else
 * (the detail, field errors of fields the form has no input for) in one message above the buttons.
 */
import { ApiClientError, type FieldError } from "./api.ts";

export interface FormErrorState {
  /** Messages by the form's own field names. */
  fields: Record<string, string>;
  /** A message for the whole form, or null when every problem sits beside a field. */
  message: string | null;
  /** Field errors for which the form has no input. */
  other: FieldError[];
  code?: string;
  requestId?: string;
}

export const NO_ERRORS: FormErrorState = { fields: {}, message: null, other: [] };

/**
 * Maps `error.errors[].field` onto the form's fields. A field matches exactly or as the start of a
 * path (`custom_data.x` goes to `custom_data`), the longest match winning (`contacts[1].email`
 * before `contacts`).
 */
export function formErrors(
  error: unknown,
  fields: readonly string[],
  /** Maps the API's field path to the form's (when the form sent its rows in another order). */
  rename: (field: string) => string = (field) => field,
  /**
   * The message lists every field error, those beside their fields too: a dialog's alert is what a
   * screen reader announces when the action is refused, so it names every problem.
   */
  { listPlaced = false }: { listPlaced?: boolean } = {},
): FormErrorState {
  if (!(error instanceof ApiClientError)) {
    const message = error instanceof Error ? error.message : "Something went wrong. Try again.";
    return { fields: {}, message, other: [] };
  }
  const byLength = [...fields].sort((a, b) => b.length - a.length);
  const out: Record<string, string> = {};
  const other: FieldError[] = [];
  for (const original of error.errors) {
    const entry = { field: rename(original.field), message: original.message };
    const field = byLength.find(
      (f) => entry.field === f || entry.field.startsWith(`${f}.`) || entry.field.startsWith(`${f}[`),
    );
    if (!field || listPlaced) other.push(entry);
    if (!field) continue;
    const message =
      entry.field === field ? entry.message : `${entry.field.slice(field.length).replace(/^\./, "")}: ${entry.message}`;
    out[field] ??= message;
  }
  const placed = Object.keys(out).length > 0;
  let message: string | null = error.message;
  if (listPlaced) message = error.message;
  else if (error.code === "invalid_field" && other.length === 0 && placed) message = null;
  else if (error.code === "invalid_field" && placed) message = "Some fields need attention.";
  return { fields: out, message, other, code: error.code, requestId: error.requestId };
}

/** Parses a JSON textarea: empty means null; anything else must be JSON. */
export function parseJsonField(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `must be valid JSON (${error instanceof Error ? error.message : "parse error"})` };
  }
}

/** A text input's value for the API: trimmed, and null when blank. */
export function textOrNull(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

/** `contacts[0].email` from a zod path: the same field names the API's `errors[].field` uses. */
function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "(root)";
}

interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** A zod schema of a request body, as `checkBody` uses it. */
export interface Schema<T = unknown> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: SchemaIssue[] } };
}

/**
 * Checks a request body with the API's own zod schema before sending it. A refusal becomes the
 * same `invalid_field` error the server would answer (an unknown key is reported under its own
 * name, as lib/errors.ts does), so its messages land beside the same fields.
 */
export function checkBody<T>(
  schema: Schema<T>,
  body: unknown,
  fields: readonly string[],
  rename?: (field: string) => string,
): { ok: true; data: T } | { ok: false; errors: FormErrorState } {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, data: result.data };
  const errors = result.error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys
      ? issue.keys.map((key) => ({ field: issuePath([...issue.path, key]), message: "is not a known field" }))
      : [{ field: issuePath(issue.path), message: issue.message }],
  );
  return {
    ok: false,
    errors: formErrors(new ApiClientError(400, "invalid_field", "Invalid request.", errors), fields, rename),
  };
}

/**
 * A field's error as a sentence that names the field. The API's field messages are the family's
 * fragments ("must be at most 200 characters", "is required for addresses in US"), which read
 * well beside a field only with its name: "Name must be at most 200 characters." Messages that
 * are sentences already are kept, with a full stop.
 */
export function errorSentence(label: unknown, error: string): string {
  const fragment = /^(must|is|are|cannot|can't|should|has|needs|does)\b/.test(error);
  const text = fragment && typeof label === "string" && label.trim() ? `${label.trim()} ${error}` : error;
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(sentence) ? sentence : `${sentence}.`;
}
