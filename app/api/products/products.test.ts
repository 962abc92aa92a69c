/** Every product endpoint, through the real route handlers on a real database. */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/connection";
import { call, errorFields, expectError, testKey } from "@/lib/dev/test/api";
import {
  events,
  expectForbidden,
  expectMethodsNotAllowed,
  expectOnlyEvent,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { admin, ids, resource } from "@/lib/dev/test/resource";
import { newId } from "@/lib/ids";
import { TAX_CATEGORIES } from "@/lib/schemas/product";
import * as priceItem from "../prices/[price_id]/route";
import * as priceCollection from "../prices/route";
import * as item from "./[product_id]/route";
import * as collection from "./route";

const FIELDS = [
  "id",
  "name",
  "description",
  "type",
  "tax_category",
  "image_url",
  "custom_data",
  "status",
  "import_meta",
  "created_at",
  "updated_at",
];
const PRICE_FIELDS = [
  "id",
  "product_id",
  "type",
  "description",
  "name",
  "tax_mode",
  "billing_cycle",
  "trial_period",
  "unit_price",
  "unit_price_overrides",
  "custom_data",
  "status",
  "quantity",
  "import_meta",
  "created_at",
  "updated_at",
];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

let seq = 0;
function uniqueName(tag = "Product"): string {
  seq += 1;
  return `${tag} ${seq} ${Date.now()}`;
}

const { create, get, update, list, follow, walk } = resource("/products", "product_id", collection, item);

async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await create({ name: uniqueName(), tax_category: "standard", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function createPrice(productId: string, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call(priceCollection.POST, "POST", "/prices", {
    key: await admin(),
    body: {
      product_id: productId,
      description: "A price",
      unit_price: { amount: "1000", currency_code: "USD" },
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function archivePrice(id: string): Promise<Record<string, any>> {
  const res = await call(priceItem.PATCH, "PATCH", `/prices/${id}`, {
    key: await admin(),
    body: { status: "archived" },
    params: { price_id: id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe("POST /products", () => {
  it("creates a product: 201, the spec's fields in the spec's order, with defaults", async () => {
    const name = uniqueName();
    const res = await create({ name, tax_category: "standard" });
    expect(res.status).toBe(201);
    const p = res.body.data;
    expect(Object.keys(p)).toEqual(FIELDS);
    expect(p.id).toMatch(/^pro_[a-z0-9]{26}$/);
    expect(p.name).toBe(name);
    expect(p.description).toBeNull();
    expect(p.type).toBe("standard");
    expect(p.tax_category).toBe("standard");
    expect(p.image_url).toBeNull();
    expect(p.custom_data).toBeNull();
    expect(p.status).toBe("active");
    expect(p.import_meta).toBeNull();
    expect(p.created_at).toMatch(RFC3339);
    expect(p.updated_at).toBe(p.created_at);
    expect(Math.abs(Date.parse(p.created_at) - Date.now())).toBeLessThan(60_000);
    expect(Object.keys(res.body.meta)).toEqual(["request_id"]);
    expect(res.headers.get("x-request-id")).toBe(res.body.meta.request_id);
  });

  it("stores every field given, and GET returns the same entity", async () => {
    const body = {
      name: "ChatApp Pro",
      description: "Everything in Basic, and more.",
      type: "custom",
      tax_category: "saas",
      image_url: "https://cdn.example.com/images/pro.png?size=512",
      custom_data: { features: { seats: 10 }, tier: "pro" },
    };
    const res = await create(body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject(body);
    const again = await get(res.body.data.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
  });

  it.each(TAX_CATEGORIES)("accepts the tax category %s", async (category) => {
    const p = await createOk({ tax_category: category });
    expect(p.tax_category).toBe(category);
  });

  describe("validation", () => {
    async function refused(body: Record<string, unknown>, field: string): Promise<void> {
      const res = await create({ name: uniqueName(), tax_category: "standard", ...body });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual([field]);
    }

    it("accepts a name of 200 characters and refuses 201", async () => {
      const ok = await createOk({ name: "n".repeat(200) });
      expect(ok.name).toHaveLength(200);
      await refused({ name: "n".repeat(201) }, "name");
    });

    it("accepts a one-character name", async () => {
      expect((await createOk({ name: "x" })).name).toBe("x");
    });

    it.each([
      ["empty", ""],
      ["only whitespace", "   \t "],
      ["null", null],
      ["a number", 5],
    ])("refuses a name that is %s", async (_name, name) => {
      await refused({ name }, "name");
    });

    it("requires a name and a tax_category", async () => {
      const res = await create({});
      expectError(res, 400, "invalid_field");
      expect(errorFields(res).sort()).toEqual(["name", "tax_category"]);
    });

    it.each(["books", "Standard", "", "saas "])(
      "refuses the tax category %j (not enabled on the account)",
      async (c) => {
        await refused({ tax_category: c }, "tax_category");
      },
    );

    it("accepts a description of 2048 characters and refuses 2049; null is fine", async () => {
      expect((await createOk({ description: "d".repeat(2048) })).description).toHaveLength(2048);
      expect((await createOk({ description: null })).description).toBeNull();
      await refused({ description: "d".repeat(2049) }, "description");
    });

    it("accepts type standard and custom only", async () => {
      expect((await createOk({ type: "custom" })).type).toBe("custom");
      expect((await createOk({ type: "standard" })).type).toBe("standard");
      await refused({ type: "other" }, "type");
      await refused({ type: null }, "type");
    });

    it("accepts an https image_url of 2048 characters and refuses 2049", async () => {
      const prefix = "https://cdn.example.com/";
      const url = prefix + "a".repeat(2048 - prefix.length);
      expect(url).toHaveLength(2048);
      expect((await createOk({ image_url: url })).image_url).toBe(url);
      await refused({ image_url: `${url}a` }, "image_url");
    });

    it("accepts a null image_url", async () => {
      expect((await createOk({ image_url: null })).image_url).toBeNull();
    });

    it.each([
      ["http", "http://cdn.example.com/a.png"],
      ["relative", "/images/a.png"],
      ["no scheme", "cdn.example.com/a.png"],
      ["ftp", "ftp://cdn.example.com/a.png"],
      ["empty", ""],
      ["not a URL", "https://"],
    ])("refuses an image_url that is %s", async (_name, url) => {
      await refused({ image_url: url }, "image_url");
    });

    it.each([
      ["an array", [1]],
      ["a string", "x"],
      ["a number", 3],
    ])("refuses custom_data that is %s", async (_name, customData) => {
      await refused({ custom_data: customData }, "custom_data");
    });

    it("refuses an unknown field and fields set by the service", async () => {
      for (const extra of [{ colour: "red" }, { id: newId("pro") }, { status: "archived" }, { import_meta: {} }]) {
        const res = await create({ name: uniqueName(), tax_category: "standard", ...extra });
        expectError(res, 400, "invalid_field");
        expect(errorFields(res)).toEqual(Object.keys(extra));
      }
    });

    it("reports every invalid field at once and creates nothing", async () => {
      const before = await db().product.count();
      const res = await create({ name: "", tax_category: "x", description: "d".repeat(2049), image_url: "http://a" });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res).sort()).toEqual(["description", "image_url", "name", "tax_category"]);
      expect(await db().product.count()).toBe(before);
    });

    it("refuses a body that is not JSON", async () => {
      const res = await call(collection.POST, "POST", "/products", {
        key: await admin(),
        rawBody: "{nope",
        headers: { "content-type": "application/json" },
      });
      expectError(res, 400, "bad_request");
    });
  });
});

describe("GET /products/{product_id}", () => {
  it("returns the product", async () => {
    const p = await createOk({ description: "Hello" });
    const res = await get(p.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toEqual(p);
    expect(Object.keys(res.body.meta)).toEqual(["request_id"]);
  });

  it("returns an archived product", async () => {
    const p = await createOk();
    await update(p.id, { status: "archived" });
    const res = await get(p.id);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("archived");
  });

  it.each([
    ["an unknown ID", () => newId("pro")],
    ["a malformed ID", () => "pro_nope"],
    ["an ID of another entity", () => newId("pri")],
  ])("gives 404 not_found for %s", async (_name, makeId) => {
    const id = makeId();
    const error = expectError(await get(id), 404, "not_found");
    expect(error.detail).toContain(id);
  });

  describe("include=prices", () => {
    it("adds an empty prices array to a product without prices", async () => {
      const p = await createOk();
      const res = await get(p.id, "?include=prices");
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual([...FIELDS, "prices"]);
      expect(res.body.data.prices).toEqual([]);
    });

    it("adds every price of the product, archived ones too, in the price shape, ordered by ID", async () => {
      const p = await createOk();
      const other = await createOk();
      const monthly = await createPrice(p.id, { billing_cycle: { interval: "month", frequency: 1 } });
      const oneTime = await createPrice(p.id, { unit_price: { amount: "500", currency_code: "JPY" } });
      await createPrice(other.id);
      const archived = await archivePrice(oneTime.id);
      const res = await get(p.id, "?include=prices");
      expect(res.status).toBe(200);
      const prices = res.body.data.prices as Record<string, unknown>[];
      expect(prices.map((x) => x.id)).toEqual([monthly.id, oneTime.id]);
      for (const price of prices) expect(Object.keys(price)).toEqual(PRICE_FIELDS);
      expect(prices[0]).toEqual(monthly);
      expect(prices[1]).toEqual(archived);
      const { prices: _, ...product } = res.body.data;
      expect(product).toEqual(p);
    });

    it("leaves prices out without include", async () => {
      const p = await createOk();
      await createPrice(p.id);
      expect(Object.keys((await get(p.id)).body.data)).toEqual(FIELDS);
    });

    it("refuses an unknown include", async () => {
      const p = await createOk();
      const res = await get(p.id, "?include=discounts");
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(/^include/);
    });
  });
});

describe("PATCH /products/{product_id}", () => {
  it("changes every field given and leaves the others", async () => {
    const p = await createOk({ description: "Before", custom_data: { a: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changes = {
      name: "Renamed",
      description: "After",
      type: "custom",
      tax_category: "ebooks",
      image_url: "https://img.example.com/x.jpg",
      custom_data: { b: 2 },
    };
    const res = await update(p.id, changes);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toMatchObject({ ...changes, id: p.id, status: "active", created_at: p.created_at });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(p.updated_at));
    expect((await get(p.id)).body.data).toEqual(res.body.data);

    const partial = await update(p.id, { name: "Only the name" });
    expect(partial.body.data).toMatchObject({ ...changes, name: "Only the name" });
  });

  it("clears the nullable fields with null", async () => {
    const p = await createOk({ description: "D", image_url: "https://a.example/i.png", custom_data: { a: 1 } });
    const res = await update(p.id, { description: null, image_url: null, custom_data: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ description: null, image_url: null, custom_data: null });
  });

  it("accepts an empty body (nothing changes but updated_at)", async () => {
    const p = await createOk();
    const res = await update(p.id, {});
    expect(res.status).toBe(200);
    const { updated_at: _, ...rest } = res.body.data;
    const { updated_at: __, ...before } = p;
    expect(rest).toEqual(before);
  });

  it("applies the create limits: name 200 passes, 201 fails; description 2048 passes, 2049 fails", async () => {
    const p = await createOk();
    expect((await update(p.id, { name: "n".repeat(200) })).status).toBe(200);
    expect((await update(p.id, { description: "d".repeat(2048) })).status).toBe(200);
    for (const [field, body] of [
      ["name", { name: "n".repeat(201) }],
      ["description", { description: "d".repeat(2049) }],
    ] as const) {
      const res = await update(p.id, body);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual([field]);
    }
  });

  it.each([
    ["name", { name: "" }],
    ["name", { name: "  " }],
    ["name", { name: null }],
    ["tax_category", { tax_category: "books" }],
    ["tax_category", { tax_category: null }],
    ["type", { type: "other" }],
    ["image_url", { image_url: "http://x.example/a.png" }],
    ["custom_data", { custom_data: [] }],
    ["status", { status: "deleted" }],
    ["status", { status: null }],
    ["id", { id: newId("pro") }],
    ["prices", { prices: [] }],
  ])("refuses an invalid %s and changes nothing", async (field, body) => {
    const p = await createOk();
    const res = await update(p.id, body);
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual([field]);
    expect((await get(p.id)).body.data).toEqual(p);
  });

  it.each([
    ["an unknown ID", () => newId("pro")],
    ["a malformed ID", () => "pro_bad"],
  ])("gives 404 not_found for %s", async (_name, makeId) => {
    expectError(await update(makeId(), { name: "x" }), 404, "not_found");
  });

  describe("archived products", () => {
    it("archives and unarchives through status", async () => {
      const p = await createOk();
      const archived = await update(p.id, { status: "archived" });
      expect(archived.status).toBe(200);
      expect(archived.body.data.status).toBe("archived");
      const active = await update(p.id, { status: "active" });
      expect(active.status).toBe(200);
      expect(active.body.data.status).toBe("active");
    });

    it("refuses any change to an archived product with 400 entity_archived, naming it", async () => {
      const p = await createOk({ name: "Keep" });
      const archived = (await update(p.id, { status: "archived" })).body.data;
      for (const body of [
        { name: "Changed" },
        { description: "x" },
        { custom_data: null },
        {},
        { status: "archived" },
      ]) {
        const error = expectError(await update(p.id, body), 400, "entity_archived");
        expect(error.detail).toContain(p.id);
      }
      expect((await get(p.id)).body.data).toEqual(archived);
    });

    it("lets an unarchiving request change other fields too", async () => {
      const p = await createOk();
      await update(p.id, { status: "archived" });
      const res = await update(p.id, { status: "active", name: "Back again" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: "active", name: "Back again" });
      expect((await update(p.id, { name: "And changeable" })).status).toBe(200);
    });

    it("validates the body before the archived rule", async () => {
      const p = await createOk();
      await update(p.id, { status: "archived" });
      expectError(await update(p.id, { name: "" }), 400, "invalid_field");
    });
  });
});

describe("GET /products", () => {
  it("lists products with pagination meta, each in the product shape", async () => {
    const p = await createOk();
    const res = await list("?per_page=200");
    expect(res.status).toBe(200);
    for (const row of res.body.data) expect(Object.keys(row)).toEqual(FIELDS);
    expect(ids(res)).toContain(p.id);
    const pagination = res.body.meta.pagination;
    expect(Object.keys(pagination).sort()).toEqual(["estimated_total", "has_more", "next", "per_page"]);
    expect(pagination.per_page).toBe(200);
    expect(() => new URL(pagination.next)).not.toThrow();
  });

  it("lists only active products by default; status picks archived ones", async () => {
    const active = await createOk();
    const archived = await createOk();
    await update(archived.id, { status: "archived" });
    const only = `?id=${active.id},${archived.id}`;
    expect(ids(await list(only))).toEqual([active.id]);
    expect(ids(await list(`${only}&status=archived`))).toEqual([archived.id]);
    expect(ids(await list(`${only}&status=active,archived`))).toEqual([active.id, archived.id]);
    expect(ids(await list(`${only}&status=active`))).toEqual([active.id]);
  });

  describe("filters", () => {
    it("filters by id (comma-separated)", async () => {
      const a = await createOk();
      const b = await createOk();
      await createOk();
      expect(ids(await list(`?id=${a.id},${b.id}`))).toEqual([a.id, b.id]);
      expect(ids(await list(`?id=${b.id}`))).toEqual([b.id]);
    });

    it("searches by name, description and ID (case-insensitive; % and _ are literal)", async () => {
      const tag = `srch${Date.now()}`;
      const byName = await createOk({ name: `Plan ${tag} Gold` });
      const byDescription = await createOk({ description: `Includes ${tag.toUpperCase()} support` });
      await createOk({ name: "Unrelated" });
      expect(ids(await list(`?search=${tag}`)).sort()).toEqual([byName.id, byDescription.id].sort());
      expect(ids(await list(`?search=${byName.id}`))).toEqual([byName.id]);
      expect(ids(await list("?search=%25%25"))).toEqual([]);
      const long = await list(`?search=${"x".repeat(101)}`);
      expect(long.status).toBe(400);
      expect(long.body.error.errors[0].field).toBe("search");
    });

    it("filters by tax_category (comma-separated)", async () => {
      const ebook = await createOk({ tax_category: "ebooks" });
      const training = await createOk({ tax_category: "training-services" });
      const saas = await createOk({ tax_category: "saas" });
      const only = `id=${ebook.id},${training.id},${saas.id}`;
      expect(ids(await list(`?${only}&tax_category=ebooks`))).toEqual([ebook.id]);
      expect(ids(await list(`?${only}&tax_category=ebooks,training-services`))).toEqual([ebook.id, training.id]);
      const all = await list("?tax_category=ebooks&per_page=200");
      expect(all.body.data.every((p: { tax_category: string }) => p.tax_category === "ebooks")).toBe(true);
    });

    it("filters by type", async () => {
      const standard = await createOk({ type: "standard" });
      const custom = await createOk({ type: "custom" });
      const only = `id=${standard.id},${custom.id}`;
      expect(ids(await list(`?${only}&type=custom`))).toEqual([custom.id]);
      expect(ids(await list(`?${only}&type=standard`))).toEqual([standard.id]);
      expect(ids(await list(`?${only}`))).toEqual([standard.id, custom.id]);
    });

    it("combines filters", async () => {
      const a = await createOk({ type: "custom", tax_category: "saas" });
      const b = await createOk({ type: "custom", tax_category: "ebooks" });
      await update(b.id, { status: "archived" });
      const res = await list(`?id=${a.id},${b.id}&type=custom&tax_category=saas,ebooks&status=archived`);
      expect(ids(res)).toEqual([b.id]);
    });

    it.each([
      ["id", "?id=pro_bad"],
      ["id", `?id=${newId("pri")}`],
      ["status", "?status=deleted"],
      ["status", "?status="],
      ["tax_category", "?tax_category=books"],
      ["type", "?type=other"],
      ["include", "?include=product"],
      ["per_page", "?per_page=0"],
      ["order_by", "?order_by=price[ASC]"],
      ["order_by", "?order_by=type[ASC]"],
      ["order_by", "?order_by=name"],
    ])("refuses an invalid %s (%s)", async (field, query) => {
      const res = await list(query);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]!.split("[")[0]).toBe(field);
    });
  });

  it("include=prices adds each product's prices (archived ones too); without it there are none", async () => {
    const a = await createOk();
    const b = await createOk();
    const a1 = await createPrice(a.id);
    const a2 = await archivePrice((await createPrice(a.id)).id);
    const res = await list(`?id=${a.id},${b.id}&include=prices`);
    expect(res.status).toBe(200);
    const [ra, rb] = res.body.data;
    expect(Object.keys(ra)).toEqual([...FIELDS, "prices"]);
    expect(ra.prices).toEqual([a1, a2]);
    expect(rb.prices).toEqual([]);
    const plain = await list(`?id=${a.id},${b.id}`);
    expect(Object.keys(plain.body.data[0])).toEqual(FIELDS);
  });

  describe("order_by", () => {
    it("orders by id ascending by default, and descending with id[DESC]", async () => {
      const made = [await createOk(), await createOk(), await createOk()].map((p) => p.id);
      const only = `?id=${made.join(",")}`;
      expect(ids(await list(only))).toEqual(made);
      expect(ids(await list(`${only}&order_by=id[ASC]`))).toEqual(made);
      expect(ids(await list(`${only}&order_by=${encodeURIComponent("id[DESC]")}`))).toEqual([...made].reverse());
    });

    it("orders by name, ties broken by id, across pages", async () => {
      const c = await createOk({ name: "Ccc" });
      const a = await createOk({ name: "Aaa" });
      const b1 = await createOk({ name: "Bbb" });
      const b2 = await createOk({ name: "Bbb" });
      const only = `?id=${[c, a, b1, b2].map((p) => p.id).join(",")}`;
      expect((await walk(`${only}&order_by=name[ASC]&per_page=1`)).ids).toEqual([a.id, b1.id, b2.id, c.id]);
      expect((await walk(`${only}&order_by=name[DESC]&per_page=3`)).ids).toEqual([c.id, b2.id, b1.id, a.id]);
    });

    it("orders by a nullable field (description): nulls first ascending, last descending, across pages with after", async () => {
      const n1 = await createOk({ description: null });
      const b = await createOk({ description: "bravo" });
      const n2 = await createOk();
      const a = await createOk({ description: "alpha" });
      const c = await createOk({ description: "charlie" });
      const only = `?id=${[n1, b, n2, a, c].map((p) => p.id).join(",")}`;
      const asc = await walk(`${only}&order_by=description[ASC]&per_page=2`);
      expect(asc.ids).toEqual([n1.id, n2.id, a.id, b.id, c.id]);
      expect(asc.pages).toBe(3);
      const desc = await walk(`${only}&order_by=description[DESC]&per_page=2`);
      expect(desc.ids).toEqual([c.id, b.id, a.id, n2.id, n1.id]);

      // The page after a null-description product continues correctly.
      const afterNull = await list(`${only}&order_by=description[ASC]&per_page=2&after=${n2.id}`);
      expect(ids(afterNull)).toEqual([a.id, b.id]);
      expect(afterNull.body.meta.pagination.has_more).toBe(true);
      const next = new URL(afterNull.body.meta.pagination.next);
      expect(next.searchParams.get("after")).toBe(b.id);
      expect(next.searchParams.get("order_by")).toBe("description[ASC]");
    });

    it("orders by image_url and custom_data (nullable)", async () => {
      const none = await createOk();
      const z = await createOk({ image_url: "https://z.example/i.png", custom_data: { k: "z" } });
      const a = await createOk({ image_url: "https://a.example/i.png", custom_data: { k: "a" } });
      const only = `?id=${[none, z, a].map((p) => p.id).join(",")}`;
      expect((await walk(`${only}&order_by=image_url[ASC]&per_page=1`)).ids).toEqual([none.id, a.id, z.id]);
      expect((await walk(`${only}&order_by=custom_data[DESC]&per_page=1`)).ids).toEqual([z.id, a.id, none.id]);
    });

    it("orders by tax_category, status, created_at and updated_at", async () => {
      const w = await createOk({ tax_category: "website-hosting" });
      const d = await createOk({ tax_category: "digital-goods" });
      const s = await createOk({ tax_category: "saas" });
      await update(d.id, { status: "archived" });
      await update(w.id, { name: "touched last" });
      const only = `?id=${[w, d, s].map((p) => p.id).join(",")}&status=active,archived&per_page=2`;
      expect((await walk(`${only}&order_by=tax_category[ASC]`)).ids).toEqual([d.id, s.id, w.id]);
      expect((await walk(`${only}&order_by=status[ASC]`)).ids).toEqual([w.id, s.id, d.id]);
      expect((await walk(`${only}&order_by=created_at[DESC]`)).ids).toEqual([s.id, d.id, w.id]);
      expect((await walk(`${only}&order_by=updated_at[ASC]`)).ids).toEqual([s.id, d.id, w.id]);
    });

    it("refuses an after that names no product when ordering by another field", async () => {
      const res = await list(`?order_by=name[ASC]&after=${newId("pro")}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["after"]);
    });
  });

  describe("pagination", () => {
    // Archived custom website-hosting products: no other test makes one.
    const FILTER = "status=archived&type=custom&tax_category=website-hosting";
    let all: string[] = [];

    async function seed(): Promise<void> {
      if (all.length) return;
      const rows = Array.from({ length: 120 }, (_, i) => ({
        id: newId("pro"),
        name: `Paged ${String(i).padStart(3, "0")}`,
        type: "custom",
        taxCategory: "website-hosting",
        status: "archived",
      }));
      await db().product.createMany({ data: rows });
      all = rows.map((r) => r.id);
    }

    it("follows next through every page, keeping the query", async () => {
      await seed();
      const first = await list(`?${FILTER}&per_page=50`);
      expect(first.status).toBe(200);
      expect(first.body.data).toHaveLength(50);
      expect(first.body.meta.pagination).toMatchObject({ per_page: 50, has_more: true, estimated_total: 120 });
      const next = new URL(first.body.meta.pagination.next);
      expect(next.searchParams.get("after")).toBe(ids(first)[49]);
      expect(next.searchParams.get("tax_category")).toBe("website-hosting");
      expect(next.searchParams.get("status")).toBe("archived");
      const second = await follow(first);
      expect(ids(second)).toEqual(all.slice(50, 100));
      const third = await follow(second);
      expect(ids(third)).toEqual(all.slice(100));
      expect(third.body.meta.pagination.has_more).toBe(false);
      expect(typeof third.body.meta.pagination.next).toBe("string");
      const past = await follow(third);
      expect(past.body.data).toEqual([]);
      expect(past.body.meta.pagination.has_more).toBe(false);
    });

    it("defaults per_page to 50 and caps it at 200", async () => {
      await seed();
      const byDefault = await list(`?${FILTER}`);
      expect(byDefault.body.data).toHaveLength(50);
      expect(byDefault.body.meta.pagination.per_page).toBe(50);
      const capped = await list(`?${FILTER}&per_page=500`);
      expect(capped.body.data).toHaveLength(120);
      expect(capped.body.meta.pagination).toMatchObject({ per_page: 200, has_more: false });
    });

    it("walks the list with include=prices and order_by=name[DESC]", async () => {
      await seed();
      const walked = await walk(`?${FILTER}&include=prices&order_by=name[DESC]&per_page=40`);
      expect(walked.pages).toBe(3);
      expect(walked.ids).toEqual([...all].reverse());
    });
  });
});

describe("permissions", () => {
  const WITHOUT_PRODUCT = permissionsWithout("product.");

  it("GET /products needs product.read (product.write implies it)", async () => {
    await expectPermission((key) => list("", key), {
      permission: "product.read",
      denied: [WITHOUT_PRODUCT, ["price.write"]],
      allowed: [["product.read"], ["product.write"]],
    });
  });

  it("POST /products needs product.write", async () => {
    for (const perms of [WITHOUT_PRODUCT, ["product.read"]]) {
      const name = uniqueName("Forbidden");
      const error = expectError(
        await create({ name, tax_category: "standard" }, await testKey(perms)),
        403,
        "forbidden",
      );
      expect(error.detail).toContain("product.write");
      expect(await db().product.count({ where: { name } })).toBe(0);
    }
    const ok = await create({ name: uniqueName(), tax_category: "standard" }, await testKey(["product.write"]));
    expect(ok.status).toBe(201);
  });

  it("GET /products/{id} needs product.read (product.write implies it)", async () => {
    const p = await createOk();
    await expectPermission((key) => get(p.id, "", key), {
      permission: "product.read",
      denied: [WITHOUT_PRODUCT, ["price.read"]],
      allowed: [["product.read"], ["product.write"]],
    });
  });

  it("PATCH /products/{id} needs product.write", async () => {
    const p = await createOk({ name: "Before" });
    await expectForbidden(
      (key) => update(p.id, { name: "After" }, key),
      [WITHOUT_PRODUCT, ["product.read"]],
      "product.write",
    );
    expect((await get(p.id)).body.data.name).toBe("Before");
    const ok = await update(p.id, { name: "After" }, await testKey(["product.write"]));
    expect(ok.status).toBe(200);
    expect(ok.body.data.name).toBe("After");
  });

  it("checks the permission before looking the product up (403, not 404)", async () => {
    expectError(await get(newId("pro"), "", await testKey(["price.read"])), 403, "forbidden");
  });

  it("refuses a request without a key with 401 invalid_token", async () => {
    const res = await call(collection.GET, "GET", "/products", { key: null });
    expectError(res, 401, "invalid_token");
  });
});

describe("unsupported methods", () => {
  it("answers 405 method_not_allowed for the methods a path does not have", async () => {
    const id = newId("pro");
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/products");
    await expectMethodsNotAllowed(item, ["PUT", "POST", "DELETE"], `/products/${id}`);
  });
});

describe("events", () => {
  it("writes one product.created event whose data is the response entity", async () => {
    const res = await create({ name: uniqueName("Evented"), tax_category: "saas", custom_data: { k: "v" } });
    expect(res.status).toBe(201);
    const event = await expectOnlyEvent(res.body.data.id, "product.created", res.body.data);
    expect(Object.keys(event!.data as object)).toEqual(FIELDS);
  });

  it("writes one product.updated event per update, with the updated entity", async () => {
    const p = await createOk();
    const renamed = await update(p.id, { name: "Evented rename" });
    const archived = await update(p.id, { status: "archived" });
    const unarchived = await update(p.id, { status: "active" });
    const rows = await events(p.id);
    expect(rows.map((e) => e.eventType)).toEqual([
      "product.created",
      "product.updated",
      "product.updated",
      "product.updated",
    ]);
    expect(rows.slice(1).map((e) => e.data)).toEqual([renamed.body.data, archived.body.data, unarchived.body.data]);
  });

  it("writes no event for a refused create or update", async () => {
    const p = await createOk();
    await update(p.id, { status: "archived" });
    const before = await db().event.count();
    expectError(await create({ name: "" }), 400, "invalid_field");
    expectError(await update(p.id, { name: "x" }), 400, "entity_archived");
    expectError(await update(newId("pro"), { name: "x" }), 404, "not_found");
    expectError(await update(p.id, { status: "nope" }), 400, "invalid_field");
    expect(await db().event.count()).toBe(before);
  });
});
