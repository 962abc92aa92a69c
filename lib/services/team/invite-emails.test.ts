/**
 * Invitation emails: POST /team/invites writes the invitation email and queues it in the same
 * transaction; the worker sends it through a real SMTP server on loopback; the link in the email,
 * opened, accepts the invitation. The Emails log never shows the one-time token.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as emailRoute from "@/app/api/emails/[email_id]/route";
import * as accept from "@/app/api/team/invites/accept/route";
import * as invites from "@/app/api/team/invites/route";
import { query } from "@/lib/db/sql";
import { call, testKey } from "@/lib/dev/test/api";
import { mailPart, mailSubject, startSmtpSink } from "@/lib/dev/test/smtp";
import { staffSession } from "@/lib/dev/test/staff";
import { updateAccountSettings } from "@/lib/services/account-settings";
import { deliverEmails } from "@/lib/services/emails/outbox";
import { startWorker } from "@/lib/worker/worker";

type Entity = Record<string, any>;

afterEach(() => {
  delete process.env.SMTP_URL;
});

let n = 0;
const inviteeEmail = () => `invitee-${Date.now()}-${n++}@example.com`;

async function invite(headers: Record<string, string>, email: string, role = "developer"): Promise<Entity> {
  const res = await call(invites.POST, "POST", "/team/invites", { headers, body: { email, role } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function emailsTo(address: string): Promise<Entity[]> {
  return query("SELECT * FROM emails WHERE to_address = $1 ORDER BY id", [address]);
}

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("invitation emails", () => {
  it("the invitee receives the email through SMTP; its link, opened, accepts the invitation", async () => {
    await updateAccountSettings({ merchant_name: "Acme Tools" });
    const sink = await startSmtpSink();
    process.env.SMTP_URL = sink.url;
    const worker = await startWorker({ concurrency: 2 });
    try {
      const owner = await staffSession("owner");
      await query("UPDATE users SET name = 'Olive Owner' WHERE id = $1", [owner.userId]);
      const email = inviteeEmail();
      const created = await invite(owner.headers, email, "admin");
      const [mail] = await sink.waitFor(1);
      expect(mail!.to).toEqual([email]);
      expect(mailSubject(mail!.raw)).toBe("Olive Owner invited you to the Acme Tools billing dashboard");
      const text = mailPart(mail!.raw, "text/plain");
      expect(text).toContain(
        "Olive Owner invited you to join the Acme Tools billing dashboard as an admin (everything but the team).",
      );
      expect(text).toMatch(/works once, for 7 days \(until \d{1,2} \w+ \d{4}\)/);
      const link = /Accept invitation: (\S+)/.exec(text)?.[1] as string;
      expect(link).toBe(created.url);
      expect(mailPart(mail!.raw, "text/html")).toContain(`href="${link}"`);

      const token = new URL(link).pathname.split("/invite/")[1];
      const joined = await call(accept.POST, "POST", "/team/invites/accept", {
        body: { token, password: "a long enough password", name: "Ivy" },
      });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      expect(joined.body.data).toMatchObject({ email, role: "admin" });

      // Sent, then stored with the token masked: the log never shows it.
      await until(async () => (await emailsTo(email))[0]?.status === "sent");
      const [row] = await emailsTo(email);
      expect(row).toMatchObject({ template: "team_invite", entity_id: created.id, event_id: null });
      expect(row!.text_body).not.toContain(token);
      expect(row!.html_body).not.toContain(token);
      expect(row!.text_body).toContain("/invite/[link hidden: shown once to the inviter]");
    } finally {
      await worker.stop();
      await sink.close();
    }
  });

  it("without SMTP the email is logged, its link masked in the log (and in GET /emails/{id} before delivery)", async () => {
    const owner = await staffSession("owner");
    const email = inviteeEmail();
    const created = await invite(owner.headers, email, "viewer");
    const token = created.url.split("/invite/")[1];
    const [pending] = await emailsTo(email);
    expect(pending).toMatchObject({ template: "team_invite", status: "pending" });
    const read = async () =>
      call(emailRoute.GET, "GET", `/emails/${pending!.id}`, {
        key: await testKey(["notification.read"]),
        params: { email_id: pending!.id },
      });
    const before = await read();
    expect(before.status).toBe(200);
    expect(before.body.data.template).toBe("team_invite");
    expect(before.body.data.text).not.toContain(token);
    expect(before.body.data.html).not.toContain(token);
    expect(before.body.data.text).toContain("as a viewer (reads everything but API keys)");

    await deliverEmails([pending!.id]);
    const [logged] = await emailsTo(email);
    expect(logged!.status).toBe("logged");
    expect(logged!.text_body).not.toContain(token);
    expect(logged!.html_body).not.toContain(token);
  });

  it("re-inviting sends a new email with a new link; the older link stops working", async () => {
    const owner = await staffSession("owner");
    const email = inviteeEmail();
    const first = await invite(owner.headers, email);
    const second = await invite(owner.headers, email);
    expect(second.url).not.toBe(first.url);
    const rows = await emailsTo(email);
    expect(rows.map((r) => [r.template, r.entity_id])).toEqual([
      ["team_invite", first.id],
      ["team_invite", second.id],
    ]);
    const old = await call(accept.POST, "POST", "/team/invites/accept", {
      body: { token: first.url.split("/invite/")[1], password: "a long enough password" },
    });
    expect(old.status).toBe(404);
  });

  it("a refused invitation (member already, bad role) writes no email", async () => {
    const owner = await staffSession("owner");
    const [self] = await query<{ email: string }>("SELECT email FROM users WHERE id = $1", [owner.userId]);
    const taken = await call(invites.POST, "POST", "/team/invites", {
      headers: owner.headers,
      body: { email: self!.email, role: "viewer" },
    });
    expect(taken.status).toBe(409);
    const bad = await call(invites.POST, "POST", "/team/invites", {
      headers: owner.headers,
      body: { email: "x-bad-role@example.com", role: "superuser" },
    });
    expect(bad.status).toBe(400);
    expect(await emailsTo(self!.email)).toHaveLength(0);
    expect(await emailsTo("x-bad-role@example.com")).toHaveLength(0);
  });
});
