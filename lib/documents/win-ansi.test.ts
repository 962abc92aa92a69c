import { describe, expect, it } from "vitest";
import { toWinAnsi } from "./win-ansi.ts";

describe("toWinAnsi", () => {
  it("keeps Latin-1 and the typographic characters of WinAnsiEncoding", () => {
    expect(toWinAnsi("Zoë Müller — “Straße” €5 ½")).toBe("Zoë Müller — “Straße” €5 ½");
  });

  it("drops accents Latin-1 has no letter for, maps letters without a decomposition, and ? for the rest", () => {
    expect(toWinAnsi("Łódź Dvořák Đorđe ő")).toBe("Lódz Dvorák Dorde o");
    expect(toWinAnsi("北京 ✓")).toBe("?? ?");
  });

  it("turns line breaks and tabs into spaces and drops control characters", () => {
    expect(toWinAnsi("a\nb\tc\u200bd")).toBe("a b cd");
  });
});
