import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "./csv.ts";

describe("CSV cells (RFC 4180, formula-safe)", () => {
  it("quotes fields with commas, quotes, CR or LF, doubling the quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\rhere")).toBe('"cr\rhere"');
    expect(csvCell("")).toBe("");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("héllo ✓")).toBe("héllo ✓");
  });

  it("prefixes cells a spreadsheet would run as formulas, and keeps numbers", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+cmd")).toBe("'+cmd");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell("\r=1")).toBe(`"'\r=1"`);
    expect(csvCell("-150")).toBe("-150");
    expect(csvCell("-0.05")).toBe("-0.05");
    expect(csvCell("1500")).toBe("1500");
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("ends each record with CRLF", () => {
    expect(csvLine(["a", null, "b,c", "=x"])).toBe(`a,,"b,c",'=x\r\n`);
    expect(csvLine([])).toBe("\r\n");
  });
});
