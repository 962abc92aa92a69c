/**
 * GET/PUT/DELETE /payment-settings and POST /payment-settings/test through the real route handlers
 * on a real database, against the local Stripe stand-in (STRIPE_API_URL): connecting Stripe, the
 * key rules of each deployment mode, encryption at rest (read back from the row), the secret never
 * answered, "Test connection", the environment winning over Settings, permissions and hostile input.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { type StripeStandIn, startStripeStandIn } from "@/lib/dev/stripe/server";
import { call, expectError, expectFieldError, testKey } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { type Key, keyOf } from "@/lib/dev/test/resource";
import { unseal } from "@/lib/payments/secret-box";
import { STRIPE_SETTING_KEYS, STRIPE_WEBHOOK_EVENTS } from "@/lib/payments/stripe-config";
import * as settings from "./route";
import * as test from "./test/route";

const ENCRYPTION_KEY = "8f1c6a2b9d3e4f5061728394a5b6c7d8e9f00112233445566778899aabbccdd0";
const TEST_SECRET = "sk_test_standin_0000000000000000000000000000";
const TEST_PUBLISHABLE = "pk_test_standin_0000000000000000000000000000";
const LIVE_SECRET = "sk_live_standin_live_account_0001";
const LIVE_PUBLISHABLE = "pk_live_standin_live_account_0001";
const WEBHOOK_SECRET = "whsec_standin_abcdefghijklmnop";

let standIn: StripeStandIn;
const saved = { ...process.env };

beforeAll(async () => {
  standIn = await startStripeStandIn({
    accounts: [
      {
        secretKey: TEST_SECRET,
        publishableKey: TEST_PUBLISHABLE,
        name: "Stand-in Test Shop",
        country: "GB",
        defaultCurrency: "gbp",
      },
      {
        secretKey: LIVE_SECRET,
        publishableKey: LIVE_PUBLISHABLE,
        name: "Live Shop Ltd",
        country: "US",
        defaultCurrency: "usd",
      },
    ],
  });
});

afterAll(async () => {
  await standIn.close();
});

function environment(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

function defaults() {
  environment({
    BILLING_ENVIRONMENT: "sandbox",
    BILLING_ENCRYPTION_KEY: ENCRYPTION_KEY,
    STRIPE_API_URL: standIn.url,
    STRIPE_JS_URL: undefined,
    STRIPE_SECRET_KEY: undefined,
    STRIPE_PUBLISHABLE_KEY: undefined,
    STRIPE_WEBHOOK_SECRET: undefined,
    PUBLIC_URL: "https://billing.example.com",
  });
}

afterEach(async () => {
  await query("DELETE FROM settings WHERE key LIKE 'stripe_%'");
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

const get = async (key?: Key) => call(settings.GET, "GET", "/payment-settings", { key: await keyOf(key) });
const put = async (body: unknown, key?: Key) =>
  call(settings.PUT, "PUT", "/payment-settings", { key: await keyOf(key), body });
const del = async (key?: Key) => call(settings.DELETE, "DELETE", "/payment-settings", { key: await keyOf(key) });
const testConnection = async (key?: Key) =>
  call(test.POST, "POST", "/payment-settings/test", { key: await keyOf(key) });

async function stored(): Promise<Record<string, string>> {
  const rows = await query<{ key: string; value: string }>("SELECT key, value FROM settings WHERE key LIKE 'stripe_%'");
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

const connect = (extra: Record<string, unknown> = {}, key?: Key) =>
  put({ secret_key: TEST_SECRET, publishable_key: TEST_PUBLISHABLE, webhook_secret: WEBHOOK_SECRET, ...extra }, key);

describe("GET /payment-settings", () => {
  it("answers the sandbox processor when nothing is configured, with the webhook URL to register", async () => {
    defaults();
    const res = await get();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      processor: "sandbox",
      source: null,
      mode: null,
      publishable_key: null,
      secret_key_hint: null,
      webhook_secret_set: false,
      webhook_url: "https://billing.example.com/webhooks/stripe",
      webhook_events: [...STRIPE_WEBHOOK_EVENTS],
      api_url: standIn.url,
      encryption_key_set: true,
      problem: null,
      updated_at: null,
    });
  });

  it("says when BILLING_ENCRYPTION_KEY is missing and defaults to Stripe's API", async () => {
    defaults();
    environment({ BILLING_ENCRYPTION_KEY: undefined, STRIPE_API_URL: undefined });
    const res = await get();
    expect(res.body.data).toMatchObject({ encryption_key_set: false, api_url: "https://api.stripe.com" });
  });

  it("needs settings.read (settings.write implies it) and a key", async () => {
    defaults();
    await expectPermission((key) => get(key), {
      permission: "settings.read",
      denied: [permissionsWithout("settings."), []],
      allowed: [["settings.read"], ["settings.write"]],
    });
    expectError(await get(null), 401, "invalid_token");
  });
});

describe("PUT /payment-settings", () => {
  it("saves the keys encrypted at rest, answers only a hint, and makes Stripe the processor", async () => {
    defaults();
    const res = await connect();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      processor: "stripe",
      source: "settings",
      mode: "test",
      publishable_key: TEST_PUBLISHABLE,
      secret_key_hint: "sk_test_…0000",
      webhook_secret_set: true,
      problem: null,
    });
    expect(res.body.data.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(JSON.stringify(res.body)).not.toContain(TEST_SECRET);
    expect(JSON.stringify(res.body)).not.toContain(WEBHOOK_SECRET);

    const rows = await stored();
    expect(rows[STRIPE_SETTING_KEYS.secretKey]).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(rows[STRIPE_SETTING_KEYS.secretKey]).not.toContain("standin");
    expect(rows[STRIPE_SETTING_KEYS.webhookSecret]).not.toContain("standin");
    expect(unseal(rows[STRIPE_SETTING_KEYS.secretKey]!, STRIPE_SETTING_KEYS.secretKey)).toBe(TEST_SECRET);
    expect(unseal(rows[STRIPE_SETTING_KEYS.webhookSecret]!, STRIPE_SETTING_KEYS.webhookSecret)).toBe(WEBHOOK_SECRET);
    // Sealed for its own purpose: the webhook secret's ciphertext does not open as the secret key.
    expect(() => unseal(rows[STRIPE_SETTING_KEYS.webhookSecret]!, STRIPE_SETTING_KEYS.secretKey)).toThrow();
    expect(rows[STRIPE_SETTING_KEYS.publishableKey]).toBe(TEST_PUBLISHABLE);

    const after = await get();
    expect(after.body.data).toEqual(res.body.data);
    expect(JSON.stringify(after.body)).not.toContain(TEST_SECRET);
    // The audit log records the change, not the secrets.
    const audit = await query<{ row: string }>("SELECT row_to_json(a)::text AS row FROM audit_log a");
    expect(audit.map((a) => a.row).join("\n")).toContain("PUT /api/payment-settings");
    expect(audit.map((a) => a.row).join("\n")).not.toContain(TEST_SECRET);
  });

  it("keeps the webhook secret when left out, removes it with null", async () => {
    defaults();
    await connect();
    const kept = await put({ secret_key: TEST_SECRET, publishable_key: TEST_PUBLISHABLE });
    expect(kept.body.data.webhook_secret_set).toBe(true);
    const removed = await put({ secret_key: TEST_SECRET, publishable_key: TEST_PUBLISHABLE, webhook_secret: null });
    expect(removed.body.data.webhook_secret_set).toBe(false);
    expect((await stored())[STRIPE_SETTING_KEYS.webhookSecret]).toBeUndefined();
  });

  it("refuses live keys in the sandbox, naming each field", async () => {
    defaults();
    const res = await put({ secret_key: LIVE_SECRET, publishable_key: LIVE_PUBLISHABLE });
    const error = expectFieldError(res, "secret_key");
    expect(error.errors?.map((e) => e.field)).toEqual(["secret_key", "publishable_key"]);
    expect(error.errors?.[0]?.message).toMatch(/is a live key, but this deployment is the sandbox/);
    const mixed = await put({ secret_key: TEST_SECRET, publishable_key: LIVE_PUBLISHABLE });
    expect(expectFieldError(mixed, "publishable_key").errors?.map((e) => e.field)).toEqual(["publishable_key"]);
    expect(await stored()).toEqual({});
  });

  it("in a live deployment takes live keys only (a test key, or a mixed pair, is refused)", async () => {
    defaults();
    environment({ BILLING_ENVIRONMENT: "live" });
    // API keys carry their environment: a live deployment needs a live key.
    const liveKey = await testKey();
    const testKeys = await put({ secret_key: TEST_SECRET, publishable_key: TEST_PUBLISHABLE }, liveKey);
    expect(expectFieldError(testKeys, "secret_key").errors?.[0]?.message).toMatch(
      /is a test key, but this deployment is live/,
    );
    const mixed = await put({ secret_key: TEST_SECRET, publishable_key: LIVE_PUBLISHABLE }, liveKey);
    expect(expectFieldError(mixed, "secret_key").errors?.map((e) => e.field)).toEqual(["secret_key"]);
    const live = await put({ secret_key: LIVE_SECRET, publishable_key: LIVE_PUBLISHABLE }, liveKey);
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body.data).toMatchObject({ mode: "live", secret_key_hint: "sk_live_…0001" });
    const tested = await testConnection(liveKey);
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body.data).toEqual({
      processor: "stripe",
      mode: "live",
      account: { id: standIn.accounts[1]!.id, name: "Live Shop Ltd", country: "US", default_currency: "USD" },
    });
  });

  it("refuses to store a secret without BILLING_ENCRYPTION_KEY, saying what to set", async () => {
    defaults();
    environment({ BILLING_ENCRYPTION_KEY: undefined });
    const res = await connect();
    const error = expectFieldError(res, "secret_key");
    expect(error.errors?.[0]?.message).toMatch(
      /set BILLING_ENCRYPTION_KEY on the server first \(.*64 hexadecimal digits or base64/,
    );
    environment({ BILLING_ENCRYPTION_KEY: "too-short" });
    expect(expectFieldError(await connect(), "secret_key").errors?.[0]?.message).toMatch(/is not a valid key/);
    expect(await stored()).toEqual({});
  });

  it("validates each field: required, format, length, unknown fields", async () => {
    defaults();
    expect(
      expectFieldError(await put({}), "secret_key")
        .errors?.map((e) => e.field)
        .sort(),
    ).toEqual(["publishable_key", "secret_key"]);
    expectFieldError(await put({ secret_key: "pk_test_abcdefghij", publishable_key: TEST_PUBLISHABLE }), "secret_key");
    expectFieldError(await put({ secret_key: TEST_SECRET, publishable_key: "sk_test_abcdefghij" }), "publishable_key");
    expectFieldError(await connect({ webhook_secret: "secret" }), "webhook_secret");
    expectFieldError(await connect({ secret_key: `sk_test_${"a".repeat(248)}` }), "secret_key");
    expectFieldError(await connect({ webhook_secret: `whsec_${"a".repeat(250)}` }), "webhook_secret");
    expectFieldError(await connect({ account_id: "acct_1" }), "account_id");
    expectFieldError(await connect({ secret_key: 42 }), "secret_key");
    // Pasted with spaces around it: trimmed.
    const trimmed = await connect({ secret_key: `  ${TEST_SECRET}\n` });
    expect(trimmed.status, JSON.stringify(trimmed.body)).toBe(200);
  });

  it("answers hostile input with 4xx, never 500, and stores nothing", async () => {
    defaults();
    const send = async (rawBody: string, type = "application/json") =>
      call(settings.PUT, "PUT", "/payment-settings", {
        key: await keyOf(undefined),
        rawBody,
        headers: { "content-type": type },
      });
    for (const rawBody of ["", "[]", "null", "{", '"sk_test_x"', JSON.stringify({ secret_key: ["x"] })]) {
      const res = await send(rawBody);
      expect(res.status, rawBody).toBeGreaterThanOrEqual(400);
      expect(res.status, rawBody).toBeLessThan(500);
    }
    expectFieldError(await connect({ secret_key: `${TEST_SECRET}\u0000` }), "secret_key");
    expectFieldError(await connect({ publishable_key: "pk_test_<script>alert(1)</script>" }), "publishable_key");
    expectFieldError(await connect({ secret_key: "sk_test_' OR 1=1 --" }), "secret_key");
    expect((await send(JSON.stringify({ secret_key: TEST_SECRET }), "text/plain")).status).toBe(400);
    expect(await stored()).toEqual({});
  });

  it("needs settings.write", async () => {
    defaults();
    await expectPermission((key) => connect({}, key), {
      permission: "settings.write",
      denied: [["settings.read"], permissionsWithout("settings.")],
      allowed: [["settings.write"]],
    });
    expectError(await put({}, null), 401, "invalid_token");
  });
});

describe("DELETE /payment-settings", () => {
  it("disconnects: the rows are deleted and the sandbox processor is active again", async () => {
    defaults();
    await connect();
    const res = await del();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ processor: "sandbox", source: null, secret_key_hint: null });
    expect(await stored()).toEqual({});
    expect((await del()).status).toBe(200);
  });

  it("needs settings.write", async () => {
    defaults();
    await expectPermission((key) => del(key), {
      permission: "settings.write",
      denied: [["settings.read"]],
      allowed: [["settings.write"]],
    });
  });
});

describe("POST /payment-settings/test", () => {
  it("answers the Stripe account's name, country and default currency", async () => {
    defaults();
    await connect();
    const res = await testConnection();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      processor: "stripe",
      mode: "test",
      account: { id: standIn.accounts[0]!.id, name: "Stand-in Test Shop", country: "GB", default_currency: "GBP" },
    });
    const call = standIn.requests.at(-1);
    expect(call).toMatchObject({ method: "GET", path: "/v1/account", status: 200 });
  });

  it("answers Stripe's refusal of a key as invalid_field secret_key, with Stripe's message", async () => {
    defaults();
    await put({ secret_key: "sk_test_revoked_key_9999", publishable_key: TEST_PUBLISHABLE });
    const res = await testConnection();
    const error = expectFieldError(res, "secret_key");
    expect(error.errors?.[0]?.message).toBe("was refused by Stripe: Invalid API Key provided: sk_test_****9999");
    expect(JSON.stringify(res.body)).not.toContain("sk_test_revoked_key_9999");
  });

  it("answers 400 bad_request when Stripe cannot be reached", async () => {
    defaults();
    await connect();
    environment({ STRIPE_API_URL: "http://127.0.0.1:9" });
    const error = expectError(await testConnection(), 400, "bad_request");
    expect(error.detail).toMatch(/^Stripe could not be reached at http:\/\/127\.0\.0\.1:9/);
  });

  it("answers 409 when Stripe is not connected", async () => {
    defaults();
    const error = expectError(await testConnection(), 409, "conflict");
    expect(error.detail).toMatch(/Stripe is not connected/);
  });

  it("needs settings.write; other methods are refused", async () => {
    defaults();
    await connect();
    await expectPermission((key) => testConnection(key), {
      permission: "settings.write",
      denied: [["settings.read"]],
      allowed: [["settings.write"]],
    });
    await expectMethodsNotAllowed(test, ["GET", "PUT", "PATCH", "DELETE"], "/payment-settings/test");
    await expectMethodsNotAllowed(settings, ["POST", "PATCH"], "/payment-settings");
  });
});

describe("keys from the environment", () => {
  it("win over Settings: reported as the source, and PUT and DELETE are refused with 409", async () => {
    defaults();
    await connect();
    environment({
      STRIPE_SECRET_KEY: TEST_SECRET,
      STRIPE_PUBLISHABLE_KEY: TEST_PUBLISHABLE,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    const res = await get();
    expect(res.body.data).toMatchObject({
      processor: "stripe",
      source: "environment",
      mode: "test",
      publishable_key: TEST_PUBLISHABLE,
      secret_key_hint: "sk_test_…0000",
      webhook_secret_set: true,
      problem: null,
      updated_at: null,
    });
    expect(JSON.stringify(res.body)).not.toContain(TEST_SECRET);
    expect(expectError(await connect(), 409, "conflict").detail).toMatch(/unset STRIPE_SECRET_KEY/);
    expectError(await del(), 409, "conflict");
    expect((await testConnection()).body.data.account.name).toBe("Stand-in Test Shop");
  });

  it("report a problem instead of using wrong settings (a live key in the sandbox, a missing publishable key)", async () => {
    defaults();
    environment({ STRIPE_SECRET_KEY: LIVE_SECRET, STRIPE_PUBLISHABLE_KEY: LIVE_PUBLISHABLE });
    expect((await get()).body.data.problem).toMatch(
      /^STRIPE_SECRET_KEY is a live key, but this deployment is the sandbox/,
    );
    expect(expectError(await testConnection(), 409, "conflict").detail).toMatch(/STRIPE_SECRET_KEY is a live key/);
    environment({ STRIPE_SECRET_KEY: TEST_SECRET, STRIPE_PUBLISHABLE_KEY: undefined });
    expect((await get()).body.data.problem).toMatch(/STRIPE_PUBLISHABLE_KEY is not set/);
    environment({ STRIPE_PUBLISHABLE_KEY: TEST_PUBLISHABLE, STRIPE_API_URL: "ftp://example.com" });
    expect((await get()).body.data.problem).toMatch(/STRIPE_API_URL must be an http\(s\) origin/);
  });
});

describe("saved settings that can no longer be used", () => {
  it("sealed under another BILLING_ENCRYPTION_KEY: a problem saying to enter the keys again", async () => {
    defaults();
    await connect();
    environment({ BILLING_ENCRYPTION_KEY: `${"0".repeat(63)}1` });
    const res = await get();
    expect(res.body.data).toMatchObject({ processor: "stripe", source: "settings", secret_key_hint: "sk_test_…0000" });
    expect(res.body.data.problem).toMatch(/encrypted under another BILLING_ENCRYPTION_KEY.*Enter the keys again/);
    expectError(await testConnection(), 409, "conflict");
  });

  it("test keys saved before the deployment went live: a problem, not a payment", async () => {
    defaults();
    await connect();
    environment({ BILLING_ENVIRONMENT: "live" });
    const res = await get(await testKey());
    expect(res.body.data.problem).toMatch(/saved secret key is a test key, but this deployment is live/);
  });
});
