/**
 * GET /adjustments/{adjustment_id}/credit-note (a signed link to the credit note PDF, valid for an
 * hour), the document route it points at, and credit-note numbering, through the real route
 * handlers on a real database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as adjustmentCreditNote from "@/app/api/adjustments/[adjustment_id]/credit-note/route";
import * as adjustmentCollection from "@/app/api/adjustments/route";
import * as creditNoteDocument from "@/app/api/documents/credit-notes/[adjustment_id]/route";
import { query } from "@/lib/db/sql";
import { completeByPayment } from "@/lib/dev/test/adjustments";
import { call, expectError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, permissionsWithout } from "@/lib/dev/test/checks";
import {
  documentLinkCaller,
  documentOpener,
  expectExpiredLinkRefused,
  expectPdf,
  expectSignedLink,
  withTamperedSignature,
} from "@/lib/dev/test/documents";
import { pdfText } from "@/lib/dev/test/pdf";
import { admin } from "@/lib/dev/test/resource";
import { MANUAL_TERMS, makeBuyer, makePrice, makeTransaction, transactions } from "@/lib/dev/test/transactions";
import { documentUrl } from "@/lib/services/documents";

type Entity = Record<string, any>;

const creditNoteLink = documentLinkCaller(
  adjustmentCreditNote.GET,
  "adjustment_id",
  "adjustment.read",
  (id) => `/adjustments/${id}/credit-note`,
);

const open = documentOpener(creditNoteDocument.GET, "adjustment_id");

let price: Entity;

beforeAll(async () => {
  // 10.00 net + 20% UK VAT = 12.00 a unit.
  price = await makePrice({
    name: "Annual plan",
    unit_price: { amount: "1000", currency_code: "USD" },
  });
});

/** A manual invoice (two units of 12.00 for a buyer in GB), billed: it has an invoice number. */
async function makeBilled(): Promise<Entity> {
  const { customer, address } = await makeBuyer("GB");
  const t = await makeTransaction({
    items: [{ price_id: price.id, quantity: 2 }],
    customer_id: customer.id,
    address_id: address.id,
    collection_mode: "manual",
    billing_details: MANUAL_TERMS,
  });
  const res = await transactions.update(t.id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function makeCompleted(): Promise<Entity> {
  const billed = await makeBilled();
  await completeByPayment(billed.id);
  return (await transactions.get(billed.id)).body.data;
}

async function adjust(body: Record<string, unknown>): Promise<Entity> {
  const res = await call(adjustmentCollection.POST, "POST", "/adjustments", { key: await admin(), body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function partialRefund(t: Entity, amount = "600", reason = "Customer returned one seat"): Promise<Entity> {
  return adjust({
    action: "refund",
    transaction_id: t.id,
    reason,
    items: [{ item_id: t.details.line_items[0].id, type: "partial", amount }],
  });
}

async function numberOf(adjustmentId: string): Promise<string | null> {
  const [row] = await query<{ n: string | null }>("SELECT credit_note_number AS n FROM adjustments WHERE id = $1", [
    adjustmentId,
  ]);
  return row!.n;
}

describe("credit-note numbers", () => {
  it("numbers approved refunds and credits from one gapless sequence, CN- and six digits", async () => {
    const completed = await makeCompleted();
    const refund = await partialRefund(completed, "100");
    const credit = await adjust({
      action: "credit",
      transaction_id: (await makeBilled()).id,
      reason: "Goodwill",
      type: "full",
    });
    const first = await numberOf(refund.id);
    const second = await numberOf(credit.id);
    expect(first).toMatch(/^CN-\d{6,}$/);
    expect(Number(second?.slice(3))).toBe(Number(first?.slice(3)) + 1);
    // The number is not a field of the adjustment entity (the API family has none).
    expect(Object.keys(refund)).not.toContain("credit_note_number");
  });

  it("starts numbers with BILLING_CREDIT_NOTE_PREFIX when it is set", async () => {
    process.env.BILLING_CREDIT_NOTE_PREFIX = "ACME-CR-";
    try {
      const refund = await partialRefund(await makeCompleted(), "100");
      expect(await numberOf(refund.id)).toMatch(/^ACME-CR-\d{6,}$/);
    } finally {
      delete process.env.BILLING_CREDIT_NOTE_PREFIX;
    }
  });

  it("uses no number for a refused adjustment", async () => {
    const completed = await makeCompleted();
    const before = await partialRefund(completed, "100");
    const refused = await call(adjustmentCollection.POST, "POST", "/adjustments", {
      key: await admin(),
      body: { action: "credit", transaction_id: completed.id, reason: "No", type: "full" },
    });
    expect(refused.status).toBe(400);
    const after = await partialRefund(completed, "100");
    expect(Number((await numberOf(after.id))?.slice(3))).toBe(Number((await numberOf(before.id))?.slice(3)) + 1);
  });
});

describe("GET /adjustments/{adjustment_id}/credit-note", () => {
  it("links an approved refund: an hour-long signed URL whose PDF holds the credit note", async () => {
    const completed = await makeCompleted();
    const refund = await partialRefund(completed);
    const number = await numberOf(refund.id);
    const before = Math.floor(Date.now() / 1000);
    const res = await creditNoteLink(refund.id);
    expectSignedLink(res, `/api/documents/credit-notes/${refund.id}`, before);

    const doc = await open(res.body.data.url);
    expectPdf(doc, `attachment; filename="credit-note-${number}.pdf"`);
    const { text } = await pdfText(doc.bytes);
    for (const expected of [
      "Credit note",
      `Credit note number ${number}`,
      `Original invoice ${completed.invoice_number}`,
      completed.id,
      "Refund to the original payment method",
      "Customer returned one seat",
      "Sam Buyer",
      "United Kingdom",
      "Annual plan",
      // 6.00 refunded: 5.00 net and 1.00 of VAT at 20%.
      "Total credited (USD) $6.00",
      "$5.00",
      "$1.00",
      `reduces the amount of invoice ${completed.invoice_number} by $6.00`,
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it("links a credit of an issued invoice too, and takes disposition inline", async () => {
    const billed = await makeBilled();
    const credit = await adjust({ action: "credit", transaction_id: billed.id, reason: "Goodwill", type: "full" });
    const res = await creditNoteLink(credit.id, "?disposition=inline");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const doc = await open(res.body.data.url);
    expect(doc.headers.get("content-disposition")).toBe(
      `inline; filename="credit-note-${await numberOf(credit.id)}.pdf"`,
    );
    const { text } = await pdfText(doc.bytes);
    expect(text).toContain("Credit to the customer's balance");
    expect(text).toContain("Total credited (USD) $24.00");
    // A full credit gives back whole units.
    expect(text).toMatch(/Annual plan[^$]*2 \$20\.00/);
    const bad = await creditNoteLink(credit.id, "?disposition=download");
    expect(expectError(bad, 400, "invalid_field").errors?.[0]?.field).toBe("disposition");
  });

  it("refuses pending, rejected and chargeback adjustments with 400 adjustment_credit_note_unavailable", async () => {
    const refund = await partialRefund(await makeCompleted(), "100");
    await query("UPDATE adjustments SET status = 'pending_approval', credit_note_number = NULL WHERE id = $1", [
      refund.id,
    ]);
    const pending = expectError(await creditNoteLink(refund.id), 400, "adjustment_credit_note_unavailable");
    expect(pending.detail).toContain(refund.id);
    expect(pending.detail).toContain("pending approval");
    await query("UPDATE adjustments SET status = 'rejected' WHERE id = $1", [refund.id]);
    expect(expectError(await creditNoteLink(refund.id), 400, "adjustment_credit_note_unavailable").detail).toContain(
      "rejected",
    );
    await query("UPDATE adjustments SET status = 'approved', action = 'chargeback' WHERE id = $1", [refund.id]);
    expect(expectError(await creditNoteLink(refund.id), 400, "adjustment_credit_note_unavailable").detail).toContain(
      "only refunds and credits",
    );
  });

  it("needs adjustment.read (403), a key (401), and an existing adjustment (404)", async () => {
    const refund = await partialRefund(await makeCompleted(), "100");
    const forbidden = expectError(
      await creditNoteLink(refund.id, "", await testKey(permissionsWithout("adjustment."))),
      403,
      "forbidden",
    );
    expect(forbidden.detail).toContain("adjustment.read");
    expectError(await creditNoteLink(refund.id, "", null), 401, "invalid_token");
    const missing = "adj_01hv8x00000000000000000000";
    expectNotFound(await creditNoteLink(missing), missing);
    expectNotFound(await creditNoteLink("adj_nope"));
  });

  it("answers 405 to other methods", async () => {
    await expectMethodsNotAllowed(
      adjustmentCreditNote,
      ["POST", "PUT", "PATCH", "DELETE"],
      "/adjustments/adj_01hv8x00000000000000000000/credit-note",
    );
  });
});

describe("GET /documents/credit-notes/{adjustment_id} (signed link)", () => {
  it("refuses a tampered signature, an invoice link's signature and another adjustment's link with 403", async () => {
    const completed = await makeCompleted();
    const first = await partialRefund(completed, "100");
    const second = await partialRefund(completed, "100");
    const url = new URL((await creditNoteLink(first.id)).body.data.url);

    const refused = await open(withTamperedSignature(url).toString());
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("document_link_invalid");

    const otherId = new URL(url);
    otherId.pathname = `/api/documents/credit-notes/${second.id}`;
    expect((await open(otherId.toString())).body.error.code).toBe("document_link_invalid");

    // A link signed for an invoice of the same ID does not open a credit note.
    const asInvoice = new URL((await documentUrl("invoice", first.id, "attachment")).url);
    asInvoice.pathname = `/api/documents/credit-notes/${first.id}`;
    expect((await open(asInvoice.toString())).body.error.code).toBe("document_link_invalid");

    const bare = new URL(url);
    bare.search = "";
    expect((await open(bare.toString())).status).toBe(403);
  });

  it("refuses an expired link with 410 document_link_expired", async () => {
    const refund = await partialRefund(await makeCompleted(), "100");
    await expectExpiredLinkRefused(open, "credit_note", refund.id);
  });
});
