/**
 * Money arithmetic. An amount is a `bigint` of the currency's minor unit (cents for USD, yen for
 * JPY: see currencies.ts for each currency's precision); on the wire it is a string of digits with
 * an optional leading minus. Fractions (tax rates, percentages, shares of a discount) are exact
 * rationals of two bigints, and every fractional result becomes an amount through the one rounding
 * function below. No floating point anywhere.
 */
import { invalidField } from "../errors.ts";

/** An amount in the currency's minor unit. */
export type Minor = bigint;

/** An exact fraction. Built by `ratio`, which keeps it reduced with a positive denominator. */
export interface Ratio {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

const AMOUNT_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

/** `"1050"` → `1050n`, `"-250"` → `-250n`. Anything else (spaces, decimals, `+`, empty) is refused. */
export function parseAmount(text: string, field = "amount"): Minor {
  if (typeof text !== "string" || !AMOUNT_TEXT.test(text)) {
    throw invalidField(field, "must be a whole number of the currency's minor unit, written as a string");
  }
  return BigInt(text);
}

/** `1050n` → `"1050"`, `-250n` → `"-250"`: the API's string amounts. */
export function formatAmount(amount: Minor): string {
  return amount.toString();
}

// ---------------------------------------------------------------------------------------------
// Rationals

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** numerator / denominator, reduced, with the sign on the numerator. */
export function ratio(numerator: bigint, denominator: bigint): Ratio {
  if (denominator === 0n) throw new RangeError("ratio: denominator is zero");
  const sign = denominator < 0n ? -1n : 1n;
  const divisor = gcd(numerator, denominator) || 1n;
  return { numerator: (sign * numerator) / divisor, denominator: (sign * denominator) / divisor };
}

/** `"0.2"` → 1/5, `"12.5"` → 25/2, `"-0.5"` → -1/2. Exact: a decimal string is a rational. */
export function parseDecimal(text: string, field = "amount"): Ratio {
  const match = typeof text === "string" ? DECIMAL_TEXT.exec(text) : null;
  if (!match) throw invalidField(field, 'must be a decimal number written as a string, such as "0.2"');
  const fraction = match[3] ?? "";
  const digits = BigInt(`${match[1]}${match[2]}${fraction}`);
  return ratio(digits, 10n ** BigInt(fraction.length));
}

/**
 * The shortest decimal string of a rational whose decimal expansion ends (denominator of the form
 * 2^a·5^b): 1/5 → `"0.2"`, 81/1000 → `"0.081"`, 3/1 → `"3"`. Throws for 1/3 and the like.
 */
export function formatDecimal(value: Ratio): string {
  const { numerator, denominator } = ratio(value.numerator, value.denominator);
  let places = 0;
  let scale = 1n;
  while (scale % denominator !== 0n) {
    places += 1;
    scale *= 10n;
    if (places > 64) throw new RangeError("formatDecimal: the decimal expansion does not end");
  }
  const negative = numerator < 0n;
  const scaled = ((negative ? -numerator : numerator) * scale) / denominator;
  const text = scaled.toString().padStart(places + 1, "0");
  const whole = text.slice(0, text.length - places);
  const fraction = text.slice(text.length - places).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

export function compareRatio(a: Ratio, b: Ratio): number {
  const left = a.numerator * b.denominator;
  const right = b.numerator * a.denominator;
  return left < right ? -1 : left > right ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Rounding: the one rule

/**
 * THE rounding function: numerator / denominator to the nearest whole minor unit, halves away from
 * zero (2.5 → 3, -2.5 → -3). Every amount the engine derives from a fraction goes through here.
 *
 * Why half away from zero and not half to even ("banker's"): totals here are tax on invoices, and
 * the tax authorities whose rules a merchant of record follows (HMRC, the EU member states, the ATO,
 * ...) expect commercial rounding of each line's tax to the nearest minor unit with halves going up;
 * an invoice checked by hand (1.5 cents of VAT → 2 cents) must agree with ours. Banker's rounding
 * only pays off when summing many already-rounded values, and we never do that: each line is
 * rounded once from exact rationals and sums are exact. Away from zero (rather than towards +∞)
 * keeps rounding symmetric, so a credit or refund (negative) is the exact negation of its charge.
 */
export function roundHalfAwayFromZero(numerator: bigint, denominator: bigint): Minor {
  if (denominator === 0n) throw new RangeError("roundHalfAwayFromZero: denominator is zero");
  const sign = numerator < 0n !== denominator < 0n ? -1n : 1n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  // floor(n/d + 1/2) = floor((2n + d) / 2d) for non-negative n, d.
  return sign * ((2n * n + d) / (2n * d));
}

/** amount × fraction, rounded by the one rule. */
export function multiplyRound(amount: Minor, fraction: Ratio): Minor {
  return roundHalfAwayFromZero(amount * fraction.numerator, fraction.denominator);
}

// ---------------------------------------------------------------------------------------------
// Sums and allocation

export function sum(values: readonly Minor[]): Minor {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}

export function minOf(a: Minor, b: Minor): Minor {
  return a < b ? a : b;
}

export function maxOf(a: Minor, b: Minor): Minor {
  return a > b ? a : b;
}

/**
 * Splits `amount` over `weights` (non-negative) in proportion, so that the parts add up to
 * `amount` exactly: largest-remainder method. Each part gets the floor of its exact share; the
 * units left over go one each to the parts with the largest remainders (ties: the earlier part).
 * Every part is therefore within one minor unit of its exact share, a zero weight gets zero, and a
 * negative amount is split as the negation of its absolute value.
 */
export function allocate(amount: Minor, weights: readonly bigint[]): Minor[] {
  if (weights.some((weight) => weight < 0n)) throw new RangeError("allocate: weights must not be negative");
  if (amount < 0n) return allocate(-amount, weights).map((part) => -part);
  const total = sum(weights);
  if (total === 0n) {
    if (amount === 0n) return weights.map(() => 0n);
    throw new RangeError("allocate: cannot split a non-zero amount over weights that are all zero");
  }
  const parts = weights.map((weight) => (amount * weight) / total);
  let left = amount - sum(parts);
  const byRemainder = weights
    .map((weight, index) => ({ index, remainder: (amount * weight) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of byRemainder) {
    if (left === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    left -= 1n;
  }
  return parts;
}
