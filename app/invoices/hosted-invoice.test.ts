/**
 * The hosted invoice page's data (lib/services/hosted-invoices.ts) and its link route
 * GET /transactions/{transaction_id}/invoice-link, plus the invoice preview route
 * GET /transactions/{transaction_id}/invoice-preview, on a real database.
 */
import { describe, expect, it } from "vitest";
import * as invoiceLinkRoute from "@/app/api/transactions/[transaction_id]/invoice-link/route";
import * as invoicePreviewRoute from "@/app/api/transactions/[transaction_id]/invoice-preview/route";
import { query } from "@/lib/db/sql";
import { type ApiResult, BASE, call, expectError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { pdfText } from "@/lib/dev/test/pdf";
import { MANUAL_TERMS, makeReady, transactions } from "@/lib/dev/test/transactions";
import { hostedInvoiceToken } from "@/lib/documents/hosted-invoice-links";
import { newId } from "@/lib/ids";
import { updateAccountSettings } from "@/lib/services/account-settings";
import { linkKey } from "@/lib/services/documents";
import { loadHostedInvoice } from "@/lib/services/hosted-invoices";
import { payAtCheckout } from "@/lib/services/payments/checkout";

type Entity = Record<string, any>;

async function makeBilled(enableCheckout = true): Promise<Entity> {
  const ready = await makeReady({
    collection_mode: "manual",
    billing_details: { ...MANUAL_TERMS, enable_checkout: enableCheckout },
  });
  const res = await transactions.update(ready.id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function link(id: string, key?: string): Promise<ApiResult> {
  return call(invoiceLinkRoute.GET, "GET", `/transactions/${id}/invoice-link`, {
    key: key ?? (await testKey(["transaction.read"])),
    params: { transaction_id: id },
  });
}

const tokenOf = (url: string) => new URL(url).pathname.split("/").at(-1) as string;

describe("GET /transactions/{transaction_id}/invoice-link", () => {
  it("links a billed invoice to its hosted page, valid 180 days", async () => {
    const billed = await makeBilled();
    const before = Date.now();
    const res = await link(billed.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = new URL(res.body.data.url);
    expect(url.origin).toBe("http://localhost:3000");
    expect(url.pathname).toMatch(new RegExp(`^/invoices/${billed.id}-\\d+-[0-9a-f]{64}$`));
    const days = (Date.parse(res.body.data.expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThan(179.9);
    expect(days).toBeLessThan(180.1);
  });

  it("refuses a transaction without an invoice (400), another permission (403), an unknown ID (404)", async () => {
    const ready = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    expectError(await link(ready.id), 400, "transaction_invoice_unavailable");
    const billed = await makeBilled();
    expectError(await link(billed.id, await testKey(["customer.read"])), 403, "forbidden");
    const missing = newId("txn");
    expectNotFound(await link(missing), missing);
    expectNotFound(await link("txn_nope"));
  });
});

describe("the hosted invoice page", () => {
  it("shows an open invoice with its PDF, card payment and bank-transfer instructions; paid once paid at checkout", async () => {
    await updateAccountSettings({ bank_transfer_instructions: "IBAN DE00 1234\nBIC TESTDEFF" });
    const billed = await makeBilled();
    const token = tokenOf((await link(billed.id)).body.data.url);
    const open = await loadHostedInvoice(token);
    if (!open.ok) throw new Error(open.problem);
    expect(open.view).toMatchObject({
      state: "open",
      transactionId: billed.id,
      invoiceNumber: billed.invoice_number,
      checkoutUrl: `http://localhost:3000/checkout?_ptxn=${billed.id}`,
      bankTransferInstructions: "IBAN DE00 1234\nBIC TESTDEFF",
    });
    expect(open.view.invoice.amountDue).toBe(billed.details.totals.balance);
    expect(open.view.pdfUrl).toContain(`/api/documents/invoices/${billed.id}?disposition=attachment`);

    await payAtCheckout(billed.id, {
      cardholder_name: "Sam Buyer",
      number: "4242 4242 4242 4242",
      expiry: "12/40",
      cvc: "123",
    });
    const paid = await loadHostedInvoice(token);
    if (!paid.ok) throw new Error(paid.problem);
    expect(paid.view).toMatchObject({ state: "paid", checkoutUrl: null, bankTransferInstructions: null });
    await updateAccountSettings({ bank_transfer_instructions: null });
  });

  it("offers no card payment when the invoice's checkout is off; shows a canceled invoice as canceled", async () => {
    const billed = await makeBilled(false);
    const token = tokenOf((await link(billed.id)).body.data.url);
    const view = await loadHostedInvoice(token);
    expect(view.ok && view.view.checkoutUrl).toBeNull();
    expect((await transactions.update(billed.id, { status: "canceled" })).status).toBe(200);
    const canceled = await loadHostedInvoice(token);
    expect(canceled.ok && canceled.view).toMatchObject({ state: "canceled", checkoutUrl: null, pdfUrl: null });
  });

  it("refuses tampered, foreign, expired and malformed links without throwing", async () => {
    const billed = await makeBilled();
    const other = await makeBilled();
    const token = tokenOf((await link(billed.id)).body.data.url);
    const [id, expires, signature] = [billed.id, token.split("-")[1], token.split("-")[2]];
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith("0") ? "1" : "0"}`;
    for (const bad of [
      `${id}-${expires}-${flipped}`,
      `${other.id}-${expires}-${signature}`,
      `${id}-${Number(expires) + 1}-${signature}`,
      id,
      "",
      "../../etc/passwd",
      `${id}-${expires}-${signature}x`,
      "x".repeat(10_000),
      null,
      { id },
    ]) {
      expect(await loadHostedInvoice(bad)).toEqual({ ok: false, problem: "invalid" });
    }
    const expired = hostedInvoiceToken({ transactionId: billed.id, expires: 1_000 }, await linkKey());
    expect(await loadHostedInvoice(expired)).toMatchObject({ ok: false, problem: "expired" });
    const missing = newId("txn");
    const unknown = hostedInvoiceToken({ transactionId: missing, expires: 4_000_000_000 }, await linkKey());
    expect(await loadHostedInvoice(unknown)).toEqual({ ok: false, problem: "not_found" });
  });
});

describe("GET /transactions/{transaction_id}/invoice-preview", () => {
  const preview = async (id: string, key?: string) => {
    const request = new Request(`${BASE}/transactions/${id}/invoice-preview`, {
      headers: { authorization: `Bearer ${key ?? (await testKey(["transaction.read"]))}` },
    });
    return invoicePreviewRoute.GET(request, { params: Promise.resolve({ transaction_id: id }) });
  };

  it("renders the would-be invoice of a ready manual transaction, stamped DRAFT, taking no number", async () => {
    const ready = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    const counters = () => query("SELECT * FROM invoice_number_counters ORDER BY 1");
    const before = await counters();
    const response = await preview(ready.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`inline; filename="invoice-preview-${ready.id}.pdf"`);
    const { text } = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain("DRAFT");
    expect(text).toContain("Preview (not issued)");
    expect(text).toContain("Net 30 days");
    const [row] = await query<{ status: string; invoice_number: string | null }>(
      "SELECT status, invoice_number FROM transactions WHERE id = $1",
      [ready.id],
    );
    expect(row).toEqual({ status: "ready", invoice_number: null });
    expect(await counters()).toEqual(before);
  });

  it("refuses a billed transaction (400), another permission (403), an unknown ID (404)", async () => {
    const billed = await makeBilled();
    const refused = await preview(billed.id);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe("transaction_invoice_unavailable");
    expect((await preview(billed.id, await testKey(["customer.read"]))).status).toBe(403);
    expect((await preview(newId("txn"))).status).toBe(404);
    expect((await preview("txn_<script>")).status).toBe(404);
  });
});
