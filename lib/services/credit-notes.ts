/**
 * Credit notes: the PDF record of an approved refund or credit (GET /adjustments/{adjustment_id}/
 * credit-note, as the API family has it: a signed link valid for one hour, like the invoice's),
 * generated on request from the stored adjustment, its transaction and the merchant's details.
 *
 * Numbering (the API family is silent on it). A credit note is an accounting document, so it has
 * its own gapless sequence per merchant, CN-000001, CN-000002 … (prefix BILLING_CREDIT_NOTE_PREFIX),
 * taken when the adjustment is approved (lib/services/adjustments/outcomes.ts) and stored on the adjustment
 * row (`credit_note_number`): the number never changes, even if the prefix does later. It is not a
 * field of the adjustment entity (the family has none); it is printed on the PDF and in its file name.
 */

import { ADJUSTMENT } from "../db/entities/adjustment.ts";
import { jsonObject, query } from "../db/sql.ts";
import { creditNoteFileName, renderCreditNotePdf } from "../documents/credit-note.ts";
import { creditNoteDataFromAdjustment, creditNoteUnavailableReason } from "../documents/credit-note-data.ts";
import type { InvoiceTransaction } from "../documents/invoice-data.ts";
import { ApiError, notFound } from "../errors.ts";
import type { Adjustment } from "../schemas/adjustment.ts";
import type { Disposition } from "../schemas/document.ts";
import { documentUrl, merchantDetails } from "./documents.ts";
import { getTransaction } from "./transactions/get.ts";

interface NumberedAdjustment {
  adjustment: Adjustment;
  creditNoteNumber: string | null;
}

/** The adjustment (404 if unknown) with the credit-note number it was given, if any. */
async function adjustmentWithNumber(adjustmentId: string): Promise<NumberedAdjustment> {
  const [row] = await query<{ j: string; credit_note_number: string | null }>(
    `SELECT ${jsonObject(ADJUSTMENT)}::text AS j, t.credit_note_number FROM adjustments t WHERE t.id = $1`,
    [adjustmentId],
  );
  if (!row) throw notFound(adjustmentId);
  return { adjustment: JSON.parse(row.j) as Adjustment, creditNoteNumber: row.credit_note_number };
}

/** The adjustment and its number, or the API error saying why it has no credit note. */
async function creditNoteAdjustment(adjustmentId: string): Promise<{ adjustment: Adjustment; number: string }> {
  const { adjustment, creditNoteNumber } = await adjustmentWithNumber(adjustmentId);
  const reason = creditNoteUnavailableReason(adjustment);
  if (reason) throw new ApiError("adjustment_credit_note_unavailable", reason);
  // Every approved refund and credit is numbered on approval (or by the migration): defensive.
  if (creditNoteNumber === null) {
    throw new ApiError("adjustment_credit_note_unavailable", `Adjustment ${adjustmentId} has no credit-note number.`);
  }
  return { adjustment, number: creditNoteNumber };
}

/** GET /adjustments/{adjustment_id}/credit-note: a link to the credit note PDF of an approved refund or credit. */
export async function creditNoteUrl(adjustmentId: string, disposition: Disposition) {
  await creditNoteAdjustment(adjustmentId);
  return documentUrl("credit_note", adjustmentId, disposition);
}

/** The credit note PDF of an adjustment (refused, as the link endpoint is, if it has none). */
export async function creditNotePdf(adjustmentId: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  const { adjustment, number } = await creditNoteAdjustment(adjustmentId);
  // The customer, address and business as they were when added to the transaction (or revised).
  const transaction = (
    await getTransaction(adjustment.transaction_id, ["customer", "address", "business"])
  ).parse() as InvoiceTransaction;
  const data = creditNoteDataFromAdjustment(adjustment, transaction, number, await merchantDetails());
  return { bytes: await renderCreditNotePdf(data), fileName: creditNoteFileName(data.creditNoteNumber) };
}
