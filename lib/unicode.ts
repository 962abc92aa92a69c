/**
 * ES2024's String well-formedness methods. Node (>= 20) has them, but the project's TypeScript lib
 * stays ES2023 (other ES2024 additions, Object.groupBy and Promise.withResolvers, are missing from
 * Node 20), so they are reached through these two typed functions.
 */
const methods = String.prototype as unknown as {
  isWellFormed(this: string): boolean;
  toWellFormed(this: string): string;
};

/** False when `text` holds an unpaired UTF-16 surrogate (a lone U+D800-U+DFFF). */
export function isWellFormed(text: string): boolean {
  return methods.isWellFormed.call(text);
}

/** `text` with every unpaired surrogate replaced by U+FFFD. */
export function toWellFormed(text: string): string {
  return methods.toWellFormed.call(text);
}
