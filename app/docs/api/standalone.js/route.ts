import { readFile } from "node:fs/promises";
import path from "node:path";

/** Scalar's browser bundle, from the installed package (the server runs from the project's root). */
const BUNDLE = path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js");

let bundle: Promise<Buffer> | undefined;

export async function GET(): Promise<Response> {
  bundle ??= readFile(BUNDLE);
  return new Response(new Uint8Array(await bundle), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
  });
}
