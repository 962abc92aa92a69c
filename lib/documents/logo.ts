/**
 * The merchant's logo as uploaded: checks that the bytes are the PNG or JPEG they claim to be and
 * reads their pixel size from the header (pure, no image library: only the header is parsed; the
 * pixels are never decoded on the server). PDFs embed the bytes as they are (pdf-lib).
 */
import { LOGO_MAX_BYTES, LOGO_MAX_DIMENSION, type LogoContentType } from "../schemas/account-settings.ts";

export interface LogoImage {
  contentType: LogoContentType;
  bytes: Uint8Array;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Strict base64 (standard alphabet, padding optional, no whitespace inside), or null. */
export function decodeBase64(data: string): Uint8Array | null {
  const clean = data.trim();
  if (clean.length === 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
  if (clean.length % 4 === 1) return null;
  const bytes = Buffer.from(clean, "base64");
  // Node ignores a few malformed tails: a round trip catches them.
  if (bytes.toString("base64").replace(/=+$/, "") !== clean.replace(/=+$/, "")) return null;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function pngSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 33 || !PNG_SIGNATURE.every((byte, i) => b[i] === byte)) return null;
  // The first chunk must be IHDR (length 13): width and height are big-endian 32-bit.
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (view.getUint32(8) !== 13 || String.fromCharCode(...b.subarray(12, 16)) !== "IHDR") return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Start-of-frame markers (baseline, progressive, ...) hold the size; 0xC4, 0xC8 and 0xCC do not. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = view.getUint8(i + 1);
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const length = view.getUint16(i + 2);
    if (length < 2) return null;
    if (SOF.has(marker)) {
      if (i + 8 >= b.length) return null;
      return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

export type LogoCheck = { ok: true; image: LogoImage } | { ok: false; field: "data" | "content_type"; message: string };

/** Checks an upload: well-formed base64, at most LOGO_MAX_BYTES, the claimed format, a sane size. */
export function checkLogo(contentType: LogoContentType, data: string): LogoCheck {
  const bytes = decodeBase64(data);
  if (!bytes) return { ok: false, field: "data", message: "must be the image as a base64 string" };
  if (bytes.byteLength > LOGO_MAX_BYTES) {
    return { ok: false, field: "data", message: `the image must be at most ${LOGO_MAX_BYTES / 1024} KB` };
  }
  const png = pngSize(bytes);
  const jpeg = png ? null : jpegSize(bytes);
  const size = contentType === "image/png" ? png : jpeg;
  if (!size) {
    const actually = png ? "a PNG" : jpeg ? "a JPEG" : null;
    return {
      ok: false,
      field: actually ? "content_type" : "data",
      message: actually
        ? `does not match the image: the data is ${actually}`
        : `must be a ${contentType === "image/png" ? "PNG" : "JPEG"} image (its first bytes are not)`,
    };
  }
  if (size.width < 1 || size.height < 1 || size.width > LOGO_MAX_DIMENSION || size.height > LOGO_MAX_DIMENSION) {
    return {
      ok: false,
      field: "data",
      message: `the image must be between 1 and ${LOGO_MAX_DIMENSION} pixels wide and high (it is ${size.width}×${size.height})`,
    };
  }
  return { ok: true, image: { contentType, bytes, ...size } };
}

/** The largest size of a `width`×`height` image that fits a box, never enlarged. */
export function fitInBox(width: number, height: number, box: { width: number; height: number }) {
  const scale = Math.min(box.width / width, box.height / height, 1);
  return { width: width * scale, height: height * scale };
}
