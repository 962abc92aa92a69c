import { describe, expect, it } from "vitest";
import { humaneDetail } from "./api.ts";

describe("humaneDetail", () => {
  it("names the entity of an unknown ID", () => {
    expect(humaneDetail("not_found", "Entity ctm_01hv8x7k3m9q2w4e6r8t0y2u4i not found")).toBe(
      "No customer with ID ctm_01hv8x7k3m9q2w4e6r8t0y2u4i. It may have been deleted, or the link is wrong.",
    );
    expect(humaneDetail("not_found", "Entity dsg_01hv8x7k3m9q2w4e6r8t0y2u4i not found")).toContain("No discount group");
    expect(humaneDetail("not_found", "Entity apikey_01hv8x7k3m9q2w4e6r8t0y2u4i not found")).toContain("No API key");
  });

  it("says what a role cannot do", () => {
    expect(
      humaneDetail(
        "forbidden",
        "You aren't permitted to perform this request: it needs the customer.write permission.",
      ),
    ).toBe("Your role cannot change customer data (it needs the customer.write permission). Ask an owner for access.");
  });

  it("keeps anything else as the API wrote it", () => {
    expect(humaneDetail("not_found", "Entity xyz_1 not found")).toBe("Entity xyz_1 not found");
    expect(humaneDetail("conflict", "Something else.")).toBe("Something else.");
  });
});
