/** The merchant's logo in the HTML emails (pure: the templates only). */
import { describe, expect, it } from "vitest";
import { invoiceIssuedEmail, notificationEmail, receiptEmail } from "./templates.ts";

const facts = {
  merchant: "Acme & Co",
  customerName: "Sam",
  invoiceNumber: "INV-000001",
  amount: "$10.00",
  dueDate: "24 Nov 2026",
  link: "https://billing.example/invoices/txn_1-1-abc",
};

describe("the logo in emails", () => {
  it("is shown above the merchant's name in HTML, by its absolute URL, escaped", () => {
    const email = invoiceIssuedEmail({ ...facts, logoUrl: 'https://billing.example/logo?v=abc"><script>' });
    expect(email.html).toContain(
      '<img src="https://billing.example/logo?v=abc&quot;&gt;&lt;script&gt;" alt="Acme &amp; Co"',
    );
    expect(email.html.indexOf("<img")).toBeLessThan(email.html.indexOf("Acme &amp; Co</p>"));
    expect(email.text).not.toContain("logo");
  });

  it("is left out without a logo", () => {
    expect(invoiceIssuedEmail(facts).html).not.toContain("<img");
    expect(invoiceIssuedEmail({ ...facts, logoUrl: null }).html).not.toContain("<img");
    const receipt = receiptEmail({ ...facts, paidOn: "24 Nov 2026", link: null });
    expect(receipt.html).not.toContain("<img");
  });

  it("every customer email takes it; staff notifications do not", () => {
    const logoUrl = "https://billing.example/logo?v=0123456789abcdef";
    expect(receiptEmail({ ...facts, paidOn: "24 Nov 2026", link: null, logoUrl }).html).toContain(logoUrl);
    const notification = notificationEmail({
      eventType: "transaction.completed",
      description: "A transaction was completed",
      entityId: "txn_1",
      eventId: "evt_1",
      occurredAt: "2026-11-24T00:00:00Z",
      destination: "Finance",
      dashboardLink: null,
    });
    expect(notification.html).not.toContain("<img");
  });
});
