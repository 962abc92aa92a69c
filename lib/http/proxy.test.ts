/** What proxy.ts does in front of Next.js's routing (lib/http/proxy.ts), and next-auth's checks. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { validCallbackUrl } from "./next-auth-route.ts";
import { badPathResponse, decodablePath, proxy } from "./proxy.ts";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("decodablePath", () => {
  it.each([
    ["/customers/ctm_01", true],
    ["/api/customers/%E2%82%AC", true],
    ["/a%20b/%2F", true],
    ["/api/%ZZ", false],
    ["/api/%", false],
    ["/api/%E2%82", false],
    ["/api/customers/%ED%A0%80", false],
    ["/api/%C0%80", false],
    ["/%FF", false],
  ])("%s: %s", (path, expected) => {
    expect(decodablePath(path)).toBe(expected);
  });
});

describe("badPathResponse", () => {
  it("answers under /api in the API's error shape", async () => {
    const response = badPathResponse("/api/customers/%ZZ");
    expect(response.status).toBe(400);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const body = await response.json();
    expect(body.error.code).toBe("bad_request");
    expect(response.headers.get("x-request-id")).toBe(body.meta.request_id);
  });

  it("answers an HTML page elsewhere", async () => {
    const response = badPathResponse("/customers/%ZZ");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("400: Bad request");
  });
});

describe("proxy", () => {
  it("lets a good path through, with Strict-Transport-Security only when PUBLIC_URL is https", () => {
    const plain = proxy("/customers");
    expect(plain.headers.get("x-middleware-next")).toBe("1");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    vi.stubEnv("PUBLIC_URL", "https://pay.example.com");
    expect(proxy("/customers").headers.get("strict-transport-security")).toBe("max-age=31536000");
  });
});

describe("next-auth", () => {
  it.each([
    ["/customers", true],
    ["/", true],
    ["http://localhost:3000/customers", true],
    ["https://elsewhere.example/x", true], // next-auth's redirect callback sends it to our own origin
    ["javascript:alert(1)", false],
    ["data:text/html,x", false],
    ["%ZZ", false],
    ["not a url", false],
    [5, false],
    [null, false],
  ])("validCallbackUrl(%j) is %s", (value, expected) => {
    expect(validCallbackUrl(value)).toBe(expected);
  });

  it("uses Secure cookies when PUBLIC_URL is https, and only then", async () => {
    vi.stubEnv("PUBLIC_URL", "https://pay.example.com");
    vi.resetModules();
    expect((await import("../auth/next-auth.ts")).authOptions.useSecureCookies).toBe(true);
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    vi.resetModules();
    expect((await import("../auth/next-auth.ts")).authOptions.useSecureCookies).toBe(false);
  });
});
