/**
 * GET /invoices/link?reason=…: where a hosted invoice link that does not hold leads
 * (app/invoices/[token]/page.tsx), answered with a status that says so (decided here, as the
 * document links' statuses): a signature that does not match (tampered, cut short, any bytes) 403,
 * a link past its expiry 410, a transaction that no longer exists or has no invoice 404. The page
 * is written by app/portal/link/problem-page.ts, which says why it is not a Next.js page.
 */

import { pageMerchant, problemPageResponse } from "@/app/portal/link/problem-page";
import { escapeHtml } from "@/lib/services/emails/templates";

export const dynamic = "force-dynamic";

const PROBLEMS = {
  invalid: {
    status: 403,
    title: "This invoice link is not valid",
    text: "The link was changed or is incomplete. Open it exactly as you received it, or ask the seller for a new one.",
  },
  expired: {
    status: 410,
    title: "This invoice link has expired",
    text: "Ask the seller for a new link to this invoice.",
  },
  not_found: {
    status: 404,
    title: "Invoice not found",
    text: "This invoice no longer exists. Ask the seller for a new link.",
  },
  no_invoice: {
    status: 404,
    title: "No invoice to show",
    text: "This transaction has no invoice. Ask the seller for a new link.",
  },
} as const;

type Problem = keyof typeof PROBLEMS;

export async function GET(request: Request): Promise<Response> {
  const reason = new URL(request.url).searchParams.get("reason");
  const problem = PROBLEMS[reason !== null && Object.hasOwn(PROBLEMS, reason) ? (reason as Problem) : "invalid"];
  const merchant = await pageMerchant();
  const contact = merchant.email
    ? ` The seller is ${escapeHtml(merchant.name)}: <a href="mailto:${escapeHtml(merchant.email)}">${escapeHtml(merchant.email)}</a>.`
    : ` The seller is ${escapeHtml(merchant.name)}.`;
  return problemPageResponse({
    status: problem.status,
    title: problem.title,
    paragraphs: [`${escapeHtml(problem.text)}${contact}`],
    merchant: { name: merchant.name, logoUrl: merchant.logoUrl, tagline: "Invoice" },
    alert: true,
    testId: "invoice-problem",
  });
}
