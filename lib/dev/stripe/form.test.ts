/** Stripe's form encoding read back (form.ts): brackets, both array styles, and hostile names. */
import { describe, expect, it } from "vitest";
import { encodeForm, FormError, parseForm } from "./form.ts";

describe("parseForm", () => {
  it("reads nested objects and indexed or pushed arrays", () => {
    expect(
      parseForm(
        "amount=1000&metadata[order]=7&expand[0]=customer&expand[1]=latest_charge&types[]=a&types[]=b&payment_method_data[card][number]=4242&payment_method_data[billing_details][address][country]=GB",
      ),
    ).toEqual({
      amount: "1000",
      metadata: { order: "7" },
      expand: ["customer", "latest_charge"],
      types: ["a", "b"],
      payment_method_data: { card: { number: "4242" }, billing_details: { address: { country: "GB" } } },
    });
  });

  it("decodes percent-encoding, + as space, encoded brackets and empty values", () => {
    expect(parseForm("description=Plan+%26+more&metadata%5Bk%5D=v&email=")).toEqual({
      description: "Plan & more",
      metadata: { k: "v" },
      email: "",
    });
  });

  it("reads arrays of objects", () => {
    expect(parseForm("items[0][price]=a&items[0][quantity]=1&items[1][price]=b")).toEqual({
      items: [{ price: "a", quantity: "1" }, { price: "b" }],
    });
  });

  it("round-trips what encodeForm writes (as the stripe package writes it)", () => {
    const data = { amount: 5, metadata: { a: "x y", b: "&=" }, expand: ["a", "b"], nested: { deep: { v: "1" } } };
    expect(parseForm(encodeForm(data))).toEqual({
      amount: "5",
      metadata: { a: "x y", b: "&=" },
      expand: ["a", "b"],
      nested: { deep: { v: "1" } },
    });
  });

  it.each([
    ["__proto__[polluted]=1", /Invalid parameter name/],
    ["constructor[x]=1", /Invalid parameter name/],
    ["a[0]=1&a[3]=2", /Invalid array index/],
    ["a=1&a=2", /given twice/],
    ["a=1&a[b]=2", /two shapes/],
    ["a[b=1", /Invalid parameter name/],
    ["a[b]x=1", /Invalid parameter name/],
    ["%ZZ=1", /not valid form encoding/],
    [`${"a".repeat(1)}${"[x]".repeat(9)}=1`, /nested too deeply/],
  ])("refuses %s", (text, message) => {
    expect(() => parseForm(text)).toThrow(FormError);
    expect(() => parseForm(text)).toThrow(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses more than 2,000 parameters", () => {
    const text = Array.from({ length: 2_001 }, (_, i) => `k${i}=v`).join("&");
    expect(() => parseForm(text)).toThrow(/Too many parameters/);
  });
});
