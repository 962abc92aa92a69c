/**
 * The money of adjustments (refunds and credits of a billed or completed transaction). Pure and
 * exact, like totals.ts: amounts are bigints of the minor unit, rates are rationals, and every
 * fraction becomes an amount through `roundHalfAwayFromZero` (money.ts).
 *
 * What can be adjusted. Each transaction line was charged its `totals.total`, of which
 * `totals.tax` is tax and the rest (`total − tax`, after discount) is the net amount. Earlier
 * adjustments that were not rejected have used some of that up; what is left of a line is the
 * charge minus the sum of their items on that line, field by field (net, tax, total). Nothing is
 * ever adjusted beyond what is left, field by field, so the refunds of a line add up to at most
 * its charge, and a line refunded in full has returned exactly what it was charged (no drift).
 *
 * Splitting an amount. An item's `amount` is, as in the API family, tax-inclusive by default
 * (`internal`): its tax is round(amount × r / (1 + r)) with the line's rate r; `external` amounts
 * are net, and the tax round(amount × r) is added. The tax so computed is then kept inside what is
 * left: at most the tax left, and at least what the net left cannot hold. Adjusting exactly what is
 * left takes exactly the net and tax left, so the last of several partial refunds absorbs the
 * rounding of the earlier ones.
 *
 * The fee share. A completed transaction paid a fee on what was charged. An adjustment takes back
 * a share of that fee in proportion to the part of the transaction's total it returns, rounded
 * cumulatively: after adjustments of A₁…Aₖ in all, fee shares add up to round(fee × ΣA / total),
 * so every share is ≥ 0, they never add up to more than the fee, and a transaction adjusted in full
 * has taken back exactly its fee. What happens to that share depends on the processor:
 *
 * - The sandbox is its own processor and returns its fee in full (`retained_fee` 0). An
 *   adjustment's `earnings` are its net amount minus its fee share (what the merchant's earnings go
 *   down by).
 * - Stripe keeps its processing fee when a payment is refunded or disputed (its documented rule):
 *   the whole fee share is `retained_fee`, and `earnings` = net − fee + retained_fee = the net
 *   amount. A transaction refunded in full through Stripe so ends with adjusted fee 0, retained_fee
 *   its whole original fee, and adjusted earnings −fee: exactly what the merchant is out of pocket.
 *
 * In every case `earnings` = subtotal − (fee − retained_fee). A credit of an unpaid invoice has no
 * fee to share (0).
 *
 * Which adjustments take amounts off a transaction (`AMOUNT_ACTIONS`): refunds, credits and
 * chargebacks. A chargeback's reversal (dispute won) marks its chargeback `reversed` and counts for
 * nothing itself, as do warnings; so the adjusted totals after a won dispute equal those before it.
 */
import { invalidField } from "../errors.ts";
import {
  formatAmount,
  type Minor,
  maxOf,
  minOf,
  multiplyRound,
  parseAmount,
  parseDecimal,
  ratio,
  roundHalfAwayFromZero,
  sum,
} from "./money.ts";
import type { PayoutTotals, TransactionTotals } from "./totals.ts";

export const ADJUSTMENT_ACTIONS = ["refund", "credit"] as const;
/** Every action the API family has; only `refund` and `credit` are created through the API. */
export const ALL_ADJUSTMENT_ACTIONS = [
  "refund",
  "credit",
  "chargeback",
  "chargeback_reverse",
  "chargeback_warning",
  "credit_reverse",
] as const;
export type AdjustmentAction = (typeof ALL_ADJUSTMENT_ACTIONS)[number];
/**
 * The actions whose amounts come off the transaction (its adjusted totals, what is left to adjust,
 * the balance report), when approved. `chargeback_reverse` and `credit_reverse` undo another
 * adjustment, which becomes `reversed` and stops counting; warnings move no money.
 */
export const AMOUNT_ACTIONS = ["refund", "credit", "chargeback"] as const;
export const ADJUSTMENT_STATUSES = ["pending_approval", "approved", "rejected", "reversed"] as const;
export const ADJUSTMENT_TYPES = ["full", "partial"] as const;
export const ADJUSTMENT_ITEM_TYPES = ["full", "partial", "tax", "proration"] as const;
export type AdjustmentItemType = (typeof ADJUSTMENT_ITEM_TYPES)[number];
export const ADJUSTMENT_TAX_MODES = ["internal", "external"] as const;
export type AdjustmentTaxMode = (typeof ADJUSTMENT_TAX_MODES)[number];

/**
 * Whether an adjustment uses up what is left of a transaction: one of AMOUNT_ACTIONS, not rejected
 * (it gave the amount back) nor reversed (a chargeback whose dispute was won).
 */
export function usesUpAmount(status: string, action: string = "refund"): boolean {
  return status !== "rejected" && status !== "reversed" && (AMOUNT_ACTIONS as readonly string[]).includes(action);
}

/** A refund returns money paid: only a completed transaction can be refunded. */
export function canRefund(status: string): boolean {
  return status === "completed";
}

/** A credit lowers what is owed on an issued invoice: manually-collected, billed or past due. */
export function canCredit(status: string, collectionMode: string): boolean {
  return collectionMode === "manual" && (status === "billed" || status === "past_due");
}

/** An amount as net, tax and total (total = net + tax). `subtotal` is the net amount. */
export interface Split {
  subtotal: Minor;
  tax: Minor;
  total: Minor;
}

export function addSplits(splits: readonly Split[]): Split {
  return {
    subtotal: sum(splits.map((s) => s.subtotal)),
    tax: sum(splits.map((s) => s.tax)),
    total: sum(splits.map((s) => s.total)),
  };
}

/** A transaction line as charged (from `details.line_items[]`). */
export interface ChargedLine {
  /** The line item's `txnitm_` ID. */
  id: string;
  /** The line's tax rate as a decimal string (`"0.2"`). */
  taxRate: string;
  /** The line's `totals.total` and `totals.tax`. */
  total: Minor;
  tax: Minor;
}

/** What a line was charged, as net, tax and total. */
export function charged(line: ChargedLine): Split {
  return { subtotal: line.total - line.tax, tax: line.tax, total: line.total };
}

/** What is left of `line` after `earlier` adjustment items on it (of adjustments not rejected). */
export function leftOn(line: ChargedLine, earlier: readonly Split[]): Split {
  const used = addSplits(earlier);
  const c = charged(line);
  return { subtotal: c.subtotal - used.subtotal, tax: c.tax - used.tax, total: c.total - used.total };
}

/** One item of a request: the line it is for, its type and (partial, tax) its amount. */
export interface ItemRequest {
  type: AdjustmentItemType;
  amount: Minor | null;
}

/**
 * The net, tax and total an item takes from its line, checked against what is left of it
 * (`left`). Problems are `invalid_field` errors on `field` (the item's `amount` or `type`).
 */
export function adjustItem(
  request: ItemRequest,
  line: ChargedLine,
  left: Split,
  taxMode: AdjustmentTaxMode,
  field: string,
): Split {
  const amountField = `${field}.amount`;
  if (left.total <= 0n) {
    throw invalidField(`${field}.item_id`, `${line.id} has already been fully adjusted: nothing is left of it`);
  }
  if (request.type === "proration") {
    throw invalidField(
      `${field}.type`,
      "proration items are made by the service for subscription changes; send full, partial or tax",
    );
  }
  if (request.type === "full") {
    if (request.amount !== null && request.amount !== left.total) {
      throw invalidField(
        amountField,
        `must be left out of a full item, or be what is left of ${line.id}: ${formatAmount(left.total)}`,
      );
    }
    return { ...left };
  }
  const amount = request.amount;
  if (amount === null) throw invalidField(amountField, `is required for a ${request.type} item`);
  if (amount <= 0n) throw invalidField(amountField, "must be more than zero");

  if (request.type === "tax") {
    if (left.tax <= 0n) throw invalidField(`${field}.type`, `${line.id} has no tax left to adjust`);
    if (amount > left.tax) {
      throw invalidField(
        amountField,
        `is more than the tax left to adjust on ${line.id}: ${formatAmount(left.tax)} is left`,
      );
    }
    return { subtotal: 0n, tax: amount, total: amount };
  }

  const rate = parseDecimal(line.taxRate, "tax_rate");
  if (taxMode === "internal") {
    if (amount > left.total) {
      throw invalidField(
        amountField,
        `is more than what is left to adjust on ${line.id}: ${formatAmount(left.total)} is left`,
      );
    }
    if (amount === left.total) return { ...left };
    const share = ratio(rate.numerator, rate.denominator + rate.numerator);
    const tax = clamp(multiplyRound(amount, share), amount - left.subtotal, left.tax);
    return { subtotal: amount - tax, tax, total: amount };
  }
  if (amount > left.subtotal) {
    throw invalidField(
      amountField,
      `is more than the amount before tax left to adjust on ${line.id}: ${formatAmount(left.subtotal)} is left`,
    );
  }
  if (amount === left.subtotal) return { ...left };
  const tax = clamp(multiplyRound(amount, rate), 0n, left.tax);
  return { subtotal: amount, tax, total: amount + tax };
}

function clamp(value: Minor, low: Minor, high: Minor): Minor {
  return minOf(maxOf(value, low), high);
}

/**
 * The fee share of an adjustment returning `now` of a transaction whose lines total `total` and
 * that paid `fee`, after earlier adjustments returned `before` (see the top of this file).
 */
export function feeShare(fee: Minor, total: Minor, before: Minor, now: Minor): Minor {
  if (fee <= 0n || total <= 0n) return 0n;
  const upTo = (amount: Minor) => roundHalfAwayFromZero(fee * minOf(amount, total), total);
  return upTo(before + now) - upTo(before);
}

/** An adjustment's totals, exact. */
export interface AdjustmentAmounts extends Split {
  fee: Minor;
  retainedFee: Minor;
  earnings: Minor;
  /**
   * Chargebacks: the processor's dispute fee (Stripe's 15.00), in the payout currency; outside
   * `earnings`, as the API family reports it. Absent (0) for the other actions.
   */
  chargebackFee?: Minor;
}

/**
 * The totals of an adjustment of `items`: their sum, the fee share (when the transaction paid a
 * fee: `fee` not null) and the earnings it takes back.
 */
export function adjustmentAmounts(
  items: readonly Split[],
  transaction: { total: Minor; fee: Minor | null; adjustedBefore: Minor; processorKeepsFee?: boolean },
): AdjustmentAmounts {
  const split = addSplits(items);
  const fee =
    transaction.fee === null
      ? 0n
      : feeShare(transaction.fee, transaction.total, transaction.adjustedBefore, split.total);
  const retainedFee = transaction.processorKeepsFee ? fee : 0n;
  return { ...split, fee, retainedFee, earnings: split.subtotal - fee + retainedFee };
}

export interface TaxRateUsedTotals {
  tax_rate: string;
  totals: { subtotal: string; tax: string; total: string };
}

/** The items grouped by their line's tax rate, in order of first use. */
export function taxRatesUsed(items: readonly { rate: string; split: Split }[]): TaxRateUsedTotals[] {
  const byRate = new Map<string, Split[]>();
  for (const item of items) byRate.set(item.rate, [...(byRate.get(item.rate) ?? []), item.split]);
  return [...byRate].map(([rate, splits]) => ({ tax_rate: rate, totals: wireSplit(addSplits(splits)) }));
}

export function wireSplit(split: Split): { subtotal: string; tax: string; total: string } {
  return { subtotal: formatAmount(split.subtotal), tax: formatAmount(split.tax), total: formatAmount(split.total) };
}

// ---------------------------------------------------------------------------------------------
// The transaction after its adjustments

export interface AdjustedTotals {
  subtotal: string;
  tax: string;
  total: string;
  grand_total: string;
  grand_total_tax: string;
  fee: string | null;
  retained_fee: string;
  earnings: string | null;
  currency_code: string;
}

export interface AdjustedPayoutTotals {
  subtotal: string;
  tax: string;
  total: string;
  fee: string;
  retained_fee: string;
  chargeback_fee: { amount: string; original: null };
  earnings: string;
  currency_code: string;
  /** The payout's (`payout_totals.exchange_rate`): "1", payouts are in the transaction's currency. */
  exchange_rate: string;
}

const minus = (text: string, amount: Minor) => formatAmount(parseAmount(text) - amount);
const minusFloor0 = (text: string, amount: Minor) => formatAmount(maxOf(parseAmount(text) - amount, 0n));

/**
 * `details.adjusted_totals`: the totals less the sum of the approved adjustments. `subtotal` is
 * before discount in `totals`, and an adjustment's subtotal is after discount, so `subtotal −
 * discount + tax = total` keeps holding (a discounted transaction refunded in full keeps its
 * discount as adjusted subtotal, with tax and total 0). Fee and earnings stay null until the
 * transaction is completed. The grand totals do not go below zero (credit from the balance paid
 * part of it).
 */
export function adjustedTotals(totals: TransactionTotals, approved: AdjustmentAmounts): AdjustedTotals {
  return {
    subtotal: minus(totals.subtotal, approved.subtotal),
    tax: minus(totals.tax, approved.tax),
    total: minus(totals.total, approved.total),
    grand_total: minusFloor0(totals.grand_total, approved.total),
    grand_total_tax: minusFloor0(totals.grand_total_tax, approved.tax),
    fee: totals.fee === null ? null : minus(totals.fee, approved.fee),
    retained_fee: formatAmount(approved.retainedFee),
    earnings: totals.earnings === null ? null : minus(totals.earnings, approved.earnings),
    currency_code: totals.currency_code,
  };
}

/**
 * `details.adjusted_payout_totals`: null until the transaction has payout totals (completed) and an
 * approved adjustment (`approved` null: none), as the API family sends it; then the payout less the
 * adjustments, converted at the payout's exchange rate (one rounding per figure, half away from
 * zero; "1" — the sandbox, or a Stripe payout in the transaction's currency — changes nothing).
 */
export function adjustedPayoutTotals(
  payout: PayoutTotals | null,
  approved: AdjustmentAmounts | null,
): AdjustedPayoutTotals | null {
  if (!payout || !approved) return null;
  const rate = parseDecimal(payout.exchange_rate || "1", "exchange_rate");
  const convert = (amount: Minor) => multiplyRound(amount, rate);
  return {
    subtotal: minus(payout.subtotal, convert(approved.subtotal)),
    tax: minus(payout.tax, convert(approved.tax)),
    total: minus(payout.total, convert(approved.total)),
    fee: minus(payout.fee, convert(approved.fee)),
    retained_fee: formatAmount(convert(approved.retainedFee)),
    chargeback_fee: { amount: formatAmount(approved.chargebackFee ?? 0n), original: null },
    earnings: minus(payout.earnings, convert(approved.earnings)),
    currency_code: payout.currency_code,
    exchange_rate: payout.exchange_rate,
  };
}
