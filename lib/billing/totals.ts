/**
 * The totals of a transaction: the spec's `details` (`line_items`, `totals`, `tax_rates_used`)
 * from its items, the customer's country, the discount and the customer's credit. Pure and exact:
 * amounts are bigints of the currency's minor unit, rates and percentages are rationals, and
 * every fraction becomes an amount through `roundHalfAwayFromZero` (money.ts).
 *
 * How a line is priced. Its price's amount A = unit price × quantity is in the price's tax mode:
 * net of tax for `external`, tax included for `internal` (`account_setting` takes the account's
 * mode). A discount first becomes an amount Dp "in price terms", off A:
 *   percentage      Dp = round(A × percent / 100)
 *   flat            the discount's amount, split over the eligible lines in proportion to their A
 *                   (largest remainder, so the shares add up to it exactly)
 *   flat_per_seat   the discount's amount × quantity
 * and never more than A (a discount larger than what it applies to is used only up to it). Then,
 * with rate r:
 *   external   subtotal = A; discount = Dp; tax = round((A − Dp) × r); total = A − Dp + tax
 *   internal   total = A − Dp; tax = round(total × r / (1 + r)); subtotal = A − round(A × r / (1 + r));
 *              discount = subtotal − (total − tax)
 * So a discount always reduces the price as the merchant wrote it, and tax is computed on the
 * discounted amount in both modes. For an internal price the discount the customer sees taken off
 * the tax-inclusive price is Dp, and the `discount` reported (like `subtotal`) is net of tax: tax is
 * removed from the applied discount, the spec's rule for flat and flat_per_seat on internal prices
 * ($12 off a $120 price with 20% VAT is reported as a $10 discount and $2 less tax). A percentage
 * needs no such rule (10% off the gross is 10% off the net and 10% off the tax), and gets it anyway,
 * so both kinds go through the same path.
 *
 * Rounding happens per line, once per field, from exact values; the transaction's totals are the
 * sums of the lines' totals, so they add up to the minor unit by construction (rounding the
 * transaction's tax on its own could disagree with the sum of the lines by a unit or two).
 *
 * Proration and credits (subscription changes, proration.ts). An item may carry a `proration` rate
 * r (a share of the billing period) and a `credit` flag:
 *   A = round(unit price × quantity × r)          the rate rounded to 5 places first, as shown
 *   A = −A                                        for a credit (removed or reduced quantity)
 * and the line is then priced by the rules above. Rounding is symmetric (halves away from zero), so
 * a credit line is the exact negation of the charge line of the same price, quantity and rate,
 * discount and tax included: an upgrade and its exact reverse at the same instant cancel out to
 * the minor unit. On the wire a credit line shows a negative quantity and negative totals, and
 * positive unit totals (totals ÷ quantity), as the API family shows them.
 * Discounts on these lines:
 *   percentage      applies to credit lines too: the customer paid the discounted price for the
 *                   time now credited, so that is what comes back (crediting the undiscounted
 *                   price would pay a customer for going up and down again)
 *   flat            never on credit lines: it is a sum off what the customer pays in this
 *                   transaction, split over its charges; on a credit it would shrink what is
 *                   given back, a discount working against the customer
 *   flat_per_seat   never on credit lines (same reason); on a prorated charge line it is prorated
 *                   like the price (round(amount × quantity × r)): it is a discount per seat and
 *                   billing period, so a seat added for the last quarter of a period gets a
 *                   quarter of it, and at r = 1 nothing changes
 * Lines with a negative unit price (not flagged `credit`) are priced the same way but never
 * discounted. A negative transaction total becomes `credit_to_balance`; a positive one is paid
 * first from the customer's `credit_balance`.
 *
 * The engine does not know billing periods: an item's `proration_period` (timestamps already in
 * the API's format) is echoed as the line's `proration.billing_period`; a line without `proration`
 * has no `proration` key (the caller writes null).
 */

import { invalidField } from "../errors.ts";
import type { CurrencyCode } from "./currencies.ts";
import {
  allocate,
  compareRatio,
  formatAmount,
  formatDecimal,
  type Minor,
  maxOf,
  minOf,
  multiplyRound,
  parseAmount,
  parseDecimal,
  type Ratio,
  ratio,
  roundHalfAwayFromZero,
  sum,
} from "./money.ts";
import { roundRate } from "./proration.ts";
import { taxInclusiveIn } from "./tax-inclusive-countries.ts";
import { type TaxRate, type TaxRateOverrides, taxRateFor } from "./tax-rates.ts";

// ---------------------------------------------------------------------------------------------
// Input: shapes that a Price and a Discount of lib/schemas satisfy as they are.

/**
 * `location`: inclusive (as `internal`) where consumer prices customarily include tax, exclusive
 * elsewhere; the list and its sources: tax-inclusive-countries.ts.
 */
export type TaxMode = "account_setting" | "external" | "internal" | "location";
/** What `account_setting` means for this account. */
export type AccountTaxMode = "external" | "internal";
export type DiscountType = "percentage" | "flat" | "flat_per_seat";

export interface MoneyLike {
  readonly amount: string;
  readonly currency_code: string;
}

export interface UnitPriceOverrideLike {
  readonly country_codes: readonly string[];
  readonly unit_price: MoneyLike;
}

export interface PriceLike {
  readonly id: string;
  readonly product_id: string;
  readonly tax_mode: TaxMode;
  readonly unit_price: MoneyLike;
  readonly unit_price_overrides?: readonly UnitPriceOverrideLike[] | null;
}

export interface ProrationPeriodLike {
  readonly starts_at: string;
  readonly ends_at: string;
}

export interface TotalsItem {
  readonly price: PriceLike;
  /** A whole number from 1 (a JavaScript number: quantities are small), also for credit lines. */
  readonly quantity: number;
  /**
   * The share of the price billed (proration.ts: prorationRate), from 0: the line's amount is
   * round(unit price × quantity × rate), the rate rounded to 5 places first. Null or absent: the
   * whole price, and no `proration` on the line.
   */
  readonly proration?: Ratio | null;
  /** Echoed as the line's `proration.billing_period` (the engine knows no periods). */
  readonly proration_period?: ProrationPeriodLike | null;
  /** A credit line (removed or reduced quantity): its amount is negated. See the top of this file. */
  readonly credit?: boolean;
}

export interface DiscountLike {
  readonly type: DiscountType;
  /** percentage: `"0.01"` to `"100"`; flat and flat_per_seat: minor units of `currency_code`. */
  readonly amount: string;
  readonly currency_code: string | null;
  /** Product and price IDs the discount is for; null or empty: every line. */
  readonly restrict_to?: readonly string[] | null;
}

export interface TotalsInput {
  readonly currency_code: CurrencyCode;
  readonly items: readonly TotalsItem[];
  /** The country of the customer's address: picks unit price overrides and the tax rate. */
  readonly country_code: string | null;
  /** The account's tax mode, for prices with `account_setting`. Default `external`. */
  readonly account_tax_mode?: AccountTaxMode;
  /** The merchant's edited tax rates (see tax-rates.ts). */
  readonly tax_rates?: TaxRateOverrides;
  readonly discount?: DiscountLike | null;
  /** The customer's credit balance in this currency, available to pay this transaction. */
  readonly credit_balance?: Minor;
  /** Payments already captured against this transaction (0 for a preview or a new one). */
  readonly amount_paid?: Minor;
}

// ---------------------------------------------------------------------------------------------
// Output: the spec's `details`, amounts as strings.

export interface AmountTotals {
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
}

export interface LineProration {
  /** The rate as used, 5 places at most: "0.90513". */
  rate: string;
  billing_period: ProrationPeriodLike | null;
}

export interface LineItemDetails {
  price_id: string;
  /** Negative for a credit line. */
  quantity: number;
  tax_rate: string;
  unit_totals: AmountTotals;
  totals: AmountTotals;
  /** Only on lines whose item has a `proration` rate. */
  proration?: LineProration;
}

export interface TransactionTotals {
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  credit: string;
  credit_to_balance: string;
  balance: string;
  grand_total: string;
  grand_total_tax: string;
  /** Null until the transaction is completed and its fee processed (see payoutTotals). */
  fee: string | null;
  earnings: string | null;
  currency_code: CurrencyCode;
}

export interface TaxRateUsed {
  tax_rate: string;
  totals: AmountTotals;
}

export interface TotalsDetails {
  tax_rates_used: TaxRateUsed[];
  totals: TransactionTotals;
  line_items: LineItemDetails[];
}

// ---------------------------------------------------------------------------------------------

/** The four amounts of a line (or of one unit of it), exact. */
export interface Amounts {
  subtotal: Minor;
  discount: Minor;
  tax: Minor;
  total: Minor;
}

interface Line {
  priceId: string;
  productId: string;
  quantity: number;
  mode: AccountTaxMode;
  rate: TaxRate;
  /** Unit price × quantity (× the proration rate; negated for a credit), in the price's tax mode. */
  amount: Minor;
  credit: boolean;
  /** The proration rate as used (rounded), or null for the whole price. */
  proration: Ratio | null;
  prorationPeriod: ProrationPeriodLike | null;
}

export function computeTotals(input: TotalsInput): TotalsDetails {
  const rate = taxRateFor(input.country_code, input.tax_rates);
  const lines = input.items.map((item, index) => resolveLine(item, index, input, rate));
  const discounts = priceTermDiscounts(lines, input.discount ?? null, input.currency_code);

  // discounts has one amount per line (none: 0).
  const priced = lines.map((line, i) => ({
    line,
    amounts: lineTotals(line.mode, line.amount, discounts[i] ?? 0n, line.rate.ratio),
  }));
  const lineAmounts = priced.map(({ amounts }) => amounts);
  const lineItems: LineItemDetails[] = priced.map(({ line, amounts }) => {
    const details: LineItemDetails = {
      price_id: line.priceId,
      quantity: line.credit ? -line.quantity : line.quantity,
      tax_rate: line.rate.rate,
      // A credit line's unit totals are its totals over its (negative) quantity: positive.
      unit_totals: wire(unitTotals(line.credit ? negate(amounts) : amounts, BigInt(line.quantity))),
      totals: wire(amounts),
    };
    if (line.proration) {
      details.proration = { rate: formatDecimal(line.proration), billing_period: line.prorationPeriod };
    }
    return details;
  });

  const byRate = new Map<string, Amounts[]>();
  for (const { line, amounts } of priced) {
    byRate.set(line.rate.rate, [...(byRate.get(line.rate.rate) ?? []), amounts]);
  }
  const taxRatesUsed = [...byRate].map(([taxRate, amounts]) => ({ tax_rate: taxRate, totals: wire(addUp(amounts)) }));

  return {
    tax_rates_used: taxRatesUsed,
    totals: transactionTotals(addUp(lineAmounts), input),
    line_items: lineItems,
  };
}

/** The line's price, quantity, tax mode and rate, with the unit price for the customer's country. */
function resolveLine(item: TotalsItem, index: number, input: TotalsInput, rate: TaxRate): Line {
  const field = `items[${index}]`;
  const { price, quantity } = item;
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    throw invalidField(`${field}.quantity`, "must be a whole number of at least 1");
  }
  const unitPrice = unitPriceFor(price, input.country_code, input.currency_code);
  if (unitPrice.currency_code !== input.currency_code) {
    throw invalidField(
      `${field}.price.unit_price.currency_code`,
      `is ${unitPrice.currency_code}, but the transaction is in ${input.currency_code}: the price has no unit price in ${input.currency_code}`,
    );
  }
  const unitAmount = parseAmount(unitPrice.amount, `${field}.price.unit_price.amount`);
  const mode = lineTaxMode(price.tax_mode, input);
  const proration = item.proration ? prorationOf(item.proration, `${field}.proration`) : null;
  const whole = unitAmount * BigInt(quantity);
  const amount = proration ? multiplyRound(whole, proration) : whole;
  const credit = item.credit === true;
  return {
    priceId: price.id,
    productId: price.product_id,
    quantity,
    mode,
    rate,
    amount: credit ? -amount : amount,
    credit,
    proration,
    prorationPeriod: proration ? (item.proration_period ?? null) : null,
  };
}

/** How a price of `taxMode` is taxed for this customer: `external` or `internal`. */
export function lineTaxMode(
  taxMode: TaxMode,
  input: Pick<TotalsInput, "account_tax_mode" | "country_code">,
): AccountTaxMode {
  if (taxMode === "account_setting") return input.account_tax_mode ?? "external";
  if (taxMode === "location") return taxInclusiveIn(input.country_code) ? "internal" : "external";
  return taxMode;
}

/** A proration rate as used: not negative, rounded to 5 places (proration.ts). */
function prorationOf(rate: Ratio, field: string): Ratio {
  const negative = rate.numerator !== 0n && rate.numerator < 0n !== rate.denominator < 0n;
  if (rate.denominator === 0n || negative) throw invalidField(field, "must be a rate from 0");
  return roundRate(rate);
}

/**
 * The unit price for a customer in `countryCode`: the override listing that country, else the
 * price's own unit price. An override in another currency than the transaction's is skipped (the
 * transaction's currency was chosen, and the price's base unit price may be in it).
 */
export function unitPriceFor(price: PriceLike, countryCode: string | null, currency: string): MoneyLike {
  const country = countryCode?.toUpperCase();
  if (country) {
    const override = (price.unit_price_overrides ?? []).find(
      (candidate) =>
        candidate.unit_price.currency_code === currency &&
        candidate.country_codes.some((code) => code.toUpperCase() === country),
    );
    if (override) return override.unit_price;
  }
  return price.unit_price;
}

const HUNDRED = ratio(100n, 1n);
const HUNDREDTH = ratio(1n, 100n);

/** Each line's discount in price terms (see the top of this file); zero for ineligible lines. */
function priceTermDiscounts(lines: readonly Line[], discount: DiscountLike | null, currency: string): Minor[] {
  if (!discount) return lines.map(() => 0n);
  const restrictTo = discount.restrict_to?.length ? new Set(discount.restrict_to) : null;
  const matches = lines.map((line) => !restrictTo || restrictTo.has(line.priceId) || restrictTo.has(line.productId));
  // Charges (positive amounts) are discounted; credit lines only by a percentage (top of file).
  const eligible = lines.map(
    (line, i) => matches[i] && (line.amount > 0n || (discount.type === "percentage" && line.credit)),
  );

  if (discount.type === "percentage") {
    const percent = parseDecimal(discount.amount, "discount.amount");
    if (compareRatio(percent, HUNDREDTH) < 0 || compareRatio(percent, HUNDRED) > 0) {
      throw invalidField("discount.amount", "must be between 0.01 and 100 for percentage discounts");
    }
    const fraction = ratio(percent.numerator, percent.denominator * 100n);
    return lines.map((line, i) => (eligible[i] ? multiplyRound(line.amount, fraction) : 0n));
  }

  if (discount.currency_code !== currency) {
    throw invalidField(
      "discount.currency_code",
      `is ${discount.currency_code ?? "null"}, but the transaction is in ${currency}: a ${discount.type} discount applies only to transactions in its currency`,
    );
  }
  const amount = parseAmount(discount.amount, "discount.amount");
  if (amount < 0n) throw invalidField("discount.amount", "must not be negative");

  if (discount.type === "flat_per_seat") {
    // Per seat and billing period: a prorated line gets the same share of it as of the price.
    return lines.map((line, i) => {
      if (!eligible[i]) return 0n;
      const seats = amount * BigInt(line.quantity);
      return minOf(line.proration ? multiplyRound(seats, line.proration) : seats, line.amount);
    });
  }
  // flat: once for the whole transaction, split over the eligible lines by their amounts.
  const weights = lines.map((line, i) => (eligible[i] ? line.amount : 0n));
  return allocate(minOf(amount, sum(weights)), weights);
}

/**
 * A line's four amounts from its price amount (in `mode`), its discount in price terms (between 0
 * and the amount, of the amount's sign) and its tax rate. See the top of this file. Odd: the
 * amounts of (−amount, −discount) are the negation of those of (amount, discount).
 */
export function lineTotals(mode: AccountTaxMode, amount: Minor, priceDiscount: Minor, rate: Ratio): Amounts {
  if (mode === "external") {
    const taxable = amount - priceDiscount;
    const tax = multiplyRound(taxable, rate);
    return { subtotal: amount, discount: priceDiscount, tax, total: taxable + tax };
  }
  // Tax inside a tax-inclusive amount G at rate r is G × r / (1 + r).
  const taxShare = ratio(rate.numerator, rate.denominator + rate.numerator);
  const total = amount - priceDiscount;
  const tax = multiplyRound(total, taxShare);
  const subtotal = amount - multiplyRound(amount, taxShare);
  return { subtotal, discount: subtotal - (total - tax), tax, total };
}

/**
 * The totals of one unit of a line: each field is the line's divided by the quantity and rounded,
 * with `total = subtotal − discount + tax` kept. When rounding the four separately breaks that
 * (it can, by a unit or two), the field among subtotal, discount and tax whose rounding leaned
 * furthest in the way of the gap is rounded the other way. Every field stays within one minor unit
 * of the line's exact per-unit value (|unit × quantity − line| < quantity), and a value that
 * divides exactly (the unit price of a line without discount) is never moved.
 */
export function unitTotals(line: Amounts, quantity: bigint): Amounts {
  if (quantity === 1n) return { ...line };
  const unit: Amounts = {
    subtotal: roundHalfAwayFromZero(line.subtotal, quantity),
    discount: roundHalfAwayFromZero(line.discount, quantity),
    tax: roundHalfAwayFromZero(line.tax, quantity),
    total: roundHalfAwayFromZero(line.total, quantity),
  };
  let gap = unit.subtotal - unit.discount + unit.tax - unit.total;
  while (gap !== 0n) {
    const step = gap > 0n ? 1n : -1n;
    // How far each field's rounding pushed the gap (scaled by quantity); the largest is moved.
    const pushes = [
      { field: "subtotal", push: step * (unit.subtotal * quantity - line.subtotal), sign: 1n },
      { field: "discount", push: -step * (unit.discount * quantity - line.discount), sign: -1n },
      { field: "tax", push: step * (unit.tax * quantity - line.tax), sign: 1n },
    ] as const;
    const largest = pushes.reduce((best, candidate) => (candidate.push > best.push ? candidate : best));
    unit[largest.field] -= largest.sign * step;
    gap -= step;
  }
  return unit;
}

function negate(amounts: Amounts): Amounts {
  return {
    subtotal: -amounts.subtotal,
    discount: -amounts.discount,
    tax: -amounts.tax,
    total: -amounts.total,
  };
}

function addUp(amounts: readonly Amounts[]): Amounts {
  return {
    subtotal: sum(amounts.map((a) => a.subtotal)),
    discount: sum(amounts.map((a) => a.discount)),
    tax: sum(amounts.map((a) => a.tax)),
    total: sum(amounts.map((a) => a.total)),
  };
}

function wire(amounts: Amounts): AmountTotals {
  return {
    subtotal: formatAmount(amounts.subtotal),
    discount: formatAmount(amounts.discount),
    tax: formatAmount(amounts.tax),
    total: formatAmount(amounts.total),
  };
}

/**
 * The transaction's totals from the sum of its lines:
 * - `credit`: the customer's credit balance used to pay it, up to its total.
 * - `credit_to_balance`: a negative total (credits exceed charges) goes to the customer's balance.
 * - `grand_total` = total − credit + credit_to_balance: what is due before payments (never negative).
 * - `balance` = grand_total − payments already captured.
 * - `grand_total_tax`: the tax part of the grand total, the tax in proportion to what is left after
 *   credit (all the tax when no credit is used).
 * - `fee` and `earnings`: null until the transaction is completed (see payoutTotals).
 */
function transactionTotals(lines: Amounts, input: TotalsInput): TransactionTotals {
  const available = input.credit_balance ?? 0n;
  if (available < 0n) throw invalidField("credit_balance", "must not be negative");
  const paid = input.amount_paid ?? 0n;
  if (paid < 0n) throw invalidField("amount_paid", "must not be negative");
  const credit = minOf(available, maxOf(lines.total, 0n));
  const creditToBalance = lines.total < 0n ? -lines.total : 0n;
  const grandTotal = lines.total - credit + creditToBalance;
  if (paid > grandTotal) throw invalidField("amount_paid", "must not be more than the grand total");
  const grandTotalTax = lines.total > 0n ? roundHalfAwayFromZero(lines.tax * grandTotal, lines.total) : 0n;
  return {
    subtotal: formatAmount(lines.subtotal),
    discount: formatAmount(lines.discount),
    tax: formatAmount(lines.tax),
    total: formatAmount(lines.total),
    credit: formatAmount(credit),
    credit_to_balance: formatAmount(creditToBalance),
    balance: formatAmount(grandTotal - paid),
    grand_total: formatAmount(grandTotal),
    grand_total_tax: formatAmount(grandTotalTax),
    fee: null,
    earnings: null,
    currency_code: input.currency_code,
  };
}

// ---------------------------------------------------------------------------------------------
// Fees and payout

/** What the payment processor (we, in the sandbox) keeps: a percentage plus a fixed amount. */
export interface FeeConfig {
  /** Percent of the amount charged, as a decimal string: `"5"` is 5%, `"2.9"` is 2.9%. */
  readonly percent: string;
  /** Minor units of the transaction's currency, per payment. */
  readonly fixed: Minor;
}

/**
 * The fee on a payment of `total`: round(total × percent / 100) + fixed, by the one rounding rule.
 * Nothing is charged on nothing (total ≤ 0 → 0), and the fee never exceeds the payment, so
 * earnings are never pushed below zero by the fixed part on a tiny payment.
 */
export function computeFee(total: Minor, config: FeeConfig): Minor {
  const percent = parsePercent(config.percent, "fee.percent");
  if (config.fixed < 0n) throw invalidField("fee.fixed", "must not be negative");
  if (total <= 0n) return 0n;
  return minOf(total, multiplyRound(total, percent) + config.fixed);
}

function parsePercent(text: string, field: string): Ratio {
  const percent = parseDecimal(text, field);
  if (percent.numerator < 0n || compareRatio(percent, HUNDRED) > 0) {
    throw invalidField(field, "must be a percentage from 0 to 100");
  }
  return ratio(percent.numerator, percent.denominator * 100n);
}

/** The spec's `payout_totals` (the API family's shape), in the transaction's currency. */
export interface PayoutTotals {
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  credit: string;
  balance: string;
  grand_total: string;
  grand_total_tax: string;
  credit_to_balance: string;
  fee: string;
  earnings: string;
  currency_code: CurrencyCode;
  /** Always "1": payouts are in the transaction's currency (no conversion). */
  exchange_rate: string;
  /** The fee's percentage as a fraction: "0.05" for 5%. */
  fee_rate: string;
}

/**
 * The payout of a completed transaction: the fee on what the customer paid (`grand_total`) and
 * earnings = total − tax − fee (tax is passed on to the authorities; credit used was paid before,
 * so it counts as revenue here). The caller copies `fee` and `earnings` into `details.totals`.
 * Payouts are in the transaction's currency: converting to another payout currency is not done.
 */
export function payoutTotals(totals: TransactionTotals, fees: FeeConfig): PayoutTotals {
  const grandTotal = parseAmount(totals.grand_total, "grand_total");
  const fee = computeFee(grandTotal, fees);
  const earnings = parseAmount(totals.total, "total") - parseAmount(totals.tax, "tax") - fee;
  return {
    subtotal: totals.subtotal,
    discount: totals.discount,
    tax: totals.tax,
    total: totals.total,
    credit: totals.credit,
    balance: totals.balance,
    grand_total: totals.grand_total,
    grand_total_tax: totals.grand_total_tax,
    credit_to_balance: totals.credit_to_balance,
    fee: formatAmount(fee),
    earnings: formatAmount(earnings),
    currency_code: totals.currency_code,
    exchange_rate: "1",
    fee_rate: formatDecimal(parsePercent(fees.percent, "fee.percent")),
  };
}

/** What a processor reports a payment settled into (lib/payments/processor.ts ProcessorSettlement). */
export interface SettlementLike {
  /** The payout currency. */
  readonly currencyCode: string;
  /** The processor's fee, minor units of the payout currency. */
  readonly fee: Minor;
  /** Payout currency per unit of the transaction's currency, a decimal string ("1" when the same). */
  readonly exchangeRate: string;
}

/**
 * The payout of a transaction paid through a processor that reports its own fee and conversion
 * (Stripe's balance transaction): every amount converted at the processor's exchange rate (one
 * rounding each, half away from zero), `fee` the processor's, earnings = total − tax − fee in the
 * payout currency. `fee` and `earnings` in the transaction's currency (for `details.totals`) are the
 * payout figures converted back at the same rate.
 */
export function settledPayoutTotals(
  totals: TransactionTotals,
  settlement: SettlementLike,
): { payout: PayoutTotals; fee: Minor; earnings: Minor } {
  const rate = parseDecimal(settlement.exchangeRate, "exchange_rate");
  if (rate.numerator <= 0n) throw invalidField("exchange_rate", "must be positive");
  const convert = (text: string, field: string) => multiplyRound(parseAmount(text, field), rate);
  const back = (amount: Minor) => roundHalfAwayFromZero(amount * rate.denominator, rate.numerator);
  const total = convert(totals.total, "total");
  const tax = convert(totals.tax, "tax");
  const earnings = total - tax - settlement.fee;
  const grandTotal = convert(totals.grand_total, "grand_total");
  // Four decimal places: a fee over an amount need not be a finite decimal.
  const feeRate =
    grandTotal > 0n ? formatDecimal(ratio(roundHalfAwayFromZero(settlement.fee * 10000n, grandTotal), 10000n)) : "0";
  return {
    payout: {
      subtotal: formatAmount(convert(totals.subtotal, "subtotal")),
      discount: formatAmount(convert(totals.discount, "discount")),
      tax: formatAmount(tax),
      total: formatAmount(total),
      credit: formatAmount(convert(totals.credit, "credit")),
      balance: formatAmount(convert(totals.balance, "balance")),
      grand_total: formatAmount(grandTotal),
      grand_total_tax: formatAmount(convert(totals.grand_total_tax, "grand_total_tax")),
      credit_to_balance: formatAmount(convert(totals.credit_to_balance, "credit_to_balance")),
      fee: formatAmount(settlement.fee),
      earnings: formatAmount(earnings),
      currency_code: settlement.currencyCode as CurrencyCode,
      exchange_rate: formatDecimal(rate),
      fee_rate: feeRate,
    },
    fee: back(settlement.fee),
    earnings: back(earnings),
  };
}
