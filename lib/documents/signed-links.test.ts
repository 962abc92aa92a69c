import { describe, expect, it } from "vitest";
import { documentLinkPath, signDocumentLink, verifyDocumentLink } from "./signed-links.ts";

const KEY = "k".repeat(32);
const ID = "txn_01hv8x00000000000000000000";
const link = { kind: "invoice" as const, id: ID, disposition: "attachment" as const, expires: 2_000 };

function received(path: string) {
  return Object.fromEntries(new URL(path, "http://x").searchParams);
}

describe("signed document links", () => {
  it("builds a path under /api/documents with disposition, expiry and signature", () => {
    const path = documentLinkPath(link, KEY);
    expect(path).toMatch(
      new RegExp(`^/api/documents/invoices/${ID}\\?disposition=attachment&expires=2000&signature=[0-9a-f]{64}$`),
    );
    expect(verifyDocumentLink("invoice", ID, received(path), KEY, 1_999)).toEqual({ ok: true, link });
  });

  it("refuses an expired link, and a changed ID, kind, disposition, expiry, key or signature", () => {
    const ok = received(documentLinkPath(link, KEY));
    expect(verifyDocumentLink("invoice", ID, ok, KEY, 2_000)).toEqual({ ok: false, reason: "expired" });
    const invalid = { ok: false, reason: "invalid" };
    expect(verifyDocumentLink("invoice", `${ID.slice(0, -1)}1`, ok, KEY, 0)).toEqual(invalid);
    expect(verifyDocumentLink("credit_note", ID, ok, KEY, 0)).toEqual(invalid);
    expect(verifyDocumentLink("invoice", ID, { ...ok, disposition: "inline" }, KEY, 0)).toEqual(invalid);
    expect(verifyDocumentLink("invoice", ID, { ...ok, expires: "99999" }, KEY, 0)).toEqual(invalid);
    expect(verifyDocumentLink("invoice", ID, ok, "another key", 0)).toEqual(invalid);
    expect(verifyDocumentLink("invoice", ID, { ...ok, signature: "0".repeat(64) }, KEY, 0)).toEqual(invalid);
    expect(verifyDocumentLink("invoice", ID, { ...ok, signature: "zz" }, KEY, 0)).toEqual(invalid);
    expect(verifyDocumentLink("invoice", ID, {}, KEY, 0)).toEqual(invalid);
  });

  it("signs the kind, ID, disposition and expiry", () => {
    expect(signDocumentLink(link, KEY)).not.toBe(signDocumentLink({ ...link, disposition: "inline" }, KEY));
  });
});
