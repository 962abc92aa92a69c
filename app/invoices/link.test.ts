/**
 * The pages a public link that does not hold leads to, with their 4xx statuses: the hosted
 * invoice's (GET /invoices/link) and a team invitation's (GET /invite/link). The portal's are in
 * app/portal/portal.test.ts. Pages redirect there: e2e/ui/portal.spec.ts, team.spec.ts.
 */
import { describe, expect, it } from "vitest";
import * as inviteLink from "@/app/invite/link/route";
import { updateAccountSettings } from "@/lib/services/account-settings";
import * as invoiceLink from "./link/route";

async function page(response: Response | Promise<Response>) {
  const res = await response;
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const at = (path: string) => new Request(`http://localhost:3000${path}`);

describe("GET /invoices/link", () => {
  it("403 tampered, 410 expired, 404 gone or without an invoice; each says to ask the seller", async () => {
    await updateAccountSettings({ merchant_name: "Acme & Co", merchant_email: "billing@acme.example" });
    const cases: [string, number, string][] = [
      ["?reason=invalid", 403, "This invoice link is not valid"],
      ["?reason=expired", 410, "This invoice link has expired"],
      ["?reason=not_found", 404, "Invoice not found"],
      ["?reason=no_invoice", 404, "No invoice to show"],
      ["", 403, "This invoice link is not valid"],
      ["?reason=constructor", 403, "This invoice link is not valid"],
    ];
    for (const [query, status, title] of cases) {
      const res = await page(invoiceLink.GET(at(`/invoices/link${query}`)));
      expect(res.status, query).toBe(status);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.html).toContain(`<h1 id="problem-heading">${title}</h1>`);
      expect(res.html).toMatch(/<p role="alert">[^<]*(ask the seller|Ask the seller)/);
      expect(res.html).toContain('The seller is Acme &amp; Co: <a href="mailto:billing@acme.example">');
    }
  });
});

describe("GET /invite/link", () => {
  it("404 for an unknown link, 410 for a used or expired one, with the way to sign in", async () => {
    const cases: [string, number, string][] = [
      ["?reason=invalid", 404, "This invitation link is not valid. Ask an owner for a new one."],
      ["?reason=used", 410, "This invitation link has already been used. Sign in instead."],
      ["?reason=expired", 410, "This invitation link has expired. Ask an owner for a new one."],
      ["?reason=%3Cb%3E", 404, "This invitation link is not valid. Ask an owner for a new one."],
    ];
    for (const [query, status, text] of cases) {
      const res = await page(inviteLink.GET(at(`/invite/link${query}`)));
      expect(res.status, query).toBe(status);
      expect(res.html).toContain('<h1 id="problem-heading">Join the team</h1>');
      expect(res.html).toContain(`<p role="alert">${text}</p>`);
      expect(res.html).toContain('<a class="action" href="/sign-in">Go to sign-in</a>');
      expect(res.html).not.toContain("<b>");
    }
  });
});
