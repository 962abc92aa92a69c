import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { API_KEY_LENGTH, generateApiKey, hashApiKey, hashesEqual, parseApiKey } from "./api-key-format.ts";

const OTHER = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The key with the character at `index` replaced by a different character of the same class. */
function changeAt(key: string, index: number): string {
  const ch = key[index];
  const pool = /[a-z0-9]/.test(ch!) && index < 43 ? "0123456789abcdefghjkmnpqrstvwxyz" : OTHER;
  const replacement = pool[(pool.indexOf(ch!) + 1) % pool.length];
  return key.slice(0, index) + replacement + key.slice(index + 1);
}

describe("generateApiKey", () => {
  it("makes 69-character sandbox keys", () => {
    const { key } = generateApiKey("sandbox");
    expect(API_KEY_LENGTH).toBe(69);
    expect(key).toHaveLength(69);
    expect(key.startsWith("svc_apikey_sdbx_")).toBe(true);
  });

  it("makes 69-character live keys", () => {
    const { key } = generateApiKey("live");
    expect(key).toHaveLength(69);
    expect(key.startsWith("svc_apikey_live_")).toBe(true);
  });

  it("gives an apikey_ ID whose body is inside the key", () => {
    const { id, key } = generateApiKey("sandbox");
    expect(id).toMatch(/^apikey_[a-z0-9]{26}$/);
    expect(key).toContain(id.slice("apikey_".length));
  });

  it("never repeats a key or an ID", () => {
    const keys = new Set<string>();
    const ids = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const { id, key } = generateApiKey("sandbox");
      keys.add(key);
      ids.add(id);
    }
    expect(keys.size).toBe(500);
    expect(ids.size).toBe(500);
  });

  it("returns the SHA-256 hex hash of the key", () => {
    const { key, hash } = generateApiKey("sandbox");
    expect(hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("parseApiKey", () => {
  it("parses a sandbox key back to its ID and environment", () => {
    const { id, key } = generateApiKey("sandbox");
    expect(parseApiKey(key)).toEqual({ id, environment: "sandbox" });
  });

  it("parses a live key back to its ID and environment", () => {
    const { id, key } = generateApiKey("live");
    expect(parseApiKey(key)).toEqual({ id, environment: "live" });
  });

  it("rejects a key with any single character changed (checksum or shape)", () => {
    const { key } = generateApiKey("sandbox");
    // Every position: the prefix, the ID, the secret and the checksum.
    for (let i = 0; i < key.length; i++) {
      const changed = changeAt(key, i);
      expect(changed).not.toBe(key);
      expect(parseApiKey(changed), `change at ${i}: ${changed}`).toBeNull();
    }
  });

  it("rejects a well-shaped key whose checksum does not match (secret changed)", () => {
    for (let n = 0; n < 20; n++) {
      const { key } = generateApiKey("live");
      // Position 50 is inside the 22-character secret: the result still matches the key's shape.
      const changed = changeAt(key, 50);
      expect(changed).toMatch(/^svc_apikey_live_[a-z0-9]{26}_[A-Za-z0-9]{22}_[A-Za-z0-9]{3}$/);
      expect(parseApiKey(changed)).toBeNull();
    }
  });

  it("rejects a key moved to the other environment", () => {
    const { key } = generateApiKey("sandbox");
    expect(parseApiKey(key.replace("_sdbx_", "_live_"))).toBeNull();
  });

  it("rejects other shapes", () => {
    const { key } = generateApiKey("sandbox");
    expect(parseApiKey("")).toBeNull();
    expect(parseApiKey(key.slice(0, -1))).toBeNull();
    expect(parseApiKey(`${key}a`)).toBeNull();
    expect(parseApiKey(` ${key}`)).toBeNull();
    expect(parseApiKey(key.toUpperCase())).toBeNull();
    expect(parseApiKey(key.replace("svc_", "pdl_"))).toBeNull();
    expect(parseApiKey("svc_apikey_sdbx_")).toBeNull();
  });
});

describe("hashApiKey / hashesEqual", () => {
  it("is deterministic and differs between keys", () => {
    const a = generateApiKey("sandbox");
    const b = generateApiKey("sandbox");
    expect(hashApiKey(a.key)).toBe(hashApiKey(a.key));
    expect(hashApiKey(a.key)).not.toBe(hashApiKey(b.key));
  });

  it("compares equal hashes as equal and different ones as different", () => {
    const a = generateApiKey("sandbox");
    const b = generateApiKey("sandbox");
    expect(hashesEqual(a.hash, hashApiKey(a.key))).toBe(true);
    expect(hashesEqual(a.hash, b.hash)).toBe(false);
    expect(hashesEqual(a.hash, hashApiKey(changeAt(a.key, 50)))).toBe(false);
  });

  it("treats hashes of different lengths as different without throwing", () => {
    const a = generateApiKey("sandbox");
    expect(hashesEqual(a.hash, a.hash.slice(0, 62))).toBe(false);
    expect(hashesEqual(a.hash, "")).toBe(false);
  });
});
