/**
 * Secrets at rest (the Stripe secret key and webhook signing secret an owner enters in Settings →
 * Payments): AES-256-GCM under the key in BILLING_ENCRYPTION_KEY.
 *
 * BILLING_ENCRYPTION_KEY is 32 random bytes written as 64 hexadecimal digits or as base64 /
 * base64url (43 or 44 characters), e.g. `openssl rand -hex 32` or `openssl rand -base64 32`. Without
 * it, no secret can be stored (the API says to set it); changing it makes stored secrets unreadable
 * (they are entered again), which is also how it is rotated.
 *
 * A sealed value is `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts): a fresh 96-bit IV per
 * value, the 128-bit GCM tag, and as additional data the value's purpose (the settings key it is
 * stored under), so a sealed webhook secret cannot be passed off as the secret key. The key id (the
 * first 8 bytes of SHA-256 of the key) tells "sealed under another key" apart from "tampered with".
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = "v1";

export class SecretBoxError extends Error {}

export const ENCRYPTION_KEY_HELP =
  "BILLING_ENCRYPTION_KEY must be 32 random bytes, as 64 hexadecimal digits or base64 (e.g. the output of `openssl rand -hex 32`)";

/** The key from BILLING_ENCRYPTION_KEY, or why there is none. */
export function encryptionKey(): { key: Buffer } | { problem: string } {
  const text = (process.env.BILLING_ENCRYPTION_KEY ?? "").trim();
  if (text === "") return { problem: "BILLING_ENCRYPTION_KEY is not set" };
  let key: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(text)) key = Buffer.from(text, "hex");
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text))
    key = Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (key?.length !== 32) return { problem: `BILLING_ENCRYPTION_KEY is not a valid key: ${ENCRYPTION_KEY_HELP}` };
  return { key };
}

function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest().subarray(0, 8).toString("base64url");
}

function requireKey(): Buffer {
  const found = encryptionKey();
  if ("problem" in found) throw new SecretBoxError(found.problem);
  return found.key;
}

/** Encrypts `plaintext` for storage under `purpose` (the settings key). */
export function seal(plaintext: string, purpose: string): string {
  const key = requireKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(purpose, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    VERSION,
    keyId(key),
    iv.toString("base64url"),
    tag.toString("base64url"),
    ciphertext.toString("base64url"),
  ].join(".");
}

/** Decrypts a value `seal` made for the same `purpose`; a SecretBoxError says why it cannot. */
export function unseal(sealed: string, purpose: string): string {
  const key = requireKey();
  const [version, id, iv, tag, ciphertext, ...rest] = sealed.split(".");
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) {
    throw new SecretBoxError("the stored value is not a sealed secret");
  }
  if (id !== keyId(key)) {
    throw new SecretBoxError(
      "it was encrypted under another BILLING_ENCRYPTION_KEY (the key was changed since it was saved)",
    );
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(purpose, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError("the stored value does not decrypt (it was altered)");
  }
}
