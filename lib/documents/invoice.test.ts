import { describe, expect, it } from "vitest";
import { pdfText } from "../dev/test/pdf.ts";
import { creditNoteFileName, renderCreditNotePdf } from "./credit-note.ts";
import { type InvoiceData, type InvoiceLine, invoiceFileName, renderInvoicePdf } from "./invoice.ts";

const merchant = {
  name: "Northwind Software Ltd",
  address: "12 Market Street\nLondon EC1A 1BB\nUnited Kingdom",
  taxNumber: "GB123456789",
  email: "billing@northwind.example",
};

const billTo = {
  name: "Sam Buyer",
  email: "sam@example.com",
  businessName: "Acme Ltd",
  companyNumber: "01234567",
  taxIdentifier: "GB999888777",
  addressLines: ["1 High Street", "SW1A 1AA London", "United Kingdom"],
};

function line(n: number, overrides: Partial<InvoiceLine> = {}): InvoiceLine {
  return {
    description: `Widget ${n}`,
    detail: null,
    quantity: 1,
    unitPrice: "1000",
    taxRate: "0.2",
    amount: "1000",
    ...overrides,
  };
}

function invoice(overrides: Partial<InvoiceData> = {}): InvoiceData {
  return {
    invoiceNumber: "INV-000123",
    transactionId: "txn_01hv8x00000000000000000000",
    currency: "GBP",
    issuedAt: "2026-11-22T10:00:00.000000Z",
    dueAt: "2026-12-22T10:00:00.000Z",
    paymentTerms: { interval: "day", frequency: 30 },
    purchaseOrderNumber: "PO-7781",
    additionalInformation: "Bank transfer to sort code 12-34-56.",
    billingPeriod: null,
    merchant,
    billTo,
    lines: [
      line(1, {
        description: "Analytics Pro",
        detail: "Annual licence",
        quantity: 2,
        unitPrice: "10000",
        amount: "20000",
      }),
      line(2, { description: "Training day", taxRate: "0.05", unitPrice: "50050", amount: "50050" }),
    ],
    taxRates: [
      { rate: "0.2", taxable: "19000", tax: "3800" },
      { rate: "0.05", taxable: "50050", tax: "2503" },
    ],
    totals: {
      subtotal: "70050",
      discount: "1000",
      tax: "6303",
      total: "75353",
      credit: "0",
      grandTotal: "75353",
    },
    amountPaid: "0",
    amountDue: "75353",
    paid: false,
    ...overrides,
  };
}

describe("invoice PDF", () => {
  it("is a PDF whose text holds the merchant, number, dates, terms, customer, each line, tax per rate and totals", async () => {
    const bytes = await renderInvoicePdf(invoice());
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe("%PDF-");
    const { pages, text } = await pdfText(bytes);
    expect(pages).toHaveLength(1);
    for (const expected of [
      "Northwind Software Ltd",
      "12 Market Street",
      "London EC1A 1BB",
      "Tax number: GB123456789",
      "billing@northwind.example",
      "Invoice",
      "INV-000123",
      "22 Nov 2026",
      "22 Dec 2026",
      "Net 30 days",
      "PO-7781",
      "Acme Ltd",
      "Attn: Sam Buyer",
      "sam@example.com",
      "Company number: 01234567",
      "Tax ID: GB999888777",
      "1 High Street",
      "Analytics Pro",
      "Annual licence",
      "£100.00",
      "£200.00",
      "Training day",
      "£500.50",
      "Tax 20% on £190.00",
      "£38.00",
      "Tax 5% on £500.50",
      "£25.03",
      "Subtotal",
      "£700.50",
      "Discount",
      "-£10.00",
      "Total",
      "£753.53",
      "Amount due (GBP)",
      "Bank transfer to sort code 12-34-56.",
      "Page 1 of 1",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain("PAID");
  });

  it("says how to pay while unpaid: the bank details, and the hosted page as a Pay online link with its QR code", async () => {
    const url = `https://billing.example/invoices/txn_01hv8x00000000000000000000-1790000000-${"a".repeat(64)}`;
    const bytes = await renderInvoicePdf(
      invoice({
        additionalInformation: null,
        bankTransferInstructions: "Northwind Software Ltd\nIBAN GB33 BUKB 2020 1555 5555 55\nBIC BUKBGB22",
        payOnlineUrl: url,
      }),
    );
    const { pages, text } = await pdfText(bytes);
    expect(pages).toHaveLength(1);
    for (const expected of [
      "HOW TO PAY",
      "Bank transfer",
      "IBAN GB33 BUKB 2020 1555 5555 55",
      "BIC BUKBGB22",
      "Pay online",
    ]) {
      expect(text, expected).toContain(expected);
    }
    // The link is printed whole (wrapped over lines) and is a clickable link annotation too.
    expect(text.replace(/\s+/g, "")).toContain(url);
    const raw = Buffer.from(bytes).toString("latin1");
    expect(raw).toContain("/Subtype /Link");
    expect(raw).toContain(`/URI (${url})`);
  });

  it("prints only what it has: the pay link alone, and nothing on a paid invoice or a preview's link", async () => {
    const url = "https://billing.example/invoices/x";
    const alone = (await pdfText(await renderInvoicePdf(invoice({ additionalInformation: null, payOnlineUrl: url }))))
      .text;
    expect(alone).toContain("Pay online");
    expect(alone).not.toContain("Bank transfer");
    const paid = (
      await pdfText(
        await renderInvoicePdf(
          invoice({
            paid: true,
            amountPaid: "75353",
            amountDue: "0",
            bankTransferInstructions: "IBAN X",
            payOnlineUrl: url,
          }),
        ),
      )
    ).text;
    expect(paid).not.toContain("HOW TO PAY");
    expect(paid).not.toContain("IBAN X");
    const preview = (
      await pdfText(
        await renderInvoicePdf(invoice({ preview: true, bankTransferInstructions: "IBAN X", payOnlineUrl: url })),
      )
    ).text;
    expect(preview).toContain("IBAN X");
    expect(preview).not.toContain("Pay online");
    const neither = (await pdfText(await renderInvoicePdf(invoice({ bankTransferInstructions: "  " })))).text;
    expect(neither).not.toContain("HOW TO PAY");
  });

  it("marks a paid invoice paid: nothing due, the amount paid shown", async () => {
    const { text } = await pdfText(
      await renderInvoicePdf(
        invoice({ paid: true, amountPaid: "75353", amountDue: "0", dueAt: null, paymentTerms: null }),
      ),
    );
    expect(text).toContain("PAID");
    expect(text).toContain("Amount paid (GBP) £753.53");
    expect(text).toContain("Amount due (GBP) £0.00");
    expect(text).not.toContain("Due date");
  });

  it("shows credit applied and the grand total when the customer's credit paid part of it", async () => {
    const { text } = await pdfText(
      await renderInvoicePdf(
        invoice({
          totals: {
            subtotal: "70050",
            discount: "0",
            tax: "6303",
            total: "76353",
            credit: "1000",
            grandTotal: "75353",
          },
        }),
      ),
    );
    expect(text).toContain("Credit applied -£10.00");
    expect(text).toContain("Grand total £753.53");
    expect(text).not.toContain("Discount");
  });

  it("runs over pages with 100 items: every line present, the table header repeated, pages numbered", async () => {
    const lines = Array.from({ length: 100 }, (_, i) => line(i + 1));
    const { pages, text } = await pdfText(await renderInvoicePdf(invoice({ lines })));
    expect(pages.length).toBeGreaterThan(2);
    for (let n = 1; n <= 100; n++) expect(text).toMatch(new RegExp(`Widget ${n} `));
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(page).toContain("Description Qty Unit price Tax Amount");
    });
    expect(pages.at(-1)).toContain("Amount due (GBP)");
  });

  it("renders non-ASCII names (Latin-1 as they are, others transliterated) without crashing", async () => {
    const { text } = await pdfText(
      await renderInvoicePdf(
        invoice({
          billTo: {
            ...billTo,
            businessName: null,
            name: "Zoë Müller",
            addressLines: ["Łódź, ul. Piotrkowska 1", "Ελλάδα 北京"],
          },
          lines: [line(1, { description: "Café crème — “special” €dition ✓" })],
        }),
      ),
    );
    expect(text).toContain("Zoë Müller");
    expect(text).toContain("Lódz, ul. Piotrkowska 1"); // ó is Latin-1; ł and ź are not
    expect(text).toContain("?????? ??");
    expect(text).toContain("Café crème — “special” €dition ?");
  });

  it("writes yen without decimals and euro with the euro sign", async () => {
    const yen = await pdfText(await renderInvoicePdf(invoice({ currency: "JPY", amountDue: "120000" })));
    expect(yen.text).toContain("¥120,000");
    const euro = await pdfText(await renderInvoicePdf(invoice({ currency: "EUR" })));
    expect(euro.text).toContain("€753.53");
  });

  it("names its file after the invoice number", () => {
    expect(invoiceFileName("INV-000001")).toBe("invoice-INV-000001.pdf");
    expect(invoiceFileName('A/B "1"')).toBe("invoice-A-B-1-.pdf");
  });
});

describe("credit note PDF", () => {
  it("holds its number, date, the original invoice, the reason, the lines with tax and the totals", async () => {
    const bytes = await renderCreditNotePdf({
      creditNoteNumber: "CN-000007",
      issuedAt: "2026-11-23T09:00:00Z",
      invoiceNumber: "INV-000123",
      transactionId: "txn_01hv8x00000000000000000000",
      action: "refund",
      reason: "Two seats were cancelled within the trial window.",
      currency: "USD",
      merchant,
      billTo,
      lines: [
        {
          description: "Seat pack",
          detail: "Monthly seats",
          quantity: 2,
          amount: "9800",
          taxRate: "0.2",
          tax: "1960",
          total: "11760",
        },
        { description: "Setup fee", quantity: null, amount: "500", taxRate: "0.2", tax: "100", total: "600" },
      ],
      totals: { subtotal: "10300", tax: "2060", total: "12360" },
    });
    const { pages, text } = await pdfText(bytes);
    expect(pages).toHaveLength(1);
    for (const expected of [
      "Credit note",
      "CN-000007",
      "23 Nov 2026",
      "Original invoice INV-000123",
      "Refund to the original payment method",
      "Two seats were cancelled within the trial window.",
      "Seat pack",
      "$98.00",
      "20%",
      "$19.60",
      "$117.60",
      "Setup fee",
      "Total credited (USD) $123.60",
      "Acme Ltd",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(creditNoteFileName("CN-000007")).toBe("credit-note-CN-000007.pdf");
  });
});

describe("the merchant's logo and time zone", () => {
  it("draws the logo above the name: the PDF still renders, with one image object", async () => {
    const { makePng } = await import("../dev/test/images.ts");
    const png = makePng(600, 200);
    const logo = { contentType: "image/png" as const, bytes: new Uint8Array(png), width: 600, height: 200 };
    const bytes = await renderInvoicePdf(invoice({ merchant: { ...merchant, logo } }));
    const { pages, text } = await pdfText(bytes);
    expect(pages).toHaveLength(1);
    expect(text).toContain("Northwind Software Ltd");
    const raw = Buffer.from(bytes).toString("latin1");
    expect(raw.match(/\/Subtype \/Image/g)).toHaveLength(1);
    expect(raw).toMatch(/\/Width 600\s/);
    expect(raw).toMatch(/\/Height 200\s/);
    if (process.env.WRITE_LOGO_PDF) (await import("node:fs")).writeFileSync(process.env.WRITE_LOGO_PDF, bytes);
  });

  it("a logo pdf-lib cannot read is left out, never an error", async () => {
    const logo = { contentType: "image/png" as const, bytes: new Uint8Array([1, 2, 3]), width: 1, height: 1 };
    const bytes = await renderInvoicePdf(invoice({ merchant: { ...merchant, logo } }));
    expect((await pdfText(bytes)).text).toContain("Northwind Software Ltd");
  });

  it("prints dates as days in the merchant's zone", async () => {
    // 23:30 UTC on 23 Nov is already 24 Nov in Auckland, still 23 Nov in New York.
    const late = { issuedAt: "2026-11-23T23:30:00.000Z", dueAt: null, paymentTerms: null };
    const auckland = await pdfText(
      await renderInvoicePdf(invoice({ ...late, merchant: { ...merchant, timeZone: "Pacific/Auckland" } })),
    );
    expect(auckland.text).toContain("Invoice date 24 Nov 2026");
    const newYork = await pdfText(
      await renderInvoicePdf(invoice({ ...late, merchant: { ...merchant, timeZone: "America/New_York" } })),
    );
    expect(newYork.text).toContain("Invoice date 23 Nov 2026");
  });
});
