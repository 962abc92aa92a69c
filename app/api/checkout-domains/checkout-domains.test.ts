/** The checkout domain endpoints, through the real route handlers on a real database. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin, ids, resource } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { checkoutDomainSchema, DOMAIN_MAX } from "@/lib/schemas/checkout-domain";
import { APPLE_ASSOCIATION_PATH } from "@/lib/services/checkout-domain-verification";
import { verifyCheckoutDomainPaymentMethod } from "@/lib/services/checkout-domains";
import * as item from "./[checkout_domain_id]/route";
import * as verify from "./[checkout_domain_id]/verify-payment-method/route";
import * as collection from "./route";

const api = resource("/checkout-domains", "checkout_domain_id", collection, item);
const FIELDS = ["id", "domain", "status", "payment_method_verification", "created_at", "updated_at"];
const RFC3339_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UNKNOWN = "chedom_00000000000000000000000000";

let counter = 0;
/** A domain name no other test of this file uses. */
function uniqueDomain(prefix = "shop"): string {
  counter += 1;
  return `${prefix}${counter}-${Date.now().toString(36)}.example.com`;
}

async function createOk(domain = uniqueDomain()): Promise<Record<string, any>> {
  const res = await api.create({ domain });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function remove(id: string, key?: string | null) {
  return call(item.DELETE as never, "DELETE", `/checkout-domains/${id}`, {
    key: key === undefined ? await admin() : key,
    params: { checkout_domain_id: id },
  });
}

async function verifyDomain(id: string, body: unknown, key?: string | null) {
  return call(verify.POST as never, "POST", `/checkout-domains/${id}/verify-payment-method`, {
    key: key === undefined ? await admin() : key,
    params: { checkout_domain_id: id },
    body,
  });
}

async function count(): Promise<number> {
  const [row] = await query<{ n: number }>("SELECT count(*)::int AS n FROM checkout_domains");
  return row!.n;
}

describe("POST /checkout-domains", () => {
  it("adds an approved domain, Apple Pay unverified: 201, the family's shape, no event", async () => {
    const domain = uniqueDomain();
    const res = await api.create({ domain });
    expect(res.status).toBe(201);
    const made = res.body.data;
    expect(Object.keys(made)).toEqual(FIELDS);
    expect(checkoutDomainSchema.strict().parse(made)).toBeTruthy();
    expect(made.id).toMatch(/^chedom_[a-z0-9]{26}$/);
    expect(made).toMatchObject({
      domain,
      status: "approved",
      payment_method_verification: { apple_pay: { status: "unverified" } },
    });
    expect(made.created_at).toMatch(RFC3339_MICROS);
    expect(made.updated_at).toBe(made.created_at);
    // The family has no checkout domain events.
    const events = await query("SELECT 1 FROM events WHERE entity_id = $1", [made.id]);
    expect(events).toHaveLength(0);
  });

  it("stores the canonical name: lower case, no final dot, an IDN as punycode", async () => {
    const suffix = Date.now().toString(36);
    expect((await createOk(`  Shop-${suffix}.Example.COM. `)).domain).toBe(`shop-${suffix}.example.com`);
    expect((await createOk(`${suffix}.bücher.example`)).domain).toBe(`${suffix}.xn--bcher-kva.example`);
  });

  it("a domain exists once: the same name again (in any case) is 409 conflict naming the existing one", async () => {
    const made = await createOk();
    const again = expectError(await api.create({ domain: made.domain.toUpperCase() }), 409, "conflict");
    expect(again.detail).toContain(made.id);
    // A subdomain or a parent is another domain (each is approved on its own, as in the family).
    expect((await api.create({ domain: `www.${made.domain}` })).status).toBe(201);
  });

  it(`domain: a host name of at most ${DOMAIN_MAX} characters, labels of at most 63`, async () => {
    const label63 = "a".repeat(63);
    const longest = `${[label63, label63, label63].join(".")}.${"b".repeat(DOMAIN_MAX - 3 * 64 - 4)}.com`;
    expect(longest).toHaveLength(DOMAIN_MAX);
    expect((await api.create({ domain: longest })).status).toBe(201);
    expectFieldError(await api.create({ domain: `c${longest}` }), "domain");
    expectFieldError(await api.create({ domain: `${"a".repeat(64)}.example.com` }), "domain");
    expect((await api.create({ domain: `${label63}.example.com` })).status).toBe(201);
  });

  it.each([
    ["a URL", "https://shop.example.com"],
    ["a path", "shop.example.com/pricing"],
    ["a port", "shop.example.com:443"],
    ["credentials", "user@shop.example.com"],
    ["a wildcard", "*.example.com"],
    ["a single label", "localhost"],
    ["a top-level domain alone", "com"],
    ["an IPv4 address", "192.0.2.1"],
    ["an IPv6 address", "[::1]"],
    ["an IPv4 address in hexadecimal", "0x7f.1"],
    ["a label starting with a hyphen", "-shop.example.com"],
    ["an underscore", "shop_1.example.com"],
    ["an empty label", "shop..example.com"],
    ["a space", "sh op.example.com"],
    ["nothing", ""],
    ["blanks", "   "],
    ["NUL", "a\u0000b.example.com"],
    ["a lone surrogate", "ok\ud800.example.com"],
    ["100,000 characters", "x".repeat(100_000)],
  ])("refuses %s with a field error naming domain, writing nothing", async (_name, domain) => {
    const before = await count();
    expectFieldError(await api.create({ domain }), "domain");
    expect(await count()).toBe(before);
  });

  it("refuses bodies of the wrong shape", async () => {
    expectFieldError(await api.create({}), "domain");
    expectFieldError(await api.create({ domain: 5 }), "domain");
    expectFieldError(await api.create({ domain: ["a.example.com"] }), "domain");
    expectFieldError(await api.create({ domain: uniqueDomain(), status: "rejected" }), "status");
    const raw = await call(collection.POST as never, "POST", "/checkout-domains", {
      key: await admin(),
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expectError(raw, 400, "bad_request");
  });

  it("needs checkout_domain.write (403 naming it); 401 without a key", async () => {
    await expectPermission((key) => api.create({ domain: uniqueDomain() }, key), {
      permission: "checkout_domain.write",
      denied: [["checkout_domain.read"], permissionsWithout("checkout_domain.")],
      status: 201,
    });
    expectError(await api.create({ domain: uniqueDomain() }, null), 401, "invalid_token");
  });

  it("staff: a developer adds domains, a viewer cannot", async () => {
    const developer = await staffSession("developer");
    const made = await call(collection.POST as never, "POST", "/checkout-domains", {
      headers: developer.headers,
      body: { domain: uniqueDomain("dev") },
    });
    expect(made.status).toBe(201);
    const viewer = await staffSession("viewer");
    const refused = await call(collection.POST as never, "POST", "/checkout-domains", {
      headers: viewer.headers,
      body: { domain: uniqueDomain("viewer") },
    });
    expectError(refused, 403, "forbidden");
    const list = await call(collection.GET as never, "GET", "/checkout-domains", { headers: viewer.headers });
    expect(list.status).toBe(200);
  });
});

describe("GET /checkout-domains/{id}", () => {
  it("returns the domain", async () => {
    const made = await createOk();
    const res = await api.get(made.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(made);
  });

  it("404 for an unknown or malformed ID", async () => {
    expectNotFound(await api.get(UNKNOWN), UNKNOWN);
    expectNotFound(await api.get("ctkn_00000000000000000000000000"));
    expectNotFound(await api.get("nonsense"));
  });

  it("needs checkout_domain.read (write implies it)", async () => {
    const made = await createOk();
    await expectPermission((key) => api.get(made.id, "", key), {
      permission: "checkout_domain.read",
      denied: [permissionsWithout("checkout_domain.")],
      allowed: [["checkout_domain.read"], ["checkout_domain.write"]],
    });
  });
});

describe("DELETE /checkout-domains/{id}", () => {
  it("removes the domain for good: 204 with no body, then 404", async () => {
    const made = await createOk();
    const res = await remove(made.id);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expectNotFound(await api.get(made.id));
    expectNotFound(await remove(made.id));
    // The name can be added again.
    expect((await api.create({ domain: made.domain })).status).toBe(201);
  });

  it("404 for an unknown or malformed ID; needs checkout_domain.write", async () => {
    expectNotFound(await remove(UNKNOWN), UNKNOWN);
    expectNotFound(await remove("nonsense"));
    const made = await createOk();
    await expectPermission((key) => remove(made.id, key), {
      permission: "checkout_domain.write",
      denied: [["checkout_domain.read"], permissionsWithout("checkout_domain.")],
      status: 204,
    });
  });
});

describe("GET /checkout-domains", () => {
  it("lists newest first by default, pages with after and per_page, orders by id, created_at, updated_at", async () => {
    const a = await createOk();
    const b = await createOk();
    const c = await createOk();
    const all = await api.list("?per_page=200");
    expect(all.status).toBe(200);
    const listed = ids(all);
    expect(listed).toEqual([...listed].sort().reverse());
    expect(listed.slice(0, 3)).toEqual([c.id, b.id, a.id]);
    for (const domain of all.body.data) expect(Object.keys(domain)).toEqual(FIELDS);

    const first = await api.list("?per_page=1");
    expect(ids(first)).toEqual([c.id]);
    expect(first.body.meta.pagination).toMatchObject({ per_page: 1, has_more: true });
    expect(ids(await api.follow(first))).toEqual([b.id]);
    const walked = await api.walk("?per_page=2", 200);
    expect(walked.ids).toEqual(listed);

    expect(ids(await api.list("?order_by=id[ASC]&per_page=200"))).toEqual([...listed].reverse());
    expect(ids(await api.list("?order_by=created_at[DESC]&per_page=200"))).toEqual(listed);
    expect((await api.list("?order_by=updated_at[ASC]&per_page=200")).status).toBe(200);
  });

  it("filters by id, by status and by domain (the name, its ancestors and its subdomains)", async () => {
    const base = `filter-${Date.now().toString(36)}.example`;
    const root = await createOk(base);
    const app = await createOk(`app.${base}`);
    const deep = await createOk(`cool.app.${base}`);
    const other = await createOk(`other.${base}`);
    const lookalike = await createOk(`xapp.${base}`);

    expect(ids(await api.list(`?id=${app.id},${other.id}`)).sort()).toEqual([app.id, other.id].sort());
    const found = ids(await api.list(`?domain=APP.${base}&per_page=200`));
    expect(found.sort()).toEqual([root.id, app.id, deep.id].sort());
    expect(found).not.toContain(other.id);
    expect(found).not.toContain(lookalike.id);
    expect(ids(await api.list(`?domain=${base}&per_page=200`)).sort()).toEqual(
      [root.id, app.id, deep.id, other.id, lookalike.id].sort(),
    );

    const approved = ids(await api.list("?status=approved&per_page=200"));
    expect(approved).toEqual(expect.arrayContaining([root.id, app.id]));
    expect(ids(await api.list("?status=rejected,pending_review&per_page=200"))).toEqual([]);
    await query("UPDATE checkout_domains SET status = 'rejected' WHERE id = $1", [other.id]);
    expect(ids(await api.list(`?status=rejected&domain=${base}`))).toEqual([other.id]);
    const rejected = (await api.get(other.id)).body.data;
    expect(rejected.status).toBe("rejected");
  });

  it("refuses bad query parameters with field errors, never a 5xx", async () => {
    expectFieldError(await api.list("?status=verified"), "status[0]");
    expectFieldError(await api.list("?id=ctm_00000000000000000000000000"), "id[0]");
    expectFieldError(await api.list("?domain=https://a.example.com"), "domain");
    expectFieldError(await api.list("?domain=localhost"), "domain");
    expectFieldError(await api.list("?per_page=0"), "per_page");
    expectFieldError(await api.list("?order_by=domain[ASC]"), "order_by");
    expectFieldError(await api.list("?domain=a%00b.example.com"), "domain");
    for (const q of ["?after=x%ED%A0%80", "?after=%00", `?after=${"x".repeat(5000)}`, "?status=,,,", "?domain=%25"]) {
      expect((await api.list(q)).status).toBeLessThan(500);
    }
  });

  it("needs checkout_domain.read", async () => {
    await expectPermission((key) => api.list("", key), {
      permission: "checkout_domain.read",
      denied: [permissionsWithout("checkout_domain.")],
    });
    expectError(await api.list("", null), 401, "invalid_token");
  });

  it("methods the paths lack: 405", async () => {
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/checkout-domains");
    const made = await createOk();
    await expectMethodsNotAllowed(item, ["PUT", "POST", "PATCH"], `/checkout-domains/${made.id}`, {
      checkout_domain_id: made.id,
    });
    await expectMethodsNotAllowed(verify, ["GET", "PUT", "PATCH", "DELETE"], `/checkout-domains/${made.id}/verify`, {
      checkout_domain_id: made.id,
    });
  });
});

describe("POST /checkout-domains/{id}/verify-payment-method", () => {
  /** A local stand-in for the merchants' websites: what each domain answers for Apple's file. */
  const sites = new Map<string, { status: number; body?: string; location?: string }>();
  const requested: string[] = [];
  let server: Server;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? "");
      const domain = (req.url ?? "").split("/")[1];
      const site = sites.get(domain!);
      if (!site || req.url !== `/${domain}${APPLE_ASSOCIATION_PATH}`) return res.writeHead(404).end("not found");
      res.writeHead(site.status, site.location ? { location: site.location } : {}).end(site.body ?? "");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    vi.stubEnv("BILLING_CHECKOUT_DOMAIN_CHECK_URL", `http://127.0.0.1:${port}/{domain}${APPLE_ASSOCIATION_PATH}`);
  });

  afterEach(() => sites.clear());

  afterAll(async () => {
    vi.unstubAllEnvs();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("marks Apple Pay verified when the domain serves the association file", async () => {
    const made = await createOk();
    sites.set(made.domain, { status: 200, body: "7B227073704964223A22...association file" });
    const res = await verifyDomain(made.id, { payment_method: "apple_pay" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: made.id,
      status: "approved",
      payment_method_verification: { apple_pay: { status: "verified" } },
    });
    expect(res.body.data.updated_at >= made.updated_at).toBe(true);
    expect(requested).toContain(`/${made.domain}${APPLE_ASSOCIATION_PATH}`);
    expect((await api.get(made.id)).body.data).toEqual(res.body.data);
  });

  it.each([
    ["a missing file", { status: 404 }, "404"],
    ["a redirect", { status: 301, location: "https://elsewhere.example/" }, "redirect"],
    ["an empty file", { status: 200, body: "" }, "empty"],
    ["a server error", { status: 500, body: "oops" }, "500"],
  ])("%s: 400 bad_request saying what came back; the domain stays unverified", async (_name, site, words) => {
    const made = await createOk();
    sites.set(made.domain, site);
    const error = expectError(await verifyDomain(made.id, { payment_method: "apple_pay" }), 400, "bad_request");
    expect(error.detail).toContain(made.domain);
    expect(error.detail).toContain(words);
    expect((await api.get(made.id)).body.data).toEqual(made);
  });

  it("a domain that is not approved cannot be verified", async () => {
    const made = await createOk();
    await query("UPDATE checkout_domains SET status = 'rejected' WHERE id = $1", [made.id]);
    sites.set(made.domain, { status: 200, body: "file" });
    const error = expectError(await verifyDomain(made.id, { payment_method: "apple_pay" }), 400, "bad_request");
    expect(error.detail).toContain("rejected");
  });

  it("refuses other payment methods and bad bodies with field errors", async () => {
    const made = await createOk();
    expectFieldError(await verifyDomain(made.id, {}), "payment_method");
    expectFieldError(await verifyDomain(made.id, { payment_method: "google_pay" }), "payment_method");
    expectFieldError(await verifyDomain(made.id, { payment_method: "apple_pay", extra: 1 }), "extra");
    expectFieldError(await verifyDomain(made.id, { payment_method: "apple_pay\u0000" }), "payment_method");
  });

  it("404 for an unknown domain; needs checkout_domain.write", async () => {
    expectNotFound(await verifyDomain(UNKNOWN, { payment_method: "apple_pay" }), UNKNOWN);
    const made = await createOk();
    sites.set(made.domain, { status: 200, body: "file" });
    await expectPermission((key) => verifyDomain(made.id, { payment_method: "apple_pay" }, key), {
      permission: "checkout_domain.write",
      denied: [["checkout_domain.read"], permissionsWithout("checkout_domain.")],
    });
  });

  it("in live, a domain that resolves to a private address is not fetched", async () => {
    const made = await createOk();
    sites.set(made.domain, { status: 200, body: "file" });
    vi.stubEnv("BILLING_ENVIRONMENT", "live");
    try {
      // Keys belong to one environment: the sandbox's test keys are refused in live, so the service is called.
      const before = requested.length;
      await expect(verifyCheckoutDomainPaymentMethod(made.id, { payment_method: "apple_pay" })).rejects.toThrow(
        /not a public address/,
      );
      expect(requested.length).toBe(before);
    } finally {
      vi.stubEnv("BILLING_ENVIRONMENT", "sandbox");
    }
  });
});
