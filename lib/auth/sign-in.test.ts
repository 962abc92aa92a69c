/**
 * Staff sign-in (lib/auth/next-auth.ts verifyCredentials and the provider's authorize) on a real
 * database: throttling per (account, address), per address and per account that never locks the
 * owner out, and unknown emails costing what known ones do.
 */
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { query } from "../db/sql.ts";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address.ts";
import { createUser } from "../services/users.ts";
import { authOptions, SignInThrottledError, verifyCredentials } from "./next-auth.ts";
import { throttledSeconds } from "./sign-in-errors.ts";
import {
  ACCOUNT,
  ADDRESS,
  afterFailure,
  KNOWN_MS,
  type LimitRow,
  PAIR,
  purgeSignInLimits,
  waitFor,
} from "./sign-in-limits.ts";

const PASSWORD = "correct horse battery";

let n = 0;
function unique(tag: string): string {
  n += 1;
  return `${tag}-${n}-${randomBytes(3).toString("hex")}@staff.example.com`;
}

/** A fresh public-looking address for each use, so that tests do not share counters. */
function address(): string {
  return `203.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
}

async function staff(tag = "owner"): Promise<string> {
  const email = unique(tag);
  await createUser({ email, password: PASSWORD, role: "owner" });
  return email;
}

type Outcome = "ok" | "no" | number;

/** One sign-in: "ok", "no" (no match), or the seconds it was asked to wait. */
async function attempt(email: string, password: string, from: string): Promise<Outcome> {
  try {
    return (await verifyCredentials(email, password, from)) ? "ok" : "no";
  } catch (error) {
    if (error instanceof SignInThrottledError) return Math.ceil(error.retryAfterMs / 1000);
    throw error;
  }
}

/** Moves every wait of the limits into the past, as if the time had passed. */
async function timePasses(): Promise<void> {
  await query("UPDATE sign_in_limits SET blocked_until = now() - interval '1 second' WHERE blocked_until IS NOT NULL");
}

afterEach(async () => {
  await query("DELETE FROM sign_in_limits");
});

describe("per (account, address): waits that grow, and only for that address", () => {
  it("five wrong passwords, then that address waits (even with the right one); another address gets in at once", async () => {
    const email = await staff();
    const attacker = address();
    for (let i = 0; i < PAIR.free; i++) expect(await attempt(email, "wrong password", attacker)).toBe("no");
    const wait = await attempt(email, PASSWORD, attacker);
    expect(typeof wait).toBe("number");
    expect(wait).toBeGreaterThanOrEqual(1);
    // The owner, elsewhere: not locked out.
    expect(await attempt(email, PASSWORD, address())).toBe("ok");
  });

  it("each further failure doubles the wait, up to 15 minutes; a success resets it", async () => {
    const email = await staff();
    const from = address();
    for (let i = 0; i < PAIR.free; i++) await attempt(email, "wrong", from);
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      await timePasses();
      expect(await attempt(email, "wrong", from)).toBe("no");
      waits.push((await attempt(email, "wrong", from)) as number);
    }
    expect(waits.slice(0, 5)).toEqual([2, 4, 8, 16, 32]);
    expect(Math.max(...waits)).toBe(PAIR.maxMs / 1000);
    await timePasses();
    expect(await attempt(email, PASSWORD, from)).toBe("ok");
    expect(await attempt(email, "wrong", from)).toBe("no");
    expect(await attempt(email, "wrong", from)).toBe("no");
  });

  it("a burst of parallel guesses is counted before the passwords are checked: only the free ones get checked", async () => {
    const email = await staff();
    const from = address();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => attempt(email, "wrong", from)));
    expect(outcomes.filter((o) => o === "no")).toHaveLength(PAIR.free);
    expect(outcomes.filter((o) => typeof o === "number")).toHaveLength(20 - PAIR.free);
  });
});

describe("per address, across accounts", () => {
  it("one address failing on many accounts waits; an account that signed in from there before is spared", async () => {
    const shared = address();
    const regular = await staff("regular");
    expect(await attempt(regular, PASSWORD, shared)).toBe("ok");
    for (let i = 0; i < ADDRESS.limit; i++) expect(await attempt(unique("sprayed"), "wrong", shared)).toBe("no");
    const wait = await attempt(unique("sprayed"), "wrong", shared);
    expect(wait).toBeGreaterThan(ADDRESS.windowMs / 1000 - 60);
    const newcomer = await staff("newcomer");
    expect(typeof (await attempt(newcomer, PASSWORD, shared))).toBe("number");
    expect(await attempt(newcomer, PASSWORD, address())).toBe("ok");
    // Known to `regular`: the address limit does not apply to it.
    expect(await attempt(regular, PASSWORD, shared)).toBe("ok");
  });
});

describe("per account, across addresses: a stranger cannot keep the owner out", () => {
  it("failures from many addresses make new addresses wait; the owner's known address gets in with the right password", async () => {
    const owner = await staff();
    const home = address();
    expect(await attempt(owner, PASSWORD, home)).toBe("ok");
    // A distributed guess: one wrong password from each of many addresses.
    for (let i = 0; i < ACCOUNT.limit; i++) expect(await attempt(owner, "guess", address())).toBe("no");
    const wait = await attempt(owner, "guess", address());
    expect(typeof wait).toBe("number");
    expect(wait).toBeLessThanOrEqual(ACCOUNT.windowMs / 1000);
    expect(await attempt(owner, PASSWORD, home)).toBe("ok");
    // From a new address the owner waits (at most one window), never forever.
    expect(typeof (await attempt(owner, PASSWORD, address()))).toBe("number");
    await timePasses();
    expect(await attempt(owner, PASSWORD, address())).toBe("ok");
  });

  it("a success from a known address takes back the attempt it was counted as", async () => {
    const owner = await staff();
    const home = address();
    for (let i = 0; i < 5; i++) expect(await attempt(owner, PASSWORD, home)).toBe("ok");
    const rows = await query<{ failures: number }>("SELECT failures FROM sign_in_limits ORDER BY key");
    expect(rows.map((r) => r.failures)).toEqual([0, 0, 0]);
  });
});

describe("unknown emails", () => {
  it("are throttled exactly as known ones are (the answers do not tell who has a login)", async () => {
    const known = await staff();
    const unknownEmail = unique("nobody");
    const sequence = async (email: string) => {
      const from = address();
      const out: string[] = [];
      for (let i = 0; i < PAIR.free + 2; i++) {
        const o = await attempt(email, "wrong", from);
        out.push(typeof o === "number" ? "wait" : o);
      }
      return out;
    };
    expect(await sequence(unknownEmail)).toEqual(await sequence(known));
  });

  it("cost the time a known email's wrong password costs (the password is checked against a stand-in hash)", async () => {
    const known = await staff();
    // The process's CPU time (scrypt runs on libuv's threads, counted too), not the wall clock: the
    // work an attempt costs, whatever else the machine is doing (a loaded machine made this flaky).
    const time = async (email: string) => {
      const started = process.cpuUsage();
      expect(await attempt(email, "wrong password", address())).toBe("no");
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 1000;
    };
    await time(unique("warm-up"));
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      knownTimes.push(await time(known));
      unknownTimes.push(await time(unique("nobody")));
    }
    const k = median(knownTimes);
    const u = median(unknownTimes);
    // scrypt dominates both (tens of ms); before, an unknown email answered in a few ms.
    expect(k).toBeGreaterThan(20);
    expect(u).toBeGreaterThan(k! * 0.6);
    expect(u).toBeLessThan(k! * 1.6);
  });
});

describe("the provider's authorize", () => {
  type Authorize = (
    credentials: Record<string, unknown> | undefined,
    request: { headers: Record<string, string> },
  ) => Promise<{ id: string; email: string; role: string } | null>;
  const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

  it("signs in, keyed by the socket's address that the server stamps (not a spoofed X-Forwarded-For)", async () => {
    const email = await staff();
    const from = address();
    const headers = (spoofed: string) => ({ [CLIENT_ADDRESS_HEADER]: from, "x-forwarded-for": spoofed });
    for (let i = 0; i < PAIR.free; i++) {
      expect(await authorize({ email, password: "wrong" }, { headers: headers(address()) })).toBeNull();
    }
    // A new X-Forwarded-For each time changed nothing: the same address, now waiting.
    const refused = authorize({ email, password: PASSWORD }, { headers: headers(address()) });
    await expect(refused).rejects.toBeInstanceOf(SignInThrottledError);
    const message = await refused.then(
      () => "",
      (e: Error) => e.message,
    );
    expect(throttledSeconds(message)).toBeGreaterThanOrEqual(1);

    // From another address the owner gets in.
    const ok = await authorize({ email, password: PASSWORD }, { headers: { [CLIENT_ADDRESS_HEADER]: address() } });
    expect(ok).toMatchObject({ email, role: "owner" });
  });

  it("answers null (never throws a TypeError) for input that is not two strings", async () => {
    for (const credentials of [undefined, {}, { email: ["a"], password: "x" }, { email: "a@b.c", password: 5 }]) {
      expect(await authorize(credentials as Record<string, unknown> | undefined, { headers: {} })).toBeNull();
    }
  });
});

describe("the rules, on their own", () => {
  const at = (iso: string) => new Date(iso);
  const row = (over: Partial<LimitRow> = {}): LimitRow => ({
    key: "k",
    failures: 0,
    window_started_at: at("2026-01-01T00:00:00Z"),
    blocked_until: null,
    succeeded_at: null,
    ...over,
  });

  it("a fixed window starts over once it has passed", () => {
    const now = at("2026-01-01T00:00:00Z");
    let r = row();
    for (let i = 0; i < ACCOUNT.limit; i++) r = afterFailure("account", r, now);
    expect(r.blocked_until?.getTime()).toBe(now.getTime() + ACCOUNT.windowMs);
    const later = new Date(now.getTime() + ACCOUNT.windowMs);
    const next = afterFailure("account", r, later);
    expect(next.failures).toBe(1);
    expect(next.window_started_at).toEqual(later);
  });

  it("a pair's count is forgotten a day after it started", () => {
    const now = at("2026-01-01T00:00:00Z");
    const r = afterFailure("pair", row({ failures: 12 }), new Date(now.getTime() + PAIR.forgetMs + 1));
    expect(r.failures).toBe(1);
    expect(r.blocked_until).toBeNull();
  });

  it("a known address (signed in within 90 days) is spared the address and account waits, not its own", () => {
    const now = at("2026-03-01T00:00:00Z");
    const blocked = row({ blocked_until: new Date(now.getTime() + 60_000) });
    const knownPair = row({ succeeded_at: new Date(now.getTime() - KNOWN_MS + 1000) });
    expect(waitFor({ pair: knownPair, address: blocked, account: blocked }, now)).toBe(0);
    const stale = row({ succeeded_at: new Date(now.getTime() - KNOWN_MS - 1000) });
    expect(waitFor({ pair: stale, address: blocked, account: row() }, now)).toBe(60_000);
    expect(
      waitFor({ pair: { ...knownPair, blocked_until: blocked.blocked_until }, address: row(), account: row() }, now),
    ).toBe(60_000);
  });
});

describe("purge", () => {
  it("deletes rows idle for a day, keeps known addresses for 90 days", async () => {
    const email = await staff();
    const from = address();
    expect(await attempt(email, PASSWORD, from)).toBe("ok");
    await attempt(unique("gone"), "wrong", address());
    await query("UPDATE sign_in_limits SET updated_at = now() - interval '2 days'");
    // 3 rows of the failure; of the success's 3, the pair row is a known address and stays.
    expect(await purgeSignInLimits()).toBe(5);
    expect(await query("SELECT 1 FROM sign_in_limits")).toHaveLength(1);
  });
});
