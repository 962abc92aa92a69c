import { describe, expect, it } from "vitest";
import { qrMatrix, qrSvg } from "./qr.ts";

describe("qr", () => {
  it("encodes a link as a square matrix with finder patterns and a quiet zone", () => {
    const matrix = qrMatrix("https://billing.example.com/pay/plink_01");
    const size = matrix.length;
    expect(matrix.every((row) => row.length === size)).toBe(true);
    // Version n is 17 + 4n modules wide, plus 4 light modules each side.
    expect((size - 8 - 17) % 4).toBe(0);
    expect(matrix[0]!.some(Boolean)).toBe(false);
    // The top-left finder pattern: a dark 7×7 ring starting inside the quiet zone.
    for (let i = 0; i < 7; i++) {
      expect(matrix[4]![4 + i]).toBe(true);
      expect(matrix[4 + i]![4]).toBe(true);
    }
    expect(matrix[5]![5]).toBe(false);
    expect(matrix[7]![7]).toBe(true);
  });

  it("renders an SVG with an escaped, accessible title", () => {
    const svg = qrSvg("https://x.test/?a=1&b=2", 'Pay "INV-1" <now>');
    expect(svg).toMatch(/^<svg [^>]*role="img"/);
    expect(svg).toContain("<title>Pay &#34;INV-1&#34; &#60;now&#62;</title>");
    expect(svg).not.toContain("<now>");
  });
});
