/**
 * API rate limits, as the API family has them: per client address, 240 requests a minute
 * (BILLING_RATE_LIMIT), and a budget of its own for previews (POST /transactions/preview,
 * /pricing-preview and any other `…/preview`): 1,000 a minute (BILLING_RATE_LIMIT_PREVIEW). Past the
 * limit: 429 `too_many_requests` with `Retry-After` (seconds). Every limited response carries the
 * IETF draft headers `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds to the
 * window's end), in the form of draft-ietf-httpapi-ratelimit-headers-06, which clients and
 * libraries commonly read (the later `RateLimit-Policy` + `RateLimit` form is not used).
 *
 * Windows are fixed minutes (aligned to the clock): simple to share between processes and to
 * explain; a client can at worst spend one window's budget at its end and the next at once.
 *
 * Several web processes serve one deployment and share one PostgreSQL (no Redis), so the counts
 * live in the UNLOGGED table rate_limit_counters, one row per (key, window). Writing it on every
 * request would add a database write to every request; instead each process:
 *   - admits a request on what it knows: the total it last read for the key (`known`) plus what it
 *     admitted since (`pending`);
 *   - flushes the pending counts of every key in one statement every FLUSH_MS (an upsert that adds
 *     the deltas and returns each key's new total, refreshing `known`), only when it has any;
 *   - syncs at once, on the request's path, when a key has `chunk` requests here not yet confirmed
 *     by a read of the total, or when it is within `chunk` of its limit: there every admission is
 *     one atomic upsert (count + 1, admitted if the new total is within the limit), so the last
 *     requests are counted exactly across processes. One such sync runs per key at a time; the
 *     key's other requests wait for it (only busy keys, a few hundred microseconds);
 *   - refuses on local knowledge alone once known + pending reaches the limit (the true total is at
 *     least that), so a client hammering past its limit costs no database work.
 *
 * Overshoot bound: only admissions made without a sync can overshoot, and a process never holds
 * more than `chunk` of them for a key (pending + being written); once the shared total reaches the
 * limit, each process admits at most `chunk` more before its next sync shows it. So P processes serving one
 * client admit at most limit + P × chunk in a window, with chunk = max(1, ceil(limit / 20)):
 * 5% of the limit per process (240: at most 12 more per process; 1,000: 50). One process alone is
 * exact. When the database cannot be reached, each process limits on its own counts (the limiter
 * must not be what takes the API down; the request itself fails on the database if it is gone).
 *
 * Cost: a request admitted locally costs a Map lookup and a few additions (measured: see the
 * report in lib/http/rate-limit.test.ts); each busy process writes one statement per FLUSH_MS at
 * most, whatever its traffic, plus one per `chunk` requests of a busy key and one per request of a
 * key near its limit.
 */
import type pg from "pg";
import { config } from "../config.ts";
import { pool } from "../db/connection.ts";
import { ApiError } from "../errors.ts";
import { clientAddress } from "./client-address.ts";

export const WINDOW_MS = 60_000;
const FLUSH_MS = 250;
/** Keys kept in memory at most; past it, keys with nothing to flush are dropped (re-read on use). */
const MAX_KEYS = 100_000;

export type LimitClass = "api" | "preview";

/** Unflushed requests a process admits for one key before it syncs: 5% of the limit. */
export function chunkOf(limit: number): number {
  return Math.max(1, Math.ceil(limit / 20));
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends (and the count starts again). */
  resetSeconds: number;
}

interface KeyState {
  window: number;
  /** The key's total in the database as last read (includes this process's flushed requests). */
  known: number;
  /** Requests admitted here and not yet written. */
  pending: number;
  /** Requests admitted here whose write is under way. */
  inFlight: number;
  /** The sync of this key on a request's path, while it runs (the next requests wait for it). */
  syncing: Promise<unknown> | null;
}

type Db = Pick<pg.Pool, "query">;

export interface RateLimiterOptions {
  windowMs?: number;
  flushMs?: number;
  now?: () => number;
  db?: () => Db;
}

const UPSERT = `
  INSERT INTO rate_limit_counters AS r (key, window_start, count)
  SELECT x.key, x.window_start, x.delta
    FROM unnest($1::text[], $2::bigint[], $3::int[]) AS x(key, window_start, delta)
   ORDER BY x.key, x.window_start
  ON CONFLICT (key, window_start) DO UPDATE SET count = r.count + excluded.count
  RETURNING r.key, r.window_start::float8 AS window_start, r.count`;

export class RateLimiter {
  private readonly states = new Map<string, KeyState>();
  private readonly windowMs: number;
  private readonly flushMs: number;
  private readonly now: () => number;
  private readonly db: () => Db;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private lastError = 0;
  /** Statements written (for tests and the benchmark). */
  writes = 0;

  constructor(options: RateLimiterOptions = {}) {
    this.windowMs = options.windowMs ?? WINDOW_MS;
    this.flushMs = options.flushMs ?? FLUSH_MS;
    this.now = options.now ?? Date.now;
    this.db = options.db ?? pool;
  }

  /** Counts one request of `key` against `limit` per window, and says whether it may run. */
  check(key: string, limit: number): Decision | Promise<Decision> {
    const now = this.now();
    const window = now - (now % this.windowMs);
    let state = this.states.get(key);
    if (!state || state.window !== window) {
      if (state && state.pending > 0) this.scheduleFlush(); // the old window's count is still written
      state = { window, known: 0, pending: 0, inFlight: 0, syncing: null };
      if (this.states.size >= MAX_KEYS) this.prune(window, true);
      this.states.set(key, state);
    }
    const resetSeconds = Math.max(1, Math.ceil((window + this.windowMs - now) / 1000));
    // Admitted here and not yet confirmed by a read of the total: never more than a chunk.
    const unconfirmed = state.pending + state.inFlight;
    const used = state.known + unconfirmed;
    if (used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    const chunk = chunkOf(limit);
    if (used + 1 <= limit - chunk && unconfirmed < chunk) {
      state.pending++;
      this.scheduleFlush();
      return { allowed: true, limit, remaining: limit - used - 1, resetSeconds };
    }
    // Near the limit, or a chunk unconfirmed: one sync at a time per key; the others wait for it.
    if (state.syncing) return state.syncing.then(() => this.check(key, limit));
    const sync = this.sync(key, state, limit, resetSeconds);
    state.syncing = sync;
    const clear = () => {
      if (state.syncing === sync) state.syncing = null;
    };
    sync.then(clear, clear);
    return sync;
  }

  /** One atomic upsert of this key's pending requests plus this one; admitted if within the limit. */
  private async sync(key: string, state: KeyState, limit: number, resetSeconds: number): Promise<Decision> {
    const taken = state.pending + 1;
    state.pending = 0;
    state.inFlight += taken;
    let total: number;
    try {
      this.writes++;
      const { rows } = await this.db().query<{ count: number }>(UPSERT, [[key], [state.window], [taken]]);
      // One key in, one row out: an upsert always returns its row.
      const [row] = rows;
      if (!row) throw new Error("rate limit upsert returned no row");
      total = row.count;
    } catch (error) {
      // Without the database, each process limits on its own counts.
      state.inFlight -= taken;
      state.pending += taken;
      this.reportError(error);
      this.scheduleFlush();
      return { allowed: true, limit, remaining: Math.max(0, limit - state.known - state.pending), resetSeconds };
    }
    state.inFlight -= taken;
    state.known = Math.max(state.known, total);
    // Over the limit, the refused request stays counted: harmless, every later one is refused too.
    if (total > limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    return {
      allowed: true,
      limit,
      remaining: Math.max(0, limit - total - state.pending - state.inFlight),
      resetSeconds,
    };
  }

  private scheduleFlush(): void {
    if (this.timer || this.flushMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.flushMs);
    this.timer.unref?.();
  }

  /** Writes every key's pending requests in one statement and reads back their totals. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    const batch: { key: string; state: KeyState; delta: number }[] = [];
    for (const [key, state] of this.states) {
      if (state.pending > 0) {
        batch.push({ key, state, delta: state.pending });
        state.inFlight += state.pending;
        state.pending = 0;
      }
    }
    const window = this.now() - (this.now() % this.windowMs);
    this.prune(window, false);
    if (batch.length === 0) return Promise.resolve();
    this.flushing = (async () => {
      try {
        this.writes++;
        const { rows } = await this.db().query<{ key: string; window_start: number; count: number }>(UPSERT, [
          batch.map((b) => b.key),
          batch.map((b) => b.state.window),
          batch.map((b) => b.delta),
        ]);
        const totals = new Map(rows.map((row) => [`${row.window_start} ${row.key}`, row.count]));
        for (const { key, state, delta } of batch) {
          state.inFlight -= delta;
          const total = totals.get(`${state.window} ${key}`);
          if (total !== undefined) state.known = Math.max(state.known, total);
        }
      } catch (error) {
        for (const { state, delta } of batch) {
          state.inFlight -= delta;
          state.pending += delta;
        }
        this.reportError(error);
        this.scheduleFlush();
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** Drops the states of past windows (and, when `all`, of idle keys) that have nothing to write. */
  private prune(window: number, all: boolean): void {
    for (const [key, state] of this.states) {
      if (state.pending === 0 && state.inFlight === 0 && (all || state.window < window)) this.states.delete(key);
    }
  }

  private reportError(error: unknown): void {
    if (Date.now() - this.lastError < 60_000) return;
    this.lastError = Date.now();
    console.error("[rate-limit] the shared counters could not be written; admitting on local counts", error);
  }

  /** Writes what is pending and stops the timer. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}

let shared: RateLimiter | null = null;

/** This process's limiter (one per process: its counts are what it flushes). */
export function rateLimiter(): RateLimiter {
  shared ??= new RateLimiter();
  return shared;
}

const PREVIEW_PATH = /\/(?:pricing-)?preview\/?$/;

/** The budget a request counts against: previews have their own. */
export function limitClass(request: Request): LimitClass {
  const url = request.url;
  const query = url.indexOf("?");
  return PREVIEW_PATH.test(query < 0 ? url : url.slice(0, query)) ? "preview" : "api";
}

export interface RateLimitOutcome {
  kind: LimitClass;
  decision: Decision;
  headers: Record<string, string>;
}

function headersOf(decision: Decision): Record<string, string> {
  return {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
  };
}

/**
 * Counts the request against its client's budget. Null when limits are off (BILLING_RATE_LIMIT=off);
 * otherwise the decision and the headers to send. Call `rateLimitError` for a refused one.
 */
export async function checkRateLimit(request: Request, limiter = rateLimiter()): Promise<RateLimitOutcome | null> {
  const kind = limitClass(request);
  const limit = kind === "preview" ? config.rateLimits.previewPerMinute : config.rateLimits.perMinute;
  if (limit <= 0) return null;
  const decision = await limiter.check(`${kind}:${clientAddress(request.headers)}`, limit);
  return { kind, decision, headers: headersOf(decision) };
}

export function rateLimitError(outcome: RateLimitOutcome): ApiError {
  const { decision } = outcome;
  return new ApiError(
    "too_many_requests",
    `Too many requests: a client may send ${decision.limit} ${outcome.kind === "preview" ? "preview requests" : "requests"} a minute. Try again in ${decision.resetSeconds} seconds.`,
    { headers: { ...outcome.headers, "Retry-After": String(decision.resetSeconds) } },
  );
}

/** Adds the RateLimit headers to a response (a new one when its headers cannot be changed). */
export function withRateLimitHeaders(response: Response, outcome: RateLimitOutcome | null): Response {
  if (!outcome) return response;
  try {
    for (const [name, value] of Object.entries(outcome.headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(outcome.headers)) copy.headers.set(name, value);
    return copy;
  }
}

/** Deletes the counters of past windows (the hourly retention job). Returns how many. */
export async function purgeRateLimitCounters(now = Date.now(), db: Db = pool()): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM rate_limit_counters WHERE window_start < $1", [now - 2 * WINDOW_MS]);
  return rowCount ?? 0;
}
