/**
 * A real SMTP server on loopback for email tests (the smtp-server package): accepts every message
 * (any or no login) and keeps it raw, with a small MIME reader for its text part.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> (no TLS: loopback only). */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived (or rejects after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>;
  /** Refuse the next messages with a 550 (to test failed sends). */
  refuse: (on: boolean) => void;
  close: () => Promise<void>;
}

/** `port` 0 (default): any free port; the Playwright suite's sink (e2e/smtp-sink.ts) uses a known one. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let refusing = false;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusing) {
          const error = new Error("Mailbox unavailable") as Error & { responseCode: number };
          error.responseCode = 550;
          callback(error);
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const listening = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${listening}`,
    received,
    refuse: (on) => {
      refusing = on;
    },
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} email(s), got ${received.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodePart(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

/** The decoded part of `type` (text/plain or text/html) of a raw message, and its Subject header. */
export function mailPart(raw: string, type: "text/plain" | "text/html"): string {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const part of parts) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const headers = part.slice(0, split);
    if (!new RegExp(`content-type:\\s*${type}`, "i").test(headers)) continue;
    const body = part
      .slice(split)
      .replace(/^\r?\n\r?\n/, "")
      .replace(/\r?\n--[^\r\n]*--\s*$/, "");
    return decodePart(headers, body);
  }
  throw new Error(`no ${type} part in the message`);
}

export function mailSubject(raw: string): string {
  return /^subject:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? "";
}
