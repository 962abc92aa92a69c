/**
 * PUT and DELETE /account-settings/logo and the public /logo route, through the real handlers on a
 * real database: the checks an upload must pass, and what the route serves.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as publicLogo from "@/app/logo/route";
import { call, expectError, expectFieldError } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { makeJpegHeader, makePng } from "@/lib/dev/test/images";
import { type Key, keyOf } from "@/lib/dev/test/resource";
import * as settings from "../route";
import * as logo from "./route";

async function put(body: unknown, key?: Key) {
  return call(logo.PUT, "PUT", "/account-settings/logo", { key: await keyOf(key), body });
}

async function remove(key?: Key) {
  return call(logo.DELETE, "DELETE", "/account-settings/logo", { key: await keyOf(key) });
}

async function fetchLogo(query = "") {
  return publicLogo.GET(new Request(`http://localhost/logo${query}`));
}

const png = makePng(120, 40);
const pngBody = { content_type: "image/png", data: png.toString("base64") };

afterEach(async () => {
  await remove();
});

describe("PUT /account-settings/logo", () => {
  it("stores a PNG; the settings answer its versioned public URL, which serves it", async () => {
    const res = await put(pngBody);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.logo_url).toMatch(/^\/logo\?v=[0-9a-f]{16}$/);
    const got = await call(settings.GET, "GET", "/account-settings", { key: await keyOf(undefined) });
    expect(got.body.data.logo_url).toBe(res.body.data.logo_url);

    const served = await fetchLogo(res.body.data.logo_url.slice("/logo".length));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    // An old version's URL still gets the current logo, but not cached for long.
    expect((await fetchLogo("?v=0000000000000000")).headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("a new logo gets a new URL; a JPEG is served as image/jpeg", async () => {
    const first = (await put(pngBody)).body.data.logo_url;
    const res = await put({ content_type: "image/jpeg", data: makeJpegHeader(300, 100).toString("base64") });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.logo_url).not.toBe(first);
    expect((await fetchLogo()).headers.get("content-type")).toBe("image/jpeg");
  });

  it("refuses what is not base64", async () => {
    for (const data of ["not base64!", "iVBOR w0KGgo=", "a", "====", "QUJD\u0000"]) {
      expectFieldError(await put({ content_type: "image/png", data }), "data");
    }
  });

  it("refuses an image over 256 KB (decoded) and a body over the limit", async () => {
    const big = Buffer.concat([png, Buffer.alloc(256 * 1024)]);
    expectFieldError(await put({ content_type: "image/png", data: big.toString("base64") }), "data");
    // Just under the limit passes (a PNG with trailing bytes still has its header).
    const fits = Buffer.concat([png, Buffer.alloc(256 * 1024 - png.length)]);
    expect((await put({ content_type: "image/png", data: fits.toString("base64") })).status).toBe(200);
    expectError(await put({ content_type: "image/png", data: "A".repeat(2_000_000) }), 413, "request_too_large");
  });

  it("refuses bytes that are not the image type claimed", async () => {
    expectFieldError(await put({ content_type: "image/jpeg", data: png.toString("base64") }), "content_type");
    expectFieldError(
      await put({ content_type: "image/png", data: makeJpegHeader(10, 10).toString("base64") }),
      "content_type",
    );
    const gif = Buffer.from("GIF89a\u0001\u0000\u0001\u0000", "latin1");
    expectFieldError(await put({ content_type: "image/png", data: gif.toString("base64") }), "data");
    const html = Buffer.from("<html><script>alert(1)</script></html>");
    expectFieldError(await put({ content_type: "image/png", data: html.toString("base64") }), "data");
  });

  it("refuses SVG and other types", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const content_type of ["image/svg+xml", "image/gif", "text/html", "", 5, null]) {
      expectFieldError(await put({ content_type, data: svg.toString("base64") }), "content_type");
    }
  });

  it("refuses absurd dimensions read from the header", async () => {
    const huge = Buffer.from(makePng(1, 1));
    huge.writeUInt32BE(100_000, 16); // IHDR width (the CRC no longer matches: only the header is read)
    expectFieldError(await put({ content_type: "image/png", data: huge.toString("base64") }), "data");
    expectFieldError(
      await put({ content_type: "image/jpeg", data: makeJpegHeader(5000, 10).toString("base64") }),
      "data",
    );
    expectFieldError(await put({ content_type: "image/jpeg", data: makeJpegHeader(0, 10).toString("base64") }), "data");
  });

  it("hostile input never answers 5xx", async () => {
    const bodies: unknown[] = [
      {},
      { content_type: "image/png" },
      { data: png.toString("base64") },
      { ...pngBody, extra: 1 },
      { content_type: "image/png", data: { nested: { deeper: [1, 2, 3] } } },
      { content_type: "image/png", data: ["a"] },
      { content_type: "image/png", data: "\ud800" },
      { content_type: "image/png\ud800", data: "AAAA" },
      { content_type: { toString: "image/png" }, data: "AAAA" },
      [],
      "x",
      null,
    ];
    for (const body of bodies) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    const deep = `${"[".repeat(5000)}"x"${"]".repeat(5000)}`;
    const res = await call(logo.PUT, "PUT", "/account-settings/logo", {
      key: await keyOf(undefined),
      rawBody: `{"content_type":"image/png","data":${deep}}`,
    });
    expect(res.status).toBeLessThan(500);
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it("needs settings.write", async () => {
    await expectPermission((key) => put(pngBody, key), {
      permission: "settings.write",
      denied: [["settings.read"], permissionsWithout("settings.")],
      allowed: [["settings.write"]],
    });
  });

  it("has no GET, POST or PATCH", async () => {
    await expectMethodsNotAllowed(logo, ["GET", "POST", "PATCH"], "/account-settings/logo");
  });
});

describe("DELETE /account-settings/logo", () => {
  it("removes the logo: the URL is null and /logo answers 404", async () => {
    await put(pngBody);
    const res = await remove();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.logo_url).toBeNull();
    const served = await fetchLogo();
    expect(served.status).toBe(404);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toBe("no-store");
    // Removing again is not an error.
    expect((await remove()).status).toBe(200);
  });

  it("needs settings.write", async () => {
    await expectPermission((key) => remove(key), {
      permission: "settings.write",
      denied: [["settings.read"], permissionsWithout("settings.")],
      allowed: [["settings.write"]],
    });
  });

  it("needs a key", async () => {
    expectError(await remove(null), 401, "invalid_token");
  });
});
