import { describe, expect, it, vi } from "vitest";
import { ID_PREFIX, idPattern, idTime, isId, newId } from "./ids.ts";

/**
 * A fresh copy of the module (its monotonic state reset), for tests that pass explicit times:
 * a time in the future would otherwise hold every later ID of this file at that time.
 */
async function freshIds(): Promise<typeof import("./ids.ts")> {
  vi.resetModules();
  return import("./ids.ts");
}

describe("newId", () => {
  it("is the prefix, an underscore and 26 characters of [a-z0-9] for every prefix", () => {
    for (const prefix of Object.values(ID_PREFIX)) {
      const id = newId(prefix);
      expect(id).toMatch(new RegExp(`^${prefix}_[a-z0-9]{26}$`));
      expect(id.length).toBe(prefix.length + 1 + 26);
    }
  });

  it("gives a customer ID of the spec's shape", () => {
    expect(newId("ctm")).toMatch(/^ctm_[a-z0-9]{26}$/);
  });

  it("never repeats", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId("ctm")));
    expect(ids.size).toBe(10_000);
  });

  it("is monotonic: 10,000 IDs made in a tight loop sort in creation order", () => {
    const ids: string[] = [];
    for (let i = 0; i < 10_000; i++) ids.push(newId("txn"));
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
    // Strictly increasing, so no two are equal and byte order is creation order.
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });

  it("stays monotonic when the clock goes backwards", async () => {
    const { ulid } = await freshIds();
    const now = Date.now() + 10_000_000;
    const a = ulid(now);
    const b = ulid(now - 5_000);
    const c = ulid(now - 10_000);
    expect(b > a).toBe(true);
    expect(c > b).toBe(true);
  });

  it("sorts IDs made in later milliseconds after earlier ones", async () => {
    const { ulid } = await freshIds();
    const base = Date.now() + 20_000_000;
    const early = ulid(base);
    const later = ulid(base + 1);
    const much = ulid(base + 86_400_000);
    expect(early < later).toBe(true);
    expect(later < much).toBe(true);
  });
});

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** The 75 random bits of an ID body (its last 15 characters), as a bigint. */
function randomBits(body: string): bigint {
  let n = 0n;
  for (const ch of body.slice(11)) n = n * 32n + BigInt(ALPHABET.indexOf(ch));
  return n;
}

function popcount(n: bigint): number {
  let count = 0;
  for (let x = n; x > 0n; x >>= 1n) count += Number(x & 1n);
  return count;
}

describe("unguessable IDs (public links rest on them)", () => {
  it("10,000 IDs made in one millisecond: time part, then sequence, then 75 bits no other ID predicts", async () => {
    const { ulid } = await freshIds();
    const now = Date.now() + 30_000_000;
    const bodies = Array.from({ length: 10_000 }, () => ulid(now));
    // Order holds within the process: strictly increasing, the time part never going back.
    for (let i = 1; i < bodies.length; i++) expect(bodies[i]! > bodies[i - 1]!).toBe(true);
    const bits = bodies.map(randomBits);
    expect(new Set(bits).size).toBe(bits.length);
    // Neighbours differ in about half of the 75 random bits (a counter would differ in 1-3).
    let total = 0;
    let fewest = 75;
    const differences = new Set<bigint>();
    for (let i = 1; i < bits.length; i++) {
      const distance = popcount(bits[i]! ^ bits[i - 1]!);
      total += distance;
      fewest = Math.min(fewest, distance);
      differences.add(bits[i]! - bits[i - 1]!);
    }
    expect(fewest).toBeGreaterThanOrEqual(10); // below 10 of 75: p ≈ 1e-11 per pair
    expect(total / (bits.length - 1)).toBeGreaterThan(36);
    expect(total / (bits.length - 1)).toBeLessThan(39);
    // No step from one ID to the next repeats (a counter's step is constant).
    expect(differences.size).toBe(bits.length - 1);
    // Every bit position is set in about half of the IDs (6 standard deviations either side).
    for (let bit = 0n; bit < 75n; bit++) {
      const ones = bits.filter((b) => (b >> bit) & 1n).length;
      expect(ones).toBeGreaterThan(4_700);
      expect(ones).toBeLessThan(5_300);
    }
  });

  it("32 IDs per millisecond share its time; the 33rd carries the time forward by one", async () => {
    const { ulid } = await freshIds();
    const now = Date.now() + 40_000_000;
    const bodies = Array.from({ length: 33 }, () => ulid(now));
    for (const body of bodies.slice(0, 32)) expect(idTime(`txn_${body}`).getTime()).toBe(now);
    expect(bodies.slice(0, 32).map((b) => b[10])).toEqual([...ALPHABET]);
    expect(idTime(`txn_${bodies[32]}`).getTime()).toBe(now + 1);
    expect(bodies[32]![10]).toBe("0");
    // A later real millisecond continues from the borrowed one.
    expect(ulid(now + 1) > bodies[32]!).toBe(true);
    const later = ulid(now + 5);
    expect(idTime(`txn_${later}`).getTime()).toBe(now + 5);
    expect(later[10]).toBe("0");
  });
});

describe("idTime", () => {
  it("decodes the creation time of a fresh ID", async () => {
    // A fresh module: the tight loops above ran ahead of the clock (32 IDs a millisecond at most).
    const fresh = await freshIds();
    const before = Date.now();
    const id = fresh.newId("ctm");
    const after = Date.now();
    const t = idTime(id).getTime();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
  });

  it("round-trips an explicit millisecond timestamp", async () => {
    const { ulid } = await freshIds();
    const when = Date.UTC(2031, 4, 17, 12, 34, 56, 789);
    const body = ulid(when);
    expect(idTime(`sub_${body}`).toISOString()).toBe("2031-05-17T12:34:56.789Z");
  });

  it("works with multi-part prefixes", async () => {
    const { ulid } = await freshIds();
    const when = Date.UTC(2040, 0, 1, 0, 0, 0, 1);
    const body = ulid(when);
    expect(idTime(`ntfsimevt_${body}`).getTime()).toBe(when);
    expect(idTime(`txnitm_${body}`).getTime()).toBe(when);
  });
});

describe("idPattern / isId", () => {
  it("accepts an ID of its prefix", () => {
    const id = newId("ctm");
    expect(idPattern("ctm").test(id)).toBe(true);
    expect(isId("ctm", id)).toBe(true);
  });

  it("rejects another prefix", () => {
    expect(isId("add", newId("ctm"))).toBe(false);
    expect(isId("ctm", newId("ctkn"))).toBe(false);
    expect(isId("txn", newId("txnitm"))).toBe(false);
  });

  it("rejects wrong lengths, upper case, other characters and surrounding text", () => {
    const id = newId("ctm");
    const body = id.slice(4);
    expect(isId("ctm", `ctm_${body.slice(1)}`)).toBe(false);
    expect(isId("ctm", `ctm_${body}a`)).toBe(false);
    expect(isId("ctm", `ctm_${body.toUpperCase()}`)).toBe(false);
    expect(isId("ctm", `ctm_${body.slice(1)}-`)).toBe(false);
    expect(isId("ctm", ` ${id}`)).toBe(false);
    expect(isId("ctm", `${id}\n`)).toBe(false);
    expect(isId("ctm", `x${id}`)).toBe(false);
    expect(isId("ctm", body)).toBe(false);
    expect(isId("ctm", "ctm_")).toBe(false);
  });

  it("accepts any 26 characters of [a-z0-9] after the prefix", () => {
    expect(isId("ctm", `ctm_${"z".repeat(26)}`)).toBe(true);
    expect(isId("ctm", `ctm_${"0".repeat(26)}`)).toBe(true);
    expect(isId("ctm", `ctm_${"0123456789abcdefghijklmnop"}`)).toBe(true);
  });
});
