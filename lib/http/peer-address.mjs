// Preloaded into the Next.js server by `npm start` (lib/cli/main.ts: NODE_OPTIONS=--import):
// appends each request's socket peer address to X-Forwarded-For, as a proxy hop does, before Next
// sees the request. Route handlers cannot reach the socket, and Next itself sets X-Forwarded-For
// only when a request has none, so without this a client could name any address it liked.
// lib/http/client-address.ts reads the result. Plain JavaScript: it runs before any TypeScript
// loader.
import http from "node:http";
import https from "node:https";

globalThis[Symbol.for("billing.peerAddressStamped")] = true;

function stamp(request) {
  const peer = request.socket?.remoteAddress;
  if (!peer) return;
  const forwarded = request.headers["x-forwarded-for"];
  request.headers["x-forwarded-for"] = forwarded ? `${forwarded}, ${peer}` : peer;
}

for (const Server of [http.Server, https.Server]) {
  const emit = Server.prototype.emit;
  Server.prototype.emit = function emitWithPeer(event, request, ...rest) {
    if (event === "request") stamp(request);
    return emit.call(this, event, request, ...rest);
  };
}
