/** A manual invoice paid outside the checkout (offline, wire transfer), recorded by the merchant. */

import { randomUUID } from "node:crypto";
import type { Payment, PaymentMethodType } from "../../billing/payments.ts";
import { canMarkPaid } from "../../billing/transaction-states.ts";
import { transactionEntity } from "../../db/entities/transaction.ts";
import { getJson, type RawJson, sqlTransaction } from "../../db/sql.ts";
import { ApiError, notFound } from "../../errors.ts";
import type { MarkPaidInput } from "../../schemas/payment.ts";
import type { Transaction, TransactionInclude } from "../../schemas/transaction.ts";
import { alreadyPaid, completeWithPayment, lockForPayment, nowText } from "./completion.ts";

// ---------------------------------------------------------------------------------------------
// Manual invoices

/**
 * Records that a billed or past-due manual invoice was paid outside the checkout (offline, or by
 * wire transfer): a captured payment of what is due, then the same completion as a card payment.
 */
export async function markPaid(
  id: string,
  input: MarkPaidInput,
  include?: readonly TransactionInclude[],
): Promise<RawJson<Transaction>> {
  const method: PaymentMethodType = input?.method ?? "offline";
  return sqlTransaction(async (client) => {
    const stored = await lockForPayment(client, id);
    if (stored.status === "completed" || stored.status === "paid") throw alreadyPaid(id);
    if (!canMarkPaid(stored)) {
      throw new ApiError(
        "transaction_not_payable",
        stored.collection_mode === "manual"
          ? `Transaction ${id} is ${stored.status}: only a billed or past-due invoice can be marked as paid.`
          : `Transaction ${id} is automatically collected (and ${stored.status}): only manually-collected invoices are marked as paid; its customer pays at checkout.`,
      );
    }
    const now = await nowText(client);
    const payment: Payment = {
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: randomUUID(),
      payment_method_id: null,
      amount: stored.details.totals.balance,
      status: "captured",
      error_code: null,
      method_details: { type: method, underlying_details: null, card: null, reference: input?.reference ?? null },
      created_at: now,
      captured_at: now,
    };
    await completeWithPayment(client, stored, payment);
    const written = await getJson(transactionEntity(include), "t.id = $1", [id], client);
    if (!written) throw notFound(id);
    return written;
  });
}
