/**
 * Reading a request body with a size limit, for the API's route wrapper and the sign-in routes.
 *
 * The body is read chunk by chunk and reading stops at the limit, whether the client declared a
 * Content-Length or sent the body chunked: `request.text()` would first hold the whole upload in
 * memory (a 30 MiB chunked upload grew the server by about 60 MB), whatever the limit said after.
 */
import { ApiError } from "../errors.ts";

function tooLarge(limit: number): ApiError {
  return new ApiError("request_too_large", `Request body is larger than ${limit} bytes.`);
}

/** The body's bytes, at most `limit` of them: a longer body is refused (413) without reading the rest. */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    // The reader is released, not cancelled: under Next.js, cancelling destroys the socket before
    // the 413 is written. The rest is left unread: the stream pulls on demand, so the socket stops
    // reading and the client stops sending; it gets the 413 (a client reads while it sends), and
    // Node closes the connection once it has been idle for the keep-alive timeout. (Connection:
    // close would close it with unread bytes, and the TCP reset could cost the client the 413.)
    if (size > limit) {
      reader.releaseLock();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const [only] = chunks;
  return chunks.length === 1 && only ? only : Buffer.concat(chunks, size);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as UTF-8 text; bytes that are not UTF-8 are refused (400), never replaced by U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError("bad_request", "Request body is not valid UTF-8.");
  }
}
