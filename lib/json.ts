/** JSON text made elsewhere (by PostgreSQL), placed in a response without being parsed again. */
export class RawJson<T = unknown> {
  constructor(readonly text: string) {}

  /** For code that needs the entity itself (internal callers, tests); responses use `text`. */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}

export function toJsonText(value: unknown): string {
  return value instanceof RawJson ? value.text : JSON.stringify(value);
}
