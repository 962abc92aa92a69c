/**
 * The one error the billing engine throws for input it cannot price: a flat discount in another
 * currency, a malformed amount, a tax rate out of range. It names the offending field (in the
 * terms of a transaction request, e.g. `discount.currency_code` or `items[2].quantity`) so the API
 * layer can turn it into a 400 `invalid_field` with `errors: [{ field, message }]`. Pure: it knows
 * nothing of HTTP.
 */
export class BillingError extends Error {
  /** The offending field, as a path in the request (`discount.currency_code`). */
  readonly field: string;
  /** What is wrong with it, without the field name: the `message` of `errors[]`. */
  readonly detail: string;

  constructor(field: string, detail: string) {
    super(`${field} ${detail}`);
    this.name = "BillingError";
    this.field = field;
    this.detail = detail;
  }

  toFieldError(): { field: string; message: string } {
    return { field: this.field, message: this.detail };
  }
}
