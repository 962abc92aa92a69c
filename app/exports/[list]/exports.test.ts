/** CSV exports: the list's own permission and filters, formula-safe cells, unknown lists 404, hostile input 4xx. */
import { describe, expect, it } from "vitest";
import { testKey } from "@/lib/dev/test/api";
import { staffSession } from "@/lib/dev/test/staff";
import { makePrice, makeReady, transactions } from "@/lib/dev/test/transactions";
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
    expect(lines[0]!.split(",")).toContain("email");
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

/** RFC 4180 parsing, enough for the tests: quoted cells with doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

function records(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!])));
}

describe("exports an accountant can open", () => {
  it("has flat columns (no JSON in any cell) and a decimal amount beside each minor-unit one", async () => {
    const ready = await makeReady({ custom_data: { order: "A-1", nested: { team: "ops" } } });
    const { headers } = await staffSession("viewer");
    const res = await exportList("transactions.csv", `?id=${ready.id}`, headers);
    expect(res.status, res.text).toBe(200);
    const [header] = parseCsv(res.text);
    // Existing names stay; amounts get their decimal column right after them.
    for (const name of [
      "id",
      "status",
      "currency_code",
      "details.totals.grand_total",
      "billing_details.payment_terms.interval",
    ]) {
      expect(header, name).toContain(name);
    }
    const total = header!.indexOf("details.totals.grand_total");
    expect(header![total + 1]).toBe("details.totals.grand_total_decimal");
    expect(header).toContain("items.count");
    const [row] = records(res.text);
    expect(row!.id).toBe(ready.id);
    expect(row!["details.totals.grand_total"]).toBe("1000");
    expect(row!["details.totals.grand_total_decimal"]).toBe("10.00");
    expect(row!["items.count"]).toBe("1");
    expect(row!.custom_data).toBe("order=A-1; nested.team=ops");
    for (const value of Object.values(row!)) expect(value).not.toMatch(/^[[{]/);
    // Included entities are columns only when included (as the dashboard's export asks).
    expect(header).not.toContain("customer.name");
    const withCustomer = await exportList("transactions.csv", `?id=${ready.id}&include=customer,business`, headers);
    const [included] = records(withCustomer.text);
    expect(included!["customer.name"]).toBe("Sam Buyer");
    expect(Object.keys(included!)).toContain("business.name");
  });

  it("one row per line item when asked, the entity's columns repeated beside the line's", async () => {
    const ready = await makeReady();
    const other = await makePrice({ unit_price: { amount: "550", currency_code: "USD" } });
    const updated = await transactions.update(ready.id, {
      items: [
        { price_id: ready.items[0].price.id, quantity: 2 },
        { price_id: other.id, quantity: 1 },
      ],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const { headers } = await staffSession("viewer");
    const res = await exportList("transactions.csv", `?id=${ready.id}&rows=line_items`, headers);
    expect(res.status, res.text).toBe(200);
    const rows = records(res.text);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.id)).toEqual([ready.id, ready.id]);
    expect(rows.map((r) => r["line.quantity"])).toEqual(["2", "1"]);
    expect(rows.map((r) => r["line.totals.total_decimal"])).toEqual(["20.00", "5.50"]);
    expect(rows[0]!["line.product.name"]).toBeTruthy();
    expect(Object.keys(rows[0]!)).not.toContain("details.line_items.count");

    for (const [list, search] of [
      ["customers.csv", "?rows=line_items"],
      ["transactions.csv", "?rows=lines"],
    ]) {
      const refused = await exportList(list!, search!, headers);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).error.errors[0].field).toBe("rows");
    }
  });

  it("has its header from the list's schema: the same columns when nothing matches", async () => {
    const { headers } = await staffSession("viewer");
    const empty = await exportList("subscriptions.csv", "?id=sub_01hv8x00000000000000000000", headers);
    expect(empty.status).toBe(200);
    const [header, ...rows] = parseCsv(empty.text);
    expect(rows).toHaveLength(0);
    expect(header).toContain("next_billed_at");
    expect(header).toContain("scheduled_change.action");
  });

  it("exports every list with flat cells", async () => {
    await makeReady({ custom_data: { a: { b: [1, 2] } } });
    const { headers } = await staffSession("owner");
    for (const list of [
      "adjustments",
      "api-keys",
      "customers",
      "discount-groups",
      "discounts",
      "events",
      "notification-settings",
      "notifications",
      "prices",
      "products",
      "subscriptions",
      "transactions",
    ]) {
      const res = await exportList(`${list}.csv`, "", headers);
      expect(res.status, `${list}: ${res.text.slice(0, 300)}`).toBe(200);
      const [header, ...rows] = parseCsv(res.text);
      expect(new Set(header).size, list).toBe(header!.length);
      for (const row of rows) {
        expect(row, list).toHaveLength(header!.length);
        for (const value of row) expect(value, `${list}: ${value}`).not.toMatch(/^[[{]"/);
      }
    }
  });
});
