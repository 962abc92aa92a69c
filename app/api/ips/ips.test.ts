/** GET /ips, through the real route handler: the configured webhook source addresses. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, expectError, testKey } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed } from "@/lib/dev/test/checks";
import { parseSourceIps, WEBHOOK_SOURCE_IPS_VARIABLE } from "@/lib/services/webhook-source-ips";
import * as ips from "./route";

afterEach(() => vi.unstubAllEnvs());

const get = (key?: string | null, headers?: Record<string, string>) =>
  call(ips.GET as never, "GET", "/ips", { key: key ?? null, headers });

describe("GET /ips", () => {
  it("answers the configured CIDRs in the family's shape, with no key needed", async () => {
    vi.stubEnv(WEBHOOK_SOURCE_IPS_VARIABLE, " 203.0.113.7, 198.51.100.0/24 ,,192.0.2.9/24");
    const res = await get();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ ipv4_cidrs: ["203.0.113.7/32", "198.51.100.0/24", "192.0.2.0/24"] });
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
  });

  it("is an empty list when the variable is unset or blank", async () => {
    vi.stubEnv(WEBHOOK_SOURCE_IPS_VARIABLE, undefined as unknown as string);
    expect((await get()).body.data).toEqual({ ipv4_cidrs: [] });
    vi.stubEnv(WEBHOOK_SOURCE_IPS_VARIABLE, "  ");
    expect((await get()).body.data).toEqual({ ipv4_cidrs: [] });
  });

  it("needs no permission: any valid key reads it; a bad key is still refused (401)", async () => {
    vi.stubEnv(WEBHOOK_SOURCE_IPS_VARIABLE, "203.0.113.7");
    expect((await get(await testKey([]))).status).toBe(200);
    expect((await get(await testKey(["customer.read"]))).status).toBe(200);
    expectError(await get("svc_apikey_sdbx_nonsense"), 401, "invalid_token");
  });

  it("a malformed variable is the operator's error: 500 internal_error, never a partial list", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.stubEnv(WEBHOOK_SOURCE_IPS_VARIABLE, "203.0.113.7, not-an-ip");
    const error = expectError(await get(), 500, "internal_error");
    expect(error.detail).not.toContain("not-an-ip");
    expect(String(log.mock.calls.flat().join(" "))).toContain(WEBHOOK_SOURCE_IPS_VARIABLE);
    log.mockRestore();
  });

  it("ignores query parameters and answers only GET", async () => {
    vi.stubEnv(WEBHOOK_SOURCE_IPS_VARIABLE, "203.0.113.7");
    const res = await call(ips.GET as never, "GET", "/ips?x=%00&per_page=abc", {});
    expect(res.status).toBe(200);
    await expectMethodsNotAllowed(ips, ["POST", "PUT", "PATCH", "DELETE"], "/ips");
  });
});

describe("parseSourceIps", () => {
  it.each([
    ["203.0.113.7", ["203.0.113.7/32"]],
    ["203.0.113.7/32, 203.0.113.7", ["203.0.113.7/32"]],
    ["10.1.2.3/8", ["10.0.0.0/8"]],
    ["0.0.0.0/0", ["0.0.0.0/0"]],
    ["", []],
  ])("%j → %j", (text, cidrs) => {
    expect(parseSourceIps(text)).toEqual({ cidrs });
  });

  it.each(["2001:db8::/32", "203.0.113.7/33", "203.0.113.7/", "203.0.113", "010.0.0.1", "1.2.3.4/8/8", "host.example"])(
    "refuses %j",
    (entry) => {
      expect(parseSourceIps(`203.0.113.7,${entry}`)).toEqual({ bad: entry });
    },
  );
});
