import { describe, expect, it } from "vitest";
import { hostedInvoiceToken, verifyHostedInvoiceToken } from "./hosted-invoice-links.ts";

const KEY = Buffer.from("0123456789abcdef0123456789abcdef");
const ID = "txn_01h2xcejqtf2nbrexx3vqjhp41";

describe("hosted invoice links", () => {
  it("accepts its own token until it expires", () => {
    const token = hostedInvoiceToken({ transactionId: ID, expires: 2_000 }, KEY);
    expect(token).toMatch(new RegExp(`^${ID}-2000-[0-9a-f]{64}$`));
    expect(verifyHostedInvoiceToken(token, KEY, 1_999)).toEqual({
      ok: true,
      link: { transactionId: ID, expires: 2_000 },
    });
    expect(verifyHostedInvoiceToken(token, KEY, 2_000)).toEqual({ ok: false, reason: "expired", transactionId: ID });
  });

  it("refuses another key, another ID, another expiry, a changed signature and anything malformed", () => {
    const token = hostedInvoiceToken({ transactionId: ID, expires: 2_000 }, KEY);
    const signature = token.split("-")[2];
    const other = "txn_01h2xcejqtf2nbrexx3vqjhp42";
    for (const bad of [
      token.replace(/.$/, (c) => (c === "a" ? "b" : "a")),
      `${other}-2000-${signature}`,
      `${ID}-2001-${signature}`,
      `${ID}-2000-${signature!.toUpperCase()}`,
      `${ID}-2000-${signature}-`,
      ID,
      "",
      undefined,
      42,
    ]) {
      expect(verifyHostedInvoiceToken(bad, KEY, 1_000)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(verifyHostedInvoiceToken(token, Buffer.from("another key"), 1_000)).toEqual({
      ok: false,
      reason: "invalid",
    });
  });
});
