/**
 * The API at the host root (lib/http/root-api.js), over HTTP against the real server: the same
 * calls answer at /customers with a key as at /api/customers; a browser at /customers still gets
 * the dashboard (its sign-in); a POST with a JSON body works at the root; a bad key at the root
 * gets the API's 401 JSON; `next` links of a list read at the root lead to the root. The URLs the
 * family's Python SDK builds (urljoin(base_url, "/customers") drops /api) are the ones used here.
 */
import { expect, test } from "@playwright/test";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";

/** What the Python SDK calls for `path` when given `base` (urljoin with an absolute path). */
const pythonSdkUrl = (base: string, path: string) => new URL(path, base).toString();

const BROWSER = {
  Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "Sec-Fetch-Mode": "navigate",
  "Sec-Fetch-Dest": "document",
};

test("the same calls answer at the root with a key as under /api", async ({ request }) => {
  const key = cliApiKey();
  const auth = { Authorization: `Bearer ${key}` };
  expect(pythonSdkUrl(`${baseURL}/api`, "/customers")).toBe(`${baseURL}/customers`);

  // A POST with a JSON body at the root (as the Python SDK sends it: no Accept but */*).
  const email = `root-${Date.now()}@example.com`;
  const created = await request.post("/customers", {
    headers: { ...auth, Accept: "*/*", "Content-Type": "application/json" },
    data: { email, name: "Root Caller", custom_data: { note: "x".repeat(20_000) } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const customer = (await created.json()).data;
  expect(customer.email).toBe(email);
  expect(customer.custom_data.note).toHaveLength(20_000);

  const atRoot = await request.get(`/customers?email=${encodeURIComponent(email)}`, { headers: auth });
  const underApi = await request.get(`/api/customers?email=${encodeURIComponent(email)}`, { headers: auth });
  expect(atRoot.status()).toBe(200);
  expect(atRoot.headers()["content-type"]).toMatch(/^application\/json/);
  expect((await atRoot.json()).data).toEqual((await underApi.json()).data);

  // The scheme word in any case (the Node SDK sends `bearer`); nested paths and item routes too.
  const item = await request.get(`/customers/${customer.id}`, { headers: { Authorization: `bearer ${key}` } });
  expect((await item.json()).data).toEqual(customer);
  const patched = await request.patch(`/customers/${customer.id}`, { headers: auth, data: { name: "Renamed" } });
  expect((await patched.json()).data.name).toBe("Renamed");
  const address = await request.post(`/customers/${customer.id}/addresses`, {
    headers: auth,
    data: { country_code: "US", postal_code: "10001" },
  });
  expect(address.status()).toBe(201);

  // An unknown path at the root with a key: the API's 404, not a page.
  const unknown = await request.get("/no-such-endpoint", { headers: auth });
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe("not_found");
});

test("a list read at the root links its next page at the root, and it can be followed", async ({ request }) => {
  const key = cliApiKey();
  const auth = { Authorization: `Bearer ${key}` };
  const prefix = `rootpage-${Date.now()}`;
  for (let i = 0; i < 3; i++) {
    const made = await request.post("/customers", { headers: auth, data: { email: `${prefix}-${i}@example.com` } });
    expect(made.status()).toBe(201);
  }
  const first = await (await request.get(`/customers?per_page=2&search=${prefix}`, { headers: auth })).json();
  const next: string = first.meta.pagination.next;
  expect(next.startsWith(`${baseURL}/customers?`)).toBe(true);
  const second = await (await request.get(next, { headers: auth })).json();
  expect([...first.data, ...second.data].map((c: { email: string }) => c.email)).toEqual(
    [0, 1, 2].map((i) => `${prefix}-${i}@example.com`),
  );
  // Under /api, the links stay under /api.
  const api = await (await request.get(`/api/customers?per_page=2&search=${prefix}`, { headers: auth })).json();
  expect(api.meta.pagination.next.startsWith(`${baseURL}/api/customers?`)).toBe(true);
});

test("a browser at /customers still gets the dashboard's sign-in, not the API", async ({ request }) => {
  const redirect = await request.get("/customers", { headers: BROWSER, maxRedirects: 0 });
  expect(redirect.status()).toBe(307);
  expect(redirect.headers().location).toBe("/sign-in");
  const page = await request.get("/customers", { headers: BROWSER });
  expect(page.status()).toBe(200);
  expect(page.headers()["content-type"]).toMatch(/^text\/html/);
  expect(new URL(page.url()).pathname).toBe("/sign-in");
  // fetch()'s default Accept and Next's own RSC requests are not the API either.
  const notApi: Record<string, string>[] = [{ Accept: "*/*" }, { RSC: "1", Accept: "application/json" }];
  for (const headers of notApi) {
    const res = await request.get("/customers", { headers, maxRedirects: 0 });
    expect(res.headers()["content-type"] ?? "", JSON.stringify(headers)).not.toMatch(/^application\/json/);
  }
  // /api keeps working exactly as before for everyone.
  const api = await request.get("/api/customers", { headers: BROWSER, maxRedirects: 0 });
  expect(api.status()).toBe(401);
});

test("a bad key at the root gets the API's 401 JSON", async ({ request }) => {
  for (const authorization of ["Bearer svc_apikey_sdbx_nonsense", "BEARER not-a-key", "Bearer"]) {
    const res = await request.get("/customers", { headers: { Authorization: authorization }, maxRedirects: 0 });
    expect(res.status(), authorization).toBe(401);
    expect(res.headers()["www-authenticate"]).toMatch(/^Bearer/);
    const body = await res.json();
    expect(body.error.code).toBe("invalid_token");
    expect(body.error.documentation_url).toBe(`${baseURL}/docs/errors/invalid_token`);
  }
  // Asking for JSON without a key: the API's 401 too.
  const json = await request.get("/customers", { headers: { Accept: "application/json" }, maxRedirects: 0 });
  expect(json.status()).toBe(401);
  expect((await json.json()).error.code).toBe("invalid_token");
});

test("GET /ips answers at the root and under /api, with no key", async ({ request }) => {
  const root = await request.get("/ips", { headers: { Accept: "application/json" } });
  expect(root.status()).toBe(200);
  const api = await request.get("/api/ips");
  expect(api.status()).toBe(200);
  const data = (await api.json()).data;
  expect(Array.isArray(data.ipv4_cidrs)).toBe(true);
  expect((await root.json()).data).toEqual(data);
});
