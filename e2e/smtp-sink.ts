/**
 * The Playwright suite's SMTP server (started by e2e/playwright.config.ts before the app, which
 * gets SMTP_URL pointing here): a real smtp-server on loopback keeping every message, and a small
 * HTTP reader of what arrived for the specs (`GET /messages` → [{ to, subject, text, html }]).
 * Usage: tsx e2e/smtp-sink.ts <smtp port> <http port>
 */
import { createServer } from "node:http";
import { mailPart, mailSubject, startSmtpSink } from "../lib/dev/test/smtp.ts";

const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
const sink = await startSmtpSink(smtpPort);

function part(raw: string, type: "text/plain" | "text/html"): string | null {
  try {
    return mailPart(raw, type);
  } catch {
    return null;
  }
}

createServer((request, response) => {
  if (request.url !== "/messages") {
    response.writeHead(404).end();
    return;
  }
  const messages = sink.received.map((mail) => ({
    to: mail.to,
    subject: mailSubject(mail.raw),
    text: part(mail.raw, "text/plain"),
    html: part(mail.raw, "text/html"),
  }));
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(messages));
}).listen(httpPort, "127.0.0.1", () => {
  console.log(`SMTP sink on ${sink.url}, its messages on http://127.0.0.1:${httpPort}/messages`);
});
