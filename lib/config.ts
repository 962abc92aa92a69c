/** Deployment configuration, read from the environment once. */
import { type CurrencyCode, isCurrencyCode } from "./billing/currencies.ts";

export type Environment = "sandbox" | "live";

function environment(): Environment {
  const value = (process.env.BILLING_ENVIRONMENT ?? "sandbox").toLowerCase();
  if (value !== "sandbox" && value !== "live") {
    throw new Error(`BILLING_ENVIRONMENT must be "sandbox" or "live", not "${value}"`);
  }
  return value;
}

/** "30s", "5m", "2h", "1d" or plain seconds, to milliseconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a duration (e.g. 30s, 5m, 2h, 1d)`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? "s"] ?? 1_000;
  return Math.round(Number(match[1]) * unit);
}

/**
 * Delays before each retry of a failed delivery. Sandbox: 3 retries within 15 minutes. Live: 60
 * retries over 3 days (doubling from 30 s to 64 min, then every 80 min). Each delay gets ±10% jitter.
 */
function retrySchedule(): number[] {
  const custom = process.env.BILLING_WEBHOOK_RETRY_SCHEDULE;
  if (custom)
    return custom
      .split(",")
      .filter((part) => part.trim() !== "")
      .map(parseDuration);
  if (environment() === "sandbox") return [30_000, 120_000, 480_000];
  const doubling = Array.from({ length: 8 }, (_, i) => 30_000 * 2 ** i);
  return [...doubling, ...Array.from({ length: 52 }, () => 80 * 60_000)];
}

function flag(name: string, fallback: boolean): boolean {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  return !["0", "false", "no", "off"].includes(value.toLowerCase());
}

const rateLimitCache = new Map<string, { text: string | undefined; value: number }>();

/**
 * A per-minute limit from the environment: a whole number, or `off` (0: no limit). Read on every
 * request, so the parse is cached per value of the variable.
 */
function rateLimit(name: string, fallback: number): number {
  const text = process.env[name];
  const cached = rateLimitCache.get(name);
  if (cached && cached.text === text) return cached.value;
  const trimmed = (text ?? "").trim().toLowerCase();
  let value: number;
  if (trimmed === "") value = fallback;
  else if (["off", "false", "no", "0"].includes(trimmed)) value = 0;
  else if (/^\d+$/.test(trimmed)) value = Number(trimmed);
  else throw new Error(`${name} must be a number of requests a minute or "off", not "${text}"`);
  rateLimitCache.set(name, { text, value });
  return value;
}

export const config = {
  get environment(): Environment {
    return environment();
  },
  get databaseUrl(): string {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set");
    return url;
  },
  get port(): number {
    return Number(process.env.PORT ?? 3000);
  },
  /**
   * The address people reach this server at (PUBLIC_URL, default http://localhost:<port>), without a
   * trailing slash: links handed out (the hosted checkout's URL) start with it.
   */
  get publicUrl(): string {
    return (process.env.PUBLIC_URL ?? `http://localhost:${this.port}`).replace(/\/+$/, "");
  },
  /**
   * What the payment processor (the sandbox, here) keeps from each captured payment:
   * BILLING_FEE_PERCENT (a decimal percentage, default "5") plus BILLING_FEE_FIXED minor units of
   * the transaction's currency (default 50). Read at each payment, so a change needs no restart of
   * the money engine (lib/billing/totals.ts computeFee); a bad value is refused there.
   */
  fees: {
    get percent(): string {
      return process.env.BILLING_FEE_PERCENT?.trim() || "5";
    },
    get fixed(): bigint {
      const text = process.env.BILLING_FEE_FIXED?.trim() || "50";
      if (!/^\d+$/.test(text))
        throw new Error(`BILLING_FEE_FIXED must be a whole number of minor units, not "${text}"`);
      return BigInt(text);
    },
  },
  /**
   * The merchant's primary (balance) currency (BILLING_PRIMARY_CURRENCY, default USD): revenue
   * metrics are reported in it, other currencies converted at lib/billing/exchange-rates.ts.
   */
  get primaryCurrency(): CurrencyCode {
    const value = (process.env.BILLING_PRIMARY_CURRENCY ?? "USD").trim().toUpperCase();
    if (!isCurrencyCode(value))
      throw new Error(`BILLING_PRIMARY_CURRENCY must be a supported currency code, not "${value}"`);
    return value;
  },
  /**
   * How many reverse proxies in front of this server each append the address they were reached
   * from to X-Forwarded-For (BILLING_TRUST_PROXY): off (0, the default: the client's address is the
   * socket's), "true" (1) or a number of hops. Only with it on is X-Forwarded-For believed at all.
   */
  get trustProxyHops(): number {
    const value = (process.env.BILLING_TRUST_PROXY ?? "").trim().toLowerCase();
    if (value === "" || ["0", "false", "no", "off"].includes(value)) return 0;
    if (["true", "yes", "on"].includes(value)) return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    throw new Error(`BILLING_TRUST_PROXY must be off, true or a number of proxies, not "${value}"`);
  },
  rateLimits: {
    /** API requests a minute per client address (BILLING_RATE_LIMIT, default 240; `off` disables). */
    get perMinute(): number {
      return rateLimit("BILLING_RATE_LIMIT", 240);
    },
    /** Preview requests a minute per client address, a budget of their own (BILLING_RATE_LIMIT_PREVIEW, default 1000). */
    get previewPerMinute(): number {
      return rateLimit("BILLING_RATE_LIMIT_PREVIEW", 1_000);
    },
  },
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: 1024 * 1024,
  invoices: {
    /**
     * What every invoice number starts with (BILLING_INVOICE_PREFIX, default "INV-"), before the
     * number zero-padded to 6 digits: INV-000001. Changing it affects only invoices issued after.
     */
    get prefix(): string {
      return process.env.BILLING_INVOICE_PREFIX ?? "INV-";
    },
  },
  creditNotes: {
    /** What every credit-note number starts with (BILLING_CREDIT_NOTE_PREFIX, default "CN-"): CN-000001. */
    get prefix(): string {
      return process.env.BILLING_CREDIT_NOTE_PREFIX ?? "CN-";
    },
  },
  webhooks: {
    /** Time allowed for one delivery attempt (BILLING_WEBHOOK_TIMEOUT, default 5s). */
    get timeoutMs(): number {
      return parseDuration(process.env.BILLING_WEBHOOK_TIMEOUT ?? "5s");
    },
    /** BILLING_WEBHOOK_RETRY_SCHEDULE: comma-separated delays, e.g. "30s,2m,8m". */
    get retrySchedule(): number[] {
      return retrySchedule();
    },
    /**
     * Whether destinations may be loopback or private addresses (for local development). Never in
     * live; in the sandbox by default, unless BILLING_WEBHOOK_ALLOW_PRIVATE=false.
     */
    get allowPrivateDestinations(): boolean {
      return environment() === "sandbox" && flag("BILLING_WEBHOOK_ALLOW_PRIVATE", true);
    },
    /** Longest response body kept in a delivery log, in characters. */
    responseBodyLimit: 10_000,
    /** Notifications older than this are purged. */
    retentionDays: 90,
  },
  dunning: {
    /**
     * Delays from a failed subscription payment before each retry of it (BILLING_DUNNING_SCHEDULE,
     * comma-separated durations from the failure, default "1d,3d,5d,7d": four retries over a week).
     */
    get schedule(): number[] {
      const text = process.env.BILLING_DUNNING_SCHEDULE ?? "1d,3d,5d,7d";
      return text
        .split(",")
        .filter((part) => part.trim() !== "")
        .map(parseDuration)
        .sort((a, b) => a - b);
    },
    /** What ends a subscription whose last retry failed (BILLING_DUNNING_EXHAUSTED_ACTION): cancel or pause. */
    get exhaustedAction(): "cancel" | "pause" {
      const value = (process.env.BILLING_DUNNING_EXHAUSTED_ACTION ?? "cancel").trim().toLowerCase();
      if (value !== "cancel" && value !== "pause") {
        throw new Error(`BILLING_DUNNING_EXHAUSTED_ACTION must be "cancel" or "pause", not "${value}"`);
      }
      return value;
    },
  },
  worker: {
    /** Whether the web process runs the background worker too (BILLING_WORKER=off: web only). */
    get inProcess(): boolean {
      return flag("BILLING_WORKER", true);
    },
    /** Deliveries in flight at once per worker process (BILLING_WORKER_CONCURRENCY, default 20). */
    get concurrency(): number {
      return Number(process.env.BILLING_WORKER_CONCURRENCY ?? 20);
    },
    /** How often a worker writes its heartbeat. */
    get heartbeatMs(): number {
      return parseDuration(process.env.BILLING_WORKER_HEARTBEAT ?? "5s");
    },
    /** A worker silent this long is taken as dead and its jobs go to others (BILLING_WORKER_STALE_AFTER). */
    get staleAfterMs(): number {
      return parseDuration(process.env.BILLING_WORKER_STALE_AFTER ?? "30s");
    },
    /**
     * Longer than any job runs (a delivery is bounded by its timeout; a simulation run by its
     * events' timeouts): a job locked longer was lost by its worker and is freed for another.
     */
    get maxJobMs(): number {
      return parseDuration(process.env.BILLING_WORKER_MAX_JOB ?? "5m");
    },
  },
};
