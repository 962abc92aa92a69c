/**
 * The customer emails' words, as plain text and HTML (the same content: a mail client shows one
 * or the other). Pure: values in, subject and bodies out, so the wording is tested directly.
 * Every value from the database is escaped in HTML; links are our own (hosted invoice page,
 * checkout, portal).
 */

export type EmailTemplate =
  | "invoice_issued"
  | "receipt"
  | "payment_failed"
  | "invoice_past_due"
  | "trial_ending"
  | "subscription_canceled"
  | "portal_link"
  | "checkout_link"
  | "notification"
  | "team_invite";

/**
 * The events a customer may be emailed about (events.ts says what each one sends). Its SQL twin is
 * the database function `emails_wanted`, which the trigger on `events` asks before queueing an
 * event's email job; emailed-event-types.test.ts holds the two together.
 */
export const EMAILED_EVENT_TYPES = [
  "transaction.billed",
  "transaction.completed",
  "transaction.payment_failed",
  "transaction.past_due",
  "subscription.trialing",
  "subscription.canceled",
] as const;

export function isEmailedEventType(eventType: string): boolean {
  return (EMAILED_EVENT_TYPES as readonly string[]).includes(eventType);
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** One paragraph, or a call to action (a link shown as a button in HTML, on its own line in text). */
type Block = string | { link: string; label: string };

/**
 * The merchant's logo above its name in the HTML body (an absolute URL on PUBLIC_URL: the public
 * `/logo` route; null without a logo). Plain text has no logo.
 */
export interface Branding {
  logoUrl?: string | null;
}

function compose(
  merchant: string,
  subject: string,
  greeting: string | null,
  blocks: Block[],
  branding: Branding = {},
): EmailContent {
  const hello = greeting ? `Hello ${greeting},` : "Hello,";
  const text = [
    hello,
    ...blocks.map((block) => (typeof block === "string" ? block : `${block.label}: ${block.link}`)),
    `${merchant}`,
  ].join("\n\n");
  const body = blocks
    .map((block) =>
      typeof block === "string"
        ? `<p style="margin:0 0 16px">${escapeHtml(block).replaceAll("\n", "<br>")}</p>`
        : `<p style="margin:0 0 16px"><a href="${escapeHtml(block.link)}" style="display:inline-block;background:#2553c0;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(block.label)}</a></p>`,
    )
    .join("\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f1f5f9;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a;font-size:15px;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
${branding.logoUrl ? `<p style="margin:0 0 12px"><img src="${escapeHtml(branding.logoUrl)}" alt="${escapeHtml(merchant)}" style="display:block;max-width:200px;max-height:64px;width:auto;height:auto;border:0"></p>\n` : ""}<p style="margin:0 0 16px;font-weight:600">${escapeHtml(merchant)}</p>
<p style="margin:0 0 16px">${escapeHtml(hello)}</p>
${body}
</div></body></html>`;
  return { subject, text, html };
}

export interface InvoiceFacts extends Branding {
  merchant: string;
  customerName: string | null;
  invoiceNumber: string;
  amount: string;
  dueDate: string | null;
  link: string;
}

export function invoiceIssuedEmail(f: InvoiceFacts): EmailContent {
  return compose(
    f.merchant,
    `Invoice ${f.invoiceNumber} from ${f.merchant}`,
    f.customerName,
    [
      `${f.merchant} sent you invoice ${f.invoiceNumber} for ${f.amount}${f.dueDate ? `, due ${f.dueDate}` : ""}.`,
      "You can see it, download it as a PDF and pay it online:",
      { link: f.link, label: "View and pay invoice" },
    ],
    f,
  );
}

export function invoicePastDueEmail(f: InvoiceFacts): EmailContent {
  return compose(
    f.merchant,
    `Reminder: invoice ${f.invoiceNumber} is past due`,
    f.customerName,
    [
      `Invoice ${f.invoiceNumber} from ${f.merchant} for ${f.amount} was due ${f.dueDate ?? "already"} and is still unpaid.`,
      "Please pay it now, or ignore this message if you have just paid.",
      { link: f.link, label: "View and pay invoice" },
    ],
    f,
  );
}

export function receiptEmail(
  f: Branding & {
    merchant: string;
    customerName: string | null;
    amount: string;
    invoiceNumber: string | null;
    paidOn: string;
    link: string | null;
  },
): EmailContent {
  return compose(
    f.merchant,
    `Receipt from ${f.merchant}${f.invoiceNumber ? ` (invoice ${f.invoiceNumber})` : ""}`,
    f.customerName,
    [
      `Thank you: we received your payment of ${f.amount} on ${f.paidOn}.`,
      ...(f.link ? ([{ link: f.link, label: "View receipt and invoice" }] as Block[]) : []),
    ],
    f,
  );
}

export function paymentFailedEmail(
  f: Branding & {
    merchant: string;
    customerName: string | null;
    amount: string;
    link: string | null;
    /** Why, in plain words (PAYMENT_ERRORS), when the payment says. */
    reason?: string | null;
    /** The bank asks the cardholder to confirm (3-D Secure): nothing is wrong with the card. */
    needsAuthentication?: boolean;
  },
): EmailContent {
  if (f.needsAuthentication) {
    return compose(
      f.merchant,
      `Confirm your payment to ${f.merchant}`,
      f.customerName,
      [
        `Your bank asks you to confirm your payment of ${f.amount} for your subscription with ${f.merchant} (3-D Secure). Until you do, it is not taken.`,
        "To keep your subscription, confirm the payment, or pay with another card:",
        ...(f.link ? ([{ link: f.link, label: "Confirm payment" }] as Block[]) : []),
      ],
      f,
    );
  }
  return compose(
    f.merchant,
    `Your payment to ${f.merchant} failed`,
    f.customerName,
    [
      `We could not take your payment of ${f.amount} for your subscription with ${f.merchant}. We will try again in a few days.`,
      ...(f.reason ? [`The reason given: ${f.reason}`] : []),
      "To keep your subscription, pay now with another card or update your payment method:",
      ...(f.link ? ([{ link: f.link, label: "Update payment method" }] as Block[]) : []),
    ],
    f,
  );
}

export function trialEndingEmail(
  f: Branding & {
    merchant: string;
    customerName: string | null;
    endsOn: string;
    link: string | null;
  },
): EmailContent {
  return compose(
    f.merchant,
    `Your trial with ${f.merchant} ends on ${f.endsOn}`,
    f.customerName,
    [
      `Your free trial ends on ${f.endsOn}. Your subscription then continues and your payment method is charged.`,
      "To change or cancel your subscription before then:",
      ...(f.link ? ([{ link: f.link, label: "Manage subscription" }] as Block[]) : []),
    ],
    f,
  );
}

export function subscriptionCanceledEmail(
  f: Branding & { merchant: string; customerName: string | null },
): EmailContent {
  return compose(
    f.merchant,
    `Your subscription with ${f.merchant} was canceled`,
    f.customerName,
    [
      `Your subscription with ${f.merchant} has been canceled: you will not be charged for it again.`,
      "If this is a mistake, reply to this email.",
    ],
    f,
  );
}

export function portalLinkEmail(
  f: Branding & { merchant: string; customerName: string | null; link: string },
): EmailContent {
  return compose(
    f.merchant,
    `Manage your billing with ${f.merchant}`,
    f.customerName,
    [
      "Here is your link to see your invoices and payments and to manage your subscriptions. It works for 24 hours.",
      { link: f.link, label: "Open billing portal" },
    ],
    f,
  );
}

/** A checkout link sent from the dashboard ("New subscription" → email a checkout link). */
export function checkoutLinkEmail(
  f: Branding & { merchant: string; customerName: string | null; link: string; total: string; recurring: boolean },
): EmailContent {
  return compose(
    f.merchant,
    f.recurring ? `Start your subscription with ${f.merchant}` : `Your payment to ${f.merchant}`,
    f.customerName,
    [
      f.recurring
        ? `${f.merchant} has set up a subscription for you. Pay ${f.total} securely online to start it: your card is then kept for its renewals, until you cancel.`
        : `${f.merchant} asks you to pay ${f.total}. You can pay securely online:`,
      { link: f.link, label: f.recurring ? "Start subscription" : "Pay now" },
    ],
    f,
  );
}

/** The short email of an email notification destination: one per event. */
export function notificationEmail(f: {
  eventType: string;
  description: string;
  entityId: string;
  eventId: string;
  occurredAt: string;
  destination: string;
  dashboardLink: string | null;
}): EmailContent {
  return compose("Billing notifications", `[Billing] ${f.eventType} ${f.entityId}`, null, [
    `${f.description}\n\nEvent: ${f.eventType}\nEntity: ${f.entityId}\nEvent ID: ${f.eventId}\nOccurred at: ${f.occurredAt}`,
    ...(f.dashboardLink ? ([{ link: f.dashboardLink, label: "Open in the dashboard" }] as Block[]) : []),
    `You receive this because the notification destination "${f.destination}" is subscribed to ${f.eventType}.`,
  ]);
}

/** A team invitation (lib/services/team/invites.ts): who invites, to what, with which role, until when. */
export function teamInviteEmail(f: {
  business: string;
  inviter: string | null;
  role: string;
  roleHelp: string;
  link: string;
  expiresOn: string;
  days: number;
  logoUrl?: string | null;
}): EmailContent {
  const who = f.inviter ? `${f.inviter} invited you` : "You are invited";
  return compose(
    f.business,
    `${f.inviter ?? f.business} invited you to the ${f.business} billing dashboard`,
    null,
    [
      `${who} to join the ${f.business} billing dashboard as ${f.role === "admin" || f.role === "owner" ? "an" : "a"} ${f.role} (${f.roleHelp}).`,
      "Open the link to choose your password and sign in:",
      { link: f.link, label: "Accept invitation" },
      `The link works once, for ${f.days} days (until ${f.expiresOn}). If you were not expecting this invitation, ignore this email.`,
    ],
    { logoUrl: f.logoUrl },
  );
}
