/** AES-256-GCM sealing of stored secrets under BILLING_ENCRYPTION_KEY (secret-box.ts). */
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { encryptionKey, SecretBoxError, seal, unseal } from "./secret-box.ts";

const saved = process.env.BILLING_ENCRYPTION_KEY;
afterEach(() => {
  if (saved === undefined) delete process.env.BILLING_ENCRYPTION_KEY;
  else process.env.BILLING_ENCRYPTION_KEY = saved;
});

const bytes = randomBytes(32);

describe("BILLING_ENCRYPTION_KEY", () => {
  it.each([
    ["hex", bytes.toString("hex")],
    ["HEX", bytes.toString("hex").toUpperCase()],
    ["base64", bytes.toString("base64")],
    ["base64url", bytes.toString("base64url")],
    ["with spaces around", ` ${bytes.toString("hex")}\n`],
  ])("is read as %s", (_, text) => {
    process.env.BILLING_ENCRYPTION_KEY = text;
    const key = encryptionKey();
    expect("key" in key && key.key.equals(bytes)).toBe(true);
  });

  it.each([
    ["unset", undefined, /is not set/],
    ["empty", "", /is not set/],
    ["31 bytes", randomBytes(31).toString("hex"), /is not a valid key/],
    ["33 bytes of base64", randomBytes(33).toString("base64"), /is not a valid key/],
    ["a passphrase", "correct horse battery staple", /is not a valid key/],
  ])("is refused when %s", (_, text, message) => {
    if (text === undefined) delete process.env.BILLING_ENCRYPTION_KEY;
    else process.env.BILLING_ENCRYPTION_KEY = text;
    const key = encryptionKey();
    expect("problem" in key && key.problem).toMatch(message);
    expect(() => seal("x", "purpose")).toThrow(SecretBoxError);
  });
});

describe("seal / unseal", () => {
  it("round-trips, with a fresh IV each time, and never holds the plaintext", () => {
    process.env.BILLING_ENCRYPTION_KEY = bytes.toString("hex");
    const a = seal("sk_live_secret_1234", "stripe_secret_key");
    const b = seal("sk_live_secret_1234", "stripe_secret_key");
    expect(a).not.toBe(b);
    expect(a).not.toContain("secret_1234");
    expect(a).toMatch(/^v1\.[\w-]{11}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(unseal(a, "stripe_secret_key")).toBe("sk_live_secret_1234");
    expect(unseal(b, "stripe_secret_key")).toBe("sk_live_secret_1234");
  });

  it("refuses another purpose, an altered value, and another key (saying the key changed)", () => {
    process.env.BILLING_ENCRYPTION_KEY = bytes.toString("hex");
    const sealed = seal("whsec_abc", "stripe_webhook_secret");
    expect(() => unseal(sealed, "stripe_secret_key")).toThrow(/altered/);
    const parts = sealed.split(".");
    const flipped = Buffer.from(parts[4]!, "base64url");
    flipped[0]! ^= 1;
    expect(() =>
      unseal([...parts.slice(0, 4), flipped.toString("base64url")].join("."), "stripe_webhook_secret"),
    ).toThrow(/altered/);
    expect(() => unseal("plaintext", "stripe_webhook_secret")).toThrow(/not a sealed secret/);
    process.env.BILLING_ENCRYPTION_KEY = randomBytes(32).toString("hex");
    expect(() => unseal(sealed, "stripe_webhook_secret")).toThrow(/another BILLING_ENCRYPTION_KEY/);
  });
});
