/**
 * Customer emails for real: events written by the API queue their email job in the same database
 * transaction; the job writes the emails and sends them to a real SMTP server on loopback
 * (smtp-server), or, without SMTP_URL, keeps them in the Emails log. The API of that log
 * (GET /emails, GET /emails/{email_id}) and the portal-link email through the real route handlers.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as portalLinkEmailRoute from "@/app/api/customers/[customer_id]/portal-link-email/route";
import * as resendRoute from "@/app/api/emails/[email_id]/resend/route";
import * as emailRoute from "@/app/api/emails/[email_id]/route";
import * as emailsRoute from "@/app/api/emails/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { insertDestination } from "@/lib/dev/test/notifications";
import { mailPart, mailSubject, startSmtpSink } from "@/lib/dev/test/smtp";
import { MANUAL_TERMS, makeBusiness, makeBuyer, makeReady, transactions } from "@/lib/dev/test/transactions";
import { newId } from "@/lib/ids";
import { updateAccountSettings } from "@/lib/services/account-settings";
import { loadHostedInvoice } from "@/lib/services/hosted-invoices";
import { payAtCheckout } from "@/lib/services/payments/checkout";
import { startWorker } from "@/lib/worker/worker";
import { sendEventEmails } from "./events";

type Entity = Record<string, any>;

beforeAll(async () => {
  await updateAccountSettings({ merchant_name: "Acme Tools", merchant_email: "billing@acme.example" });
});

afterEach(() => {
  delete process.env.SMTP_URL;
});

async function makeBilled(customer: Entity = {}): Promise<Entity> {
  const ready = await makeReady({
    collection_mode: "manual",
    billing_details: { ...MANUAL_TERMS, enable_checkout: true },
    ...customer,
  });
  const res = await transactions.update(ready.id, { status: "billed" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function eventId(entityId: string, type: string): Promise<string> {
  const [row] = await query<{ id: string }>("SELECT id FROM events WHERE entity_id = $1 AND event_type = $2", [
    entityId,
    type,
  ]);
  return row!.id;
}

async function queuedJobs(event: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'send_event_emails' AND j.payload->>'event_id' = $1`,
    [event],
  );
  return row!.n;
}

async function emailsAbout(entityId: string): Promise<Entity[]> {
  return query("SELECT * FROM emails WHERE entity_id = $1 ORDER BY id", [entityId]);
}

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the invoice-issued email through SMTP", () => {
  it("reaches a real SMTP server from the worker, with the link to the invoice's hosted page", async () => {
    const sink = await startSmtpSink();
    process.env.SMTP_URL = sink.url;
    const worker = await startWorker({ concurrency: 2 });
    try {
      const billed = await makeBilled();
      const [mail] = await sink.waitFor(1);
      const [customer] = await query<{ email: string }>("SELECT email FROM customers WHERE id = $1", [
        billed.customer_id,
      ]);
      expect(mail!.to).toEqual([customer!.email]);
      expect(mail!.from).toBe("billing@acme.example");
      expect(mailSubject(mail!.raw)).toBe(`Invoice ${billed.invoice_number} from Acme Tools`);
      const text = mailPart(mail!.raw, "text/plain");
      const link = /View and pay invoice: (\S+)/.exec(text)?.[1] as string;
      expect(link).toMatch(new RegExp(`^http://localhost:3000/invoices/${billed.id}-\\d+-[0-9a-f]{64}$`));
      expect(mailPart(mail!.raw, "text/html")).toContain(`href="${link}"`);

      // The link opens the right invoice's hosted page.
      const page = await loadHostedInvoice(new URL(link).pathname.split("/").at(-1));
      if (!page.ok) throw new Error(page.problem);
      expect(page.view).toMatchObject({
        transactionId: billed.id,
        invoiceNumber: billed.invoice_number,
        state: "open",
      });

      await until(async () => (await emailsAbout(billed.id))[0]?.status === "sent");
      const [row] = await emailsAbout(billed.id);
      expect(row).toMatchObject({ template: "invoice_issued", event_type: "transaction.billed", error: null });
      expect(row!.sent_at).not.toBeNull();
    } finally {
      await worker.stop();
      await sink.close();
    }
  });

  it("records a refused send as failed with the server's answer, and sends it when the job runs again", async () => {
    const sink = await startSmtpSink();
    process.env.SMTP_URL = sink.url;
    try {
      const billed = await makeBilled();
      const event = await eventId(billed.id, "transaction.billed");
      sink.refuse(true);
      await expect(sendEventEmails(event)).rejects.toThrow(/SMTP refused 1 email/);
      const [failed] = await emailsAbout(billed.id);
      expect(failed).toMatchObject({ status: "failed", attempts: 1 });
      expect(failed!.error).toContain("Mailbox unavailable");
      sink.refuse(false);
      await sendEventEmails(event);
      await sendEventEmails(event); // once sent, never again
      expect(sink.received).toHaveLength(1);
      const rows = await emailsAbout(billed.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: failed!.id, status: "sent", attempts: 2, error: null });
    } finally {
      await sink.close();
    }
  });
});

describe("without SMTP_URL: the sandbox's Emails log", () => {
  it("queues the job in the event's transaction and keeps the invoice and receipt emails as logged", async () => {
    // An email destination's emails are its notifications' (notification-emails.test.ts), not this job's.
    const destination = await insertDestination("ops@acme.example", ["transaction.billed"], { type: "email" });
    const billed = await makeBilled();
    const billedEvent = await eventId(billed.id, "transaction.billed");
    expect(await queuedJobs(billedEvent)).toBe(1);
    // An event nobody is emailed about queues nothing.
    expect(await queuedJobs(await eventId(billed.id, "transaction.created"))).toBe(0);

    await sendEventEmails(billedEvent);
    const issued = await emailsAbout(billed.id);
    expect(issued.map((e) => [e.template, e.status])).toEqual([["invoice_issued", "logged"]]);
    const [notification] = await query<{ id: string; type: string }>(
      "SELECT id, type FROM notifications WHERE notification_setting_id = $1",
      [destination.id],
    );
    expect(notification!.type).toBe("transaction.billed");

    await payAtCheckout(billed.id, {
      cardholder_name: "Sam",
      number: "4242 4242 4242 4242",
      expiry: "12/40",
      cvc: "1",
    });
    await sendEventEmails(await eventId(billed.id, "transaction.completed"));
    const receipt = (await emailsAbout(billed.id)).find((e) => e.template === "receipt");
    expect(receipt).toMatchObject({
      status: "logged",
      subject: `Receipt from Acme Tools (invoice ${billed.invoice_number})`,
    });
    expect(receipt?.text_body).toMatch(/received your payment of \$\d/);
    await query("UPDATE notification_settings SET active = false WHERE id = $1", [destination.id]);
  });

  it("escapes what customers typed in the HTML", async () => {
    const billed = await makeBilled();
    await query("UPDATE customers SET name = $2 WHERE id = $1", [billed.customer_id, "<img src=x onerror=alert(1)>"]);
    await sendEventEmails(await eventId(billed.id, "transaction.billed"));
    const [email] = await emailsAbout(billed.id);
    expect(email!.text_body).toContain("Hello <img src=x onerror=alert(1)>,");
    expect(email!.html_body).toContain("Hello &lt;img src=x onerror=alert(1)&gt;,");
    expect(email!.html_body).not.toContain("<img");
  });
});

describe("GET /emails and GET /emails/{email_id}", () => {
  const list = async (queryText = "", key?: string) =>
    call(emailsRoute.GET, "GET", `/emails${queryText}`, { key: key ?? (await testKey(["notification.read"])) });
  const get = async (id: string, key?: string) =>
    call(emailRoute.GET, "GET", `/emails/${id}`, {
      key: key ?? (await testKey(["notification.read"])),
      params: { email_id: id },
    });

  it("lists the emails newest first without bodies, filters them, and shows one with its text and HTML", async () => {
    const first = await makeBilled();
    const second = await makeBilled();
    await sendEventEmails(await eventId(first.id, "transaction.billed"));
    await sendEventEmails(await eventId(second.id, "transaction.billed"));
    const res = await list(`?entity_id=${second.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const summary = res.body.data[0];
    expect(Object.keys(summary)).toEqual([
      "id",
      "to",
      "subject",
      "template",
      "event_id",
      "event_type",
      "entity_id",
      "notification_setting_id",
      "status",
      "error",
      "attempts",
      "created_at",
      "sent_at",
    ]);
    const all = await list("?template=invoice_issued&status=logged,sent");
    const ids = all.body.data.map((e: Entity) => e.entity_id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));

    const one = await get(summary.id);
    expect(one.status).toBe(200);
    expect(one.body.data.text).toContain("View and pay invoice: http://localhost:3000/invoices/");
    expect(one.body.data.html).toContain("<!doctype html>");
  });

  it("needs notification.read (403), answers 404 for an unknown email, 400 naming the field for bad filters", async () => {
    const viewer = await testKey(["transaction.read"]);
    expectError(await list("", viewer), 403, "forbidden");
    expectError(await get(newId("eml"), viewer), 403, "forbidden");
    const missing = newId("eml");
    expectNotFound(await get(missing), missing);
    expect((await get("eml_<script>")).status).toBeGreaterThanOrEqual(400);
    expect((await get("eml_<script>")).status).toBeLessThan(500);
    for (const bad of ["?status=bogus", "?template=x", "?entity_id=evt_1", `?to=${"a".repeat(400)}`, "?per_page=0"]) {
      const res = await list(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe("invalid_field");
    }
  });
});

describe("POST /customers/{customer_id}/portal-link-email", () => {
  const send = async (id: string, key?: string) =>
    call(portalLinkEmailRoute.POST, "POST", `/customers/${id}/portal-link-email`, {
      key: key ?? (await testKey(["customer_portal_session.write"])),
      params: { customer_id: id },
    });

  it("writes the portal-link email and queues its delivery in one transaction", async () => {
    const { customer } = await makeBuyer();
    const res = await send(customer.id);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const [email] = await emailsAbout(customer.id);
    expect(email).toMatchObject({ template: "portal_link", status: "pending", to_address: customer.email });
    expect(email!.text_body).toMatch(/Open billing portal: http:\/\/localhost:3000\/portal\/overview\?token=/);
    const { n } = (
      await query<{ n: number }>(
        `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'deliver_emails' AND (j.payload->'ids')::jsonb ? $1`,
        [email!.id],
      )
    )[0]!;
    expect(n).toBe(1);
  });

  it("needs customer_portal_session.write (403) and a known customer (404)", async () => {
    const { customer } = await makeBuyer();
    expectError(await send(customer.id, await testKey(["customer.read"])), 403, "forbidden");
    const missing = newId("ctm");
    expectNotFound(await send(missing), missing);
  });
});

describe("an invoice to a business's billing contacts", () => {
  it("emails the customer and each contact once, by their own name; the past-due reminder too", async () => {
    const ready = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
    const [customer] = await query<{ email: string }>("SELECT email FROM customers WHERE id = $1", [ready.customer_id]);
    const business = await makeBusiness(ready.customer_id, {
      name: "Becker Design",
      contacts: [
        { name: "Ana Accounts", email: "accounts@becker.example" },
        { email: "AP@becker.example" },
        { name: "The customer again", email: customer!.email.toUpperCase() },
      ],
    });
    expect((await transactions.update(ready.id, { business_id: business.id })).status).toBe(200);
    const billed = (await transactions.update(ready.id, { status: "billed" })).body.data;
    const event = await eventId(billed.id, "transaction.billed");
    await sendEventEmails(event);
    await sendEventEmails(event); // a job run again writes none twice
    const rows = await emailsAbout(billed.id);
    expect(rows.map((e) => [e.template, e.to_address]).sort()).toEqual(
      [
        ["invoice_issued", "AP@becker.example"],
        ["invoice_issued", "accounts@becker.example"],
        ["invoice_issued", customer!.email],
      ].sort(),
    );
    const ana = rows.find((e) => e.to_address === "accounts@becker.example");
    expect(ana?.text_body).toContain("Hello Ana Accounts,");
    expect(ana?.text_body).toContain(`View and pay invoice: http://localhost:3000/invoices/${billed.id}-`);

    await query("UPDATE transactions SET status = 'past_due' WHERE id = $1", [billed.id]);
    await query(
      "INSERT INTO events (id, event_type, entity_id, occurred_at, data) SELECT $1, 'transaction.past_due', entity_id, now(), data FROM events WHERE id = $2",
      [newId("evt"), event],
    );
    await sendEventEmails(await eventId(billed.id, "transaction.past_due"));
    const reminders = (await emailsAbout(billed.id)).filter((e) => e.template === "invoice_past_due");
    expect(reminders).toHaveLength(3);
  });
});

describe("POST /emails/{email_id}/resend", () => {
  const resend = async (id: string, key?: string) =>
    call(resendRoute.POST, "POST", `/emails/${id}/resend`, {
      key: key ?? (await testKey(["notification.write"])),
      params: { email_id: id },
    });

  it("sends an email again as a new email of the log, written afresh with a link that works", async () => {
    const billed = await makeBilled();
    await sendEventEmails(await eventId(billed.id, "transaction.billed"));
    const [first] = await emailsAbout(billed.id);
    const res = await resend(first!.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      to: first!.to_address,
      subject: first!.subject,
      template: "invoice_issued",
      event_id: null,
      event_type: "transaction.billed",
      entity_id: billed.id,
      status: "pending",
    });
    expect(res.body.data.id).not.toBe(first!.id);
    const rows = await emailsAbout(billed.id);
    expect(rows).toHaveLength(2);
    const again = rows.find((e) => e.id === res.body.data.id);
    const link = /View and pay invoice: (\S+)/.exec(again?.text_body)?.[1] as string;
    const page = await loadHostedInvoice(new URL(link).pathname.split("/").at(-1));
    expect(page.ok).toBe(true);
    // The first keeps its status; the new one's delivery is queued.
    expect(rows.find((e) => e.id === first!.id)?.status).toBe("logged");
    const { n } = (
      await query<{ n: number }>(
        `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = 'deliver_emails' AND (j.payload->'ids')::jsonb ? $1`,
        [res.body.data.id],
      )
    )[0]!;
    expect(n).toBe(1);
  });

  it("refuses a team invitation and a notification's email (400), without the permission (403), unknown (404)", async () => {
    const invite = newId("eml");
    await query(
      `INSERT INTO emails (id, template, to_address, subject, text_body, html_body, status)
       VALUES ($1, 'team_invite', 'new@acme.example', 'Join', 'x', 'x', 'sent')`,
      [invite],
    );
    const refused = expectError(await resend(invite), 400, "bad_request");
    expect(refused.detail).toMatch(/invite the person again/);
    const billed = await makeBilled();
    await sendEventEmails(await eventId(billed.id, "transaction.billed"));
    const [email] = await emailsAbout(billed.id);
    expectError(await resend(email!.id, await testKey(["notification.read"])), 403, "forbidden");
    const missing = newId("eml");
    expectNotFound(await resend(missing), missing);
    const hostile = await resend("eml_'; drop table emails; --");
    expect(hostile.status).toBeGreaterThanOrEqual(400);
    expect(hostile.status).toBeLessThan(500);
  });
});
