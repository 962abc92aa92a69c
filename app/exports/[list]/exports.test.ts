/** CSV exports: the list's own permission and filters, formula-safe cells, unknown lists 404, hostile input 4xx. */
import { describe, expect, it } from "vitest";
import { testKey } from "@/lib/dev/test/api";
import { staffSession } from "@/lib/dev/test/staff";
import { createCustomer } from "@/lib/services/customers";
import { GET } from "./route";

async function exportList(list: string, search: string, headers: Record<string, string>) {
  const request = new Request(`http://localhost:3000/exports/${list}${search}`, { headers });
  const response = await GET(request, { params: Promise.resolve({ list }) });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("CSV exports", () => {
  it("streams a list as CSV with its filters, and never lets a cell run as a formula", async () => {
    const tag = `exp${Date.now()}`;
    const hostile = "-1+1+cmd|' /C calc'!A0";
    await createCustomer({ email: `${tag}-a@example.com`, name: hostile } as never);
    await createCustomer({ email: `${tag}-b@example.com`, name: '=HYPERLINK("http://x")' } as never);
    const { headers } = await staffSession("viewer");
    const res = await exportList("customers.csv", `?search=${tag}`, headers);
    expect(res.status, res.text).toBe(200);
    expect(res.type).toBe("text/csv; charset=utf-8");
    const lines = res.text.trim().split("\r\n");
    expect(lines[0].split(",")).toContain("email");
    expect(lines).toHaveLength(3);
    expect(res.text).toContain(`'${hostile}`);
    expect(res.text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(res.text).not.toMatch(/(^|,)[-=+@]/m);
  });

  it("403 without the list's permission, 401 without credentials, 404 for an unknown list", async () => {
    const viewer = await staffSession("viewer");
    expect((await exportList("api-keys.csv", "", viewer.headers)).status).toBe(403);
    const key = await testKey(["product.read"]);
    const auth = { authorization: `Bearer ${key}` };
    expect((await exportList("customers.csv", "", auth)).status).toBe(403);
    expect((await exportList("products.csv", "", auth)).status).toBe(200);
    expect((await exportList("customers.csv", "", {})).status).toBe(401);
    for (const list of ["nope.csv", "__proto__", "constructor.csv", "toString"]) {
      const res = await exportList(list, "", viewer.headers);
      expect(res.status, list).toBe(404);
      expect(JSON.parse(res.text).error.code).toBe("not_found");
    }
  });

  it("a cross-site request with the session cookie is refused; hostile filters are 4xx, never 5xx", async () => {
    const { headers } = await staffSession("owner");
    const crossSite = await exportList("customers.csv", "", { ...headers, "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    for (const search of [
      "?status=bogus",
      "?per_page=999999",
      "?search=%ED%A0%80",
      `?search=${"x".repeat(5000)}`,
      "?id=a,b,c",
    ]) {
      const res = await exportList("customers.csv", search, headers);
      expect(res.status, `${search}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    }
  });
});
