/**
 * Where customer emails go: the SMTP server of SMTP_URL (nodemailer's URL form, e.g.
 * `smtp://user:pass@mail.example.com:587` or `smtps://…:465`), from SMTP_FROM (default: the
 * merchant's billing email, else `billing@` the public host). Without SMTP_URL nothing is sent:
 * every email is kept in the `emails` table with status `logged`, shown on the dashboard's Emails
 * page (the sandbox's inbox). Both are read at each send, so tests and operators can change them.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../../config.ts";

export function smtpUrl(): string | null {
  const url = process.env.SMTP_URL?.trim();
  return url ? url : null;
}

const transports = new Map<string, Transporter>();

/** One pooled transport per SMTP_URL (reused across jobs). */
export function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/** The From address: SMTP_FROM, else the merchant's billing email, else billing@<public host>. */
export function fromAddress(
  merchantName: string,
  merchantEmail: string | null,
): string | { name: string; address: string } {
  const configured = process.env.SMTP_FROM?.trim();
  if (configured) return configured;
  const address = merchantEmail ?? `billing@${new URL(config.publicUrl).hostname}`;
  return { name: merchantName, address };
}
