import { describe, expect, it } from "vitest";
import { ApiClientError } from "./api.ts";
import { errorSentence, formErrors } from "./form.ts";

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

describe("formErrors", () => {
  const refusal = new ApiClientError(400, "invalid_field", "Invalid request.", [
    { field: "resume_at", message: "must be later than the pause (now)" },
    { field: "on_resume", message: "must be start_new_billing_period" },
  ]);

  it("puts field errors beside their fields, the rest in the form's message", () => {
    const errors = formErrors(refusal, ["resume_at"]);
    expect(errors.fields).toEqual({ resume_at: "must be later than the pause (now)" });
    expect(errors.other).toEqual([{ field: "on_resume", message: "must be start_new_billing_period" }]);
    expect(errors.message).toBe("Some fields need attention.");
  });

  it("lists the placed fields too for a dialog's alert, with the API's detail", () => {
    const errors = formErrors(refusal, ["resume_at"], undefined, { listPlaced: true });
    expect(errors.fields).toEqual({ resume_at: "must be later than the pause (now)" });
    expect(errors.other.map((entry) => entry.field)).toEqual(["resume_at", "on_resume"]);
    expect(errors.message).toBe("Invalid request.");
  });
});
