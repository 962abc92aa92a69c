/** The API over real HTTP against `next start`: what any integration sees first. */
import { expect, test } from "@playwright/test";

test("GET /api/event-types answers without a key", async ({ request }) => {
  const response = await request.get("/api/event-types");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  const body = await response.json();
  expect(Array.isArray(body.data)).toBe(true);
  expect(body.data.length).toBeGreaterThan(0);
  expect(typeof body.meta.request_id).toBe("string");
  expect(response.headers()["x-request-id"]).toBe(body.meta.request_id);
});

test("GET /api/customers without a key is 401 invalid_token", async ({ request }) => {
  const response = await request.get("/api/customers");
  expect(response.status()).toBe(401);
  expect(response.headers()["www-authenticate"]).toMatch(/^Bearer/);
  const body = await response.json();
  expect(body.error.code).toBe("invalid_token");
  expect(body.error.type).toBe("request_error");
  expect(body.error.detail.length).toBeGreaterThan(0);
  expect(body.error.documentation_url).toMatch(/\/docs\/errors\/invalid_token$/);
  expect(typeof body.meta.request_id).toBe("string");
  expect("data" in body).toBe(false);
});

test("GET /api/customers with a malformed key is 401 invalid_token", async ({ request }) => {
  const response = await request.get("/api/customers", { headers: { Authorization: "Bearer not-a-key" } });
  expect(response.status()).toBe(401);
  expect((await response.json()).error.code).toBe("invalid_token");
});
