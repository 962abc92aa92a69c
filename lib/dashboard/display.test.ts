import { describe, expect, it } from "vitest";
import { entityPath } from "./display.ts";

describe("entityPath", () => {
  it("finds the page of each entity with one", () => {
    const id = "abcdefghijklmnopqrstuvwxyz";
    expect(entityPath(`ctm_${id}`)).toBe(`/customers/ctm_${id}`);
    expect(entityPath(`txn_${id}`)).toBe(`/transactions/txn_${id}`);
    expect(entityPath(`sub_${id}`)).toBe(`/subscriptions/sub_${id}`);
    expect(entityPath(`pro_${id}`)).toBe(`/catalogue/products/pro_${id}`);
    expect(entityPath(`dsc_${id}`)).toBe(`/catalogue/discounts/dsc_${id}`);
  });

  it("gives null for an entity without a page or no ID at all", () => {
    for (const id of ["", "ctm", "_ctm_x", "pri_abc", "xctm_abc", "constructor_x", "__proto___x", "toString_x"]) {
      expect(entityPath(id)).toBeNull();
    }
  });
});
