/**
 * The sandbox card form's fields as the buyer types them: the number grouped as printed on the card
 * (4-4-4-4, American Express 4-6-5), the expiry as "MM / YY". What is sent is read back by the
 * payment schema, which ignores the spaces and the slash's spacing (lib/billing/payments.ts).
 */

/** Digits only, at most 19 (the longest card numbers), grouped. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 19);
  if (/^3[47]/.test(digits)) {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(" ");
  }
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/**
 * "1229" → "12 / 29"; "4" → "04 / " (no month starts with 4); the separator appears once the month
 * is complete and goes away again when the buyer deletes back into the month (`previous` longer).
 */
export function formatExpiry(value: string, previous = ""): string {
  let digits = value.replace(/\D/g, "").slice(0, 4);
  if (digits === "") return "";
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (digits.length === 1) return digits;
  const deleting = value.length < previous.length;
  if (digits.length === 2) return deleting ? digits : `${digits} / `;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}
