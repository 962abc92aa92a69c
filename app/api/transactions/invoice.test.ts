/**
 * GET /transactions/{transaction_id}/invoice (a signed link to the invoice PDF, valid for an hour)
 * and the document route it points at, through the real route handlers on a real database.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as invoiceDocument from "@/app/api/documents/invoices/[transaction_id]/route";
import * as transactionInvoice from "@/app/api/transactions/[transaction_id]/invoice/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectNotFound, testKey } from "@/lib/dev/test/api";
import {
  documentLinkCaller,
  documentOpener,
  expectExpiredLinkRefused,
  expectPdf,
  expectSignedLink,
  withTamperedSignature,
} from "@/lib/dev/test/documents";
import { pdfText } from "@/lib/dev/test/pdf";
import { MANUAL_TERMS, makeBusiness, makeDiscount, makeReady, transactions } from "@/lib/dev/test/transactions";
import { updateAccountSettings } from "@/lib/services/account-settings";
import { loadHostedInvoice } from "@/lib/services/hosted-invoices";

type Entity = Record<string, any>;

const invoiceLink = documentLinkCaller(
  transactionInvoice.GET,
  "transaction_id",
  "transaction.read",
  (id) => `/transactions/${id}/invoice`,
);

const open = documentOpener(invoiceDocument.GET, "transaction_id");

async function makeManual(body: Entity = {}, country = "US"): Promise<Entity> {
  return makeReady(
    {
      collection_mode: "manual",
      billing_details: { ...MANUAL_TERMS, purchase_order_number: "PO-4471", additional_information: "Thanks!" },
      ...body,
    },
    country,
  );
}

async function bill(id: string): Promise<Entity> {
  const res = await transactions.update(id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function setting(key: string, value: string): Promise<void> {
  await query(
    "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    [key, value],
  );
}

afterEach(() => {
  delete process.env.PUBLIC_URL;
});

describe("GET /transactions/{transaction_id}/invoice", () => {
  it("links a billed manual invoice: an hour-long signed URL whose PDF holds the invoice", async () => {
    const ready = await makeManual();
    const billed = await bill(ready.id);
    const before = Math.floor(Date.now() / 1000);
    const res = await invoiceLink(billed.id);
    const url = expectSignedLink(res, `/api/documents/invoices/${billed.id}`, before);
    expect(url.origin).toBe("http://localhost:3000");
    expect(url.searchParams.get("signature")).toMatch(/^[0-9a-f]{64}$/);

    const doc = await open(res.body.data.url);
    expectPdf(doc, `attachment; filename="invoice-${billed.invoice_number}.pdf"`);
    const { text } = await pdfText(doc.bytes);
    for (const expected of [
      "Your company",
      billed.invoice_number,
      "Sam Buyer",
      "Net 30 days",
      "PO-4471",
      "Thanks!",
      "Product",
      "$10.00",
      "Amount due (USD) $10.00",
      "United States",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain("PAID");
  });

  it("uses the merchant's details and the business from the settings and the transaction's snapshot", async () => {
    await setting("merchant_name", "Northwind Software Ltd");
    await setting("merchant_address", "12 Market Street\nLondon EC1A 1BB");
    await setting("merchant_tax_number", "GB123456789");
    await setting("merchant_email", "billing@northwind.example");
    const ready = await makeManual();
    const business = await makeBusiness(ready.customer_id, {
      name: "Müller & Söhne GmbH",
      company_number: "HRB 12345",
      tax_identifier: "DE987654321",
    });
    expect((await transactions.update(ready.id, { business_id: business.id })).status).toBe(200);
    const billed = await bill(ready.id);
    const { text } = await pdfText((await open((await invoiceLink(billed.id)).body.data.url)).bytes);
    for (const expected of [
      "Northwind Software Ltd",
      "12 Market Street",
      "London EC1A 1BB",
      "Tax number: GB123456789",
      "billing@northwind.example",
      "Müller & Söhne GmbH",
      "Attn: Sam Buyer",
      "Company number: HRB 12345",
      "Tax ID: DE987654321",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain("Your company");
    await query("DELETE FROM settings WHERE key LIKE 'merchant_%'");
  });

  it("names the discount by its code, never its internal description, and shows the tax per rate", async () => {
    const discount = await makeDiscount({ description: "Launch offer", code: "LAUNCH20" });
    const ready = await makeManual({ discount_id: discount.id }, "GB");
    const billed = await bill(ready.id);
    const { text } = await pdfText((await open((await invoiceLink(billed.id)).body.data.url)).bytes);
    expect(text).toContain("Discount (LAUNCH20) -$1.00");
    expect(text).not.toContain("Launch offer");
    expect(text).toContain("Tax 20% on $9.00 $1.80");
    expect(text).toContain("Total $10.80");
    expect(text).toContain("Amount due (USD) $10.80");
    expect(text).toContain("United Kingdom");
  });

  it("says how to pay: the settings' bank details and a Pay online link that opens the hosted invoice", async () => {
    await updateAccountSettings({ bank_transfer_instructions: "IBAN GB33 BUKB 2020 1555 5555 55\nBIC BUKBGB22" });
    const billed = await bill((await makeManual()).id);
    // One PDF: each one made carries a link of its own (its expiry counts from when it is made).
    const bytes = (await open((await invoiceLink(billed.id)).body.data.url)).bytes;
    const { text } = await pdfText(bytes);
    expect(text).toContain("HOW TO PAY Bank transfer IBAN GB33 BUKB 2020 1555 5555 55 BIC BUKBGB22");
    expect(text).toContain("Pay online");
    // The link is a clickable annotation, and printed whole (wrapped over lines) for typing.
    const link = /\/URI \((http[^)]+)\)/.exec(Buffer.from(bytes).toString("latin1"))?.[1] ?? "";
    expect(link).toMatch(new RegExp(`^http://localhost:3000/invoices/${billed.id}-\\d+-[0-9a-f]{64}$`));
    expect(text.replace(/\s+/g, "")).toContain(link);
    const page = await loadHostedInvoice(link.split("/").at(-1));
    expect(page.ok && page.view.state).toBe("open");

    // Paid: nothing to pay, so no instructions and no link.
    await query("UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = $1", [billed.id]);
    const paid = await pdfText((await open((await invoiceLink(billed.id)).body.data.url)).bytes);
    expect(paid.text).not.toContain("HOW TO PAY");
    expect(paid.text).not.toContain("BUKBGB22");
    await updateAccountSettings({ bank_transfer_instructions: null });
  });

  it("takes disposition inline, and refuses another value with a field error", async () => {
    const billed = await bill((await makeManual()).id);
    const res = await invoiceLink(billed.id, "?disposition=inline");
    expect(res.status).toBe(200);
    expect(new URL(res.body.data.url).searchParams.get("disposition")).toBe("inline");
    const doc = await open(res.body.data.url);
    expect(doc.headers.get("content-disposition")).toBe(`inline; filename="invoice-${billed.invoice_number}.pdf"`);
    const bad = await invoiceLink(billed.id, "?disposition=download");
    expect(expectError(bad, 400, "invalid_field").errors?.[0]?.field).toBe("disposition");
  });

  it("links on PUBLIC_URL when it is set", async () => {
    process.env.PUBLIC_URL = "https://billing.example.com/";
    const billed = await bill((await makeManual()).id);
    const res = await invoiceLink(billed.id);
    expect(res.body.data.url).toMatch(
      new RegExp(`^https://billing\\.example\\.com/api/documents/invoices/${billed.id}\\?`),
    );
  });

  it("marks a completed invoice paid; an automatically-collected one has an invoice once completed", async () => {
    const billed = await bill((await makeManual()).id);
    await query("UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = $1", [billed.id]);
    const paid = await pdfText((await open((await invoiceLink(billed.id)).body.data.url)).bytes);
    expect(paid.text).toContain("PAID");
    expect(paid.text).toContain("Amount paid (USD) $10.00");

    const automatic = await makeReady();
    expectError(await invoiceLink(automatic.id), 400, "transaction_invoice_unavailable");
    await query(
      "UPDATE transactions SET status = 'completed', completed_at = now(), billed_at = now(), invoice_number = 'INV-AUTO-1' WHERE id = $1",
      [automatic.id],
    );
    const res = await invoiceLink(automatic.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const auto = await pdfText((await open(res.body.data.url)).bytes);
    expect(auto.text).toContain("INV-AUTO-1");
    expect(auto.text).toContain("PAID");
    expect(auto.text).not.toContain("Due date");
  });

  it("has an invoice for past_due manual transactions too", async () => {
    const billed = await bill((await makeManual()).id);
    await query("UPDATE transactions SET status = 'past_due' WHERE id = $1", [billed.id]);
    expect((await invoiceLink(billed.id)).status).toBe(200);
  });

  it("refuses draft, ready and canceled transactions with 400 transaction_invoice_unavailable", async () => {
    const ready = await makeManual();
    const error = expectError(await invoiceLink(ready.id), 400, "transaction_invoice_unavailable");
    expect(error.detail).toContain(ready.id);
    expect(error.detail).toContain("ready");
    await query("UPDATE transactions SET status = 'draft' WHERE id = $1", [ready.id]);
    expectError(await invoiceLink(ready.id), 400, "transaction_invoice_unavailable");
    const billed = await bill((await makeManual()).id);
    expect((await transactions.update(billed.id, { status: "canceled" })).status).toBe(200);
    expect(expectError(await invoiceLink(billed.id), 400, "transaction_invoice_unavailable").detail).toContain(
      "canceled",
    );
  });

  it("refuses a zero-value transaction", async () => {
    const billed = await bill((await makeManual()).id);
    await query(
      `UPDATE transactions SET details = jsonb_set(jsonb_set(details::jsonb, '{totals,total}', '"0"'), '{totals,grand_total}', '"0"')
        WHERE id = $1`,
      [billed.id],
    );
    expect(expectError(await invoiceLink(billed.id), 400, "transaction_invoice_unavailable").detail).toContain(
      "zero-value",
    );
  });

  it("needs transaction.read (403), a key (401), and an existing transaction (404)", async () => {
    const billed = await bill((await makeManual()).id);
    const forbidden = expectError(await invoiceLink(billed.id, "", await testKey(["customer.read"])), 403, "forbidden");
    expect(forbidden.detail).toContain("transaction.read");
    expectError(await invoiceLink(billed.id, "", null), 401, "invalid_token");
    const missing = "txn_01hv8x00000000000000000000";
    expectNotFound(await invoiceLink(missing), missing);
    expectNotFound(await invoiceLink("txn_nope"));
  });

  it("answers 405 to other methods", async () => {
    const res = await call(transactionInvoice.POST, "POST", "/transactions/x/invoice", { key: await testKey() });
    expectError(res, 405, "method_not_allowed");
  });
});

describe("GET /documents/invoices/{transaction_id} (signed link)", () => {
  it("refuses a tampered signature, another transaction's link and a changed disposition with 403", async () => {
    const first = await bill((await makeManual()).id);
    const second = await bill((await makeManual()).id);
    const url = new URL((await invoiceLink(first.id)).body.data.url);

    const refused = await open(withTamperedSignature(url).toString());
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toContain("application/json");
    expect(refused.body.error.code).toBe("document_link_invalid");
    expect(refused.body.error.type).toBe("request_error");
    expect(typeof refused.body.meta.request_id).toBe("string");

    const otherId = new URL(url);
    otherId.pathname = `/api/documents/invoices/${second.id}`;
    expect((await open(otherId.toString())).body.error.code).toBe("document_link_invalid");

    const inline = new URL(url);
    inline.searchParams.set("disposition", "inline");
    expect((await open(inline.toString())).body.error.code).toBe("document_link_invalid");

    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expect((await open(later.toString())).body.error.code).toBe("document_link_invalid");

    const bare = new URL(url);
    bare.search = "";
    expect((await open(bare.toString())).status).toBe(403);
  });

  it("refuses an expired link with 410 document_link_expired", async () => {
    const billed = await bill((await makeManual()).id);
    await expectExpiredLinkRefused(open, "invoice", billed.id);
  });

  it("needs no API key, and ignores credentials sent along (a stale dashboard cookie, a bad key)", async () => {
    const billed = await bill((await makeManual()).id);
    const { url } = (await invoiceLink(billed.id)).body.data;
    const res = await open(url, {
      authorization: "Bearer not-a-key",
      cookie: "next-auth.session-token=stale",
      "sec-fetch-site": "cross-site",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
  });

  it("refuses the PDF once the transaction has no invoice any more (canceled after the link was made)", async () => {
    const billed = await bill((await makeManual()).id);
    const { url } = (await invoiceLink(billed.id)).body.data;
    expect((await transactions.update(billed.id, { status: "canceled" })).status).toBe(200);
    const res = await open(url);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("transaction_invoice_unavailable");
  });
});
