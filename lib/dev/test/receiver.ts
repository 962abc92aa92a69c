/**
 * A real local HTTP receiver for webhook tests: records every request (raw body and headers) and
 * answers as `respond` says (status, body, delay; or "hang" to never answer, for timeouts).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
  at: number;
}

export type Answer = { status: number; body?: string; delayMs?: number } | "hang";

export interface Receiver {
  url: string;
  received: Received[];
  /** Sets how the next requests are answered; `nth` is the 0-based index of the request. */
  respond: (answer: (nth: number, request: Received) => Answer) => void;
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

export async function startReceiver(path = "/hook"): Promise<Receiver> {
  const received: Received[] = [];
  let answer: (nth: number, request: Received) => Answer = () => ({ status: 200, body: "ok" });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { body: Buffer.concat(chunks).toString("utf8"), headers: req.headers, at: Date.now() };
      const nth = received.length;
      received.push(request);
      const reply = answer(nth, request);
      if (reply === "hang") return;
      const send = () => res.writeHead(reply.status, { "content-type": "text/plain" }).end(reply.body ?? "");
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    respond: (fn) => {
      answer = fn;
    },
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
