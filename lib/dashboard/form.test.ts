import { describe, expect, it } from "vitest";
import { errorSentence } from "./form.ts";

describe("errorSentence", () => {
  it("names the field before the API's fragment and ends the sentence", () => {
    expect(errorSentence("Name", "must be at most 200 characters")).toBe("Name must be at most 200 characters.");
    expect(errorSentence("Postal code", "is required for addresses in US")).toBe(
      "Postal code is required for addresses in US.",
    );
  });

  it("keeps a sentence as it is, with a full stop", () => {
    expect(errorSentence("Email", "Another login already uses this email address.")).toBe(
      "Another login already uses this email address.",
    );
    expect(errorSentence("Amount", "Enter an amount")).toBe("Enter an amount.");
  });

  it("capitalises a fragment it cannot name (no text label, or another kind of message)", () => {
    expect(errorSentence(null, "must be a valid email address")).toBe("Must be a valid email address.");
    expect(errorSentence("Items", "line 2: must be positive")).toBe("Line 2: must be positive.");
  });
});
