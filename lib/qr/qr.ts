/**
 * QR codes for links customers open on a phone (payment links, an invoice's "Pay online"): one
 * encoder (the `uqr` package) behind two shapes — the module matrix, for the PDF renderer to draw,
 * and an SVG, for pages. Error correction M (15%) and a quiet zone of four modules, as the
 * standard asks, so that printed and on-screen codes both scan.
 */
import { encode } from "uqr";

const QUIET_ZONE = 4;

/** The code's modules, row by row (true = dark), quiet zone included. */
export function qrMatrix(text: string): boolean[][] {
  return encode(text, { ecc: "M", border: QUIET_ZONE }).data;
}

/** The code as an SVG document: one path of unit squares, scalable, with an accessible title. */
export function qrSvg(text: string, title = "QR code"): string {
  const matrix = qrMatrix(text);
  const size = matrix.length;
  let path = "";
  for (const [y, row] of matrix.entries()) {
    for (const [x, dark] of row.entries()) if (dark) path += `M${x} ${y}h1v1h-1z`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" shape-rendering="crispEdges">` +
    `<title>${escapeXml(title)}</title><rect width="${size}" height="${size}" fill="#fff"/>` +
    `<path d="${path}" fill="#000"/></svg>`
  );
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
