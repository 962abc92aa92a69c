/** The client's address: the socket's, stamped by the server, or X-Forwarded-For behind trusted proxies. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  CLIENT_ADDRESS_HEADER,
  clientAddress,
  installClientAddressHeader,
  normalizeAddress,
} from "./client-address.ts";

afterEach(() => {
  delete process.env.BILLING_TRUST_PROXY;
});

describe("normalizeAddress", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["203.0.113.7:51234", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["[2001:db8:1:2:3:4:5:6]:443", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff::9", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
    ["", "unknown"],
    ["not an address", "not an address"],
  ])("%s → %s", (raw, expected) => {
    expect(normalizeAddress(raw)).toBe(expected);
  });
});

describe("clientAddress", () => {
  it("without trusted proxies: the socket's address the server stamped, whatever X-Forwarded-For says", () => {
    expect(clientAddress({ [CLIENT_ADDRESS_HEADER]: "198.51.100.4", "x-forwarded-for": "1.2.3.4" })).toBe(
      "198.51.100.4",
    );
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: "::ffff:198.51.100.4" }))).toBe("198.51.100.4");
  });

  it("behind N trusted proxies: the N-th X-Forwarded-For entry from the right (what the outermost proxy saw)", () => {
    const headers = { [CLIENT_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 198.51.100.4, 10.0.0.9" };
    process.env.BILLING_TRUST_PROXY = "true";
    expect(clientAddress(headers)).toBe("10.0.0.9");
    process.env.BILLING_TRUST_PROXY = "2";
    expect(clientAddress(headers)).toBe("198.51.100.4");
    // The client's own entry at the left is never taken for the address, unless as many proxies are trusted.
    process.env.BILLING_TRUST_PROXY = "9";
    expect(clientAddress(headers)).toBe("6.6.6.6");
    // No X-Forwarded-For at all: the socket's.
    expect(clientAddress({ [CLIENT_ADDRESS_HEADER]: "10.0.0.2" })).toBe("10.0.0.2");
  });

  it("refuses a BILLING_TRUST_PROXY that is neither off, true nor a number", () => {
    process.env.BILLING_TRUST_PROXY = "sometimes";
    expect(() => clientAddress({})).toThrow(/BILLING_TRUST_PROXY/);
  });
});

describe("installClientAddressHeader", () => {
  it("stamps every request with its socket's address, over any value the client sent", async () => {
    installClientAddressHeader();
    installClientAddressHeader(); // once is enough; twice changes nothing
    const seen: (string | string[] | undefined)[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers[CLIENT_ADDRESS_HEADER]);
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { [CLIENT_ADDRESS_HEADER]: "6.6.6.6", "x-forwarded-for": "6.6.6.6" },
      });
      expect(await res.text()).toBe("ok");
      expect(seen).toEqual(["127.0.0.1"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
