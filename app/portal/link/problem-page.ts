/**
 * The pages a public link that does not hold leads to, answered with a status that says so: the
 * customer portal's (here), the hosted invoice's (app/invoices/link/route.ts) and a team
 * invitation's (app/invite/link/route.ts).
 *
 * A Next.js page can answer only 200 or 404 (`forbidden()` and `unauthorized()` need the
 * experimental `authInterrupts` of next.config.js, and give no 410), so these pages are plain HTML
 * written by route handlers: self-contained, with their own small stylesheet in the look of the
 * public pages (Tailwind's slate scale), in the merchant's name, saying what to do next. Every
 * value in them is escaped. The page that has the problem redirects there (which also takes a
 * link's secret out of the address bar).
 *
 * The portal's statuses (decided here), as the document links' (403 `document_link_invalid`, 410
 * `document_link_expired`):
 *
 *   expired   410 Gone        the link was good and its 24 hours are over: it will not work again
 *   invalid   403 Forbidden   tampered, cut short, any bytes at all, another kind of token, or its
 *                             customer no longer exists: refused, whoever asks
 *   missing   403 Forbidden   no token and no portal cookie (a plain management URL opened as it
 *                             is, a bookmark of a portal page): nothing to let the browser in with
 *
 * Not 401: it must come with a `WWW-Authenticate` challenge, and a customer has no credentials to
 * offer; only a new link from the merchant lets them in.
 */
import { getAccountSettings } from "@/lib/services/account-settings";
import { escapeHtml } from "@/lib/services/emails/templates";

/** The merchant as the page names them; a neutral name when the settings cannot be read. */
export async function pageMerchant(): Promise<{ name: string; logoUrl: string | null; email: string | null }> {
  try {
    const settings = await getAccountSettings();
    return { name: settings.merchant_name, logoUrl: settings.logo_url, email: settings.merchant_email };
  } catch {
    // The page still says what to do when the database is away.
    return { name: "the merchant", logoUrl: null, email: null };
  }
}

export interface ProblemPage {
  status: number;
  /** The heading (h1) and the document's title. */
  title: string;
  /** The paragraphs under the heading, as HTML: the caller escapes what it puts in. */
  paragraphs: string[];
  /** A header bar with the merchant's logo and name, the tagline on its right, and a footer line. */
  merchant?: { name: string; logoUrl: string | null; tagline: string; footer?: string };
  /** The first paragraph is announced (role=alert), as the pages' error notices are. */
  alert?: boolean;
  /** A link under the text. */
  action?: { href: string; label: string };
  /** `data-testid` of the box. */
  testId?: string;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#f1f5f9;color:#0f172a;
font-family:ui-sans-serif,system-ui,sans-serif,"Apple Color Emoji","Segoe UI Emoji";line-height:1.5}
header{border-bottom:1px solid #e2e8f0;background:#fff}
.bar{margin:0 auto;max-width:56rem;padding:1rem;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.25rem 1rem}
.brand{display:flex;align-items:center;gap:.75rem}
.brand img{display:block;max-height:2.5rem;max-width:10rem;height:auto;width:auto;object-fit:contain}
.merchant{margin:0;font-size:1.125rem;font-weight:600}
.tagline{margin:0;font-size:.875rem;color:#475569}
main{margin:0 auto;width:100%;max-width:56rem;flex:1;padding:2rem 1rem}
section{margin:0 auto;max-width:36rem;border:1px solid #e2e8f0;border-radius:.5rem;background:#fff;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0/.05)}
h1{margin:0;font-size:1.25rem;font-weight:600}
section p{margin:.75rem 0 0;font-size:.875rem;line-height:1.5rem;color:#334155}
section p+p{color:#475569}
a{color:#1d4ed8}
.action{display:inline-block;margin-top:1rem;font-size:.875rem;font-weight:500}
footer{margin:0 auto;width:100%;max-width:56rem;padding:0 1rem 2rem;font-size:.75rem;color:#475569}
`;

/** The whole page. */
export function problemPageHtml(page: ProblemPage): string {
  const { merchant } = page;
  const logo = merchant?.logoUrl
    ? `<img src="${escapeHtml(merchant.logoUrl)}" alt="" data-testid="merchant-logo">`
    : "";
  const header = merchant
    ? `<header><div class="bar">
<div class="brand">${logo}<p class="merchant" data-testid="portal-merchant">${escapeHtml(merchant.name)}</p></div>
<p class="tagline">${escapeHtml(merchant.tagline)}</p>
</div></header>`
    : "";
  const paragraphs = page.paragraphs
    .map((html, i) => (i === 0 && page.alert ? `<p role="alert">${html}</p>` : `<p>${html}</p>`))
    .join("\n");
  const action = page.action
    ? `\n<a class="action" href="${escapeHtml(page.action.href)}">${escapeHtml(page.action.label)}</a>`
    : "";
  const footer = merchant?.footer ? `<footer>${escapeHtml(merchant.footer)}</footer>` : "";
  const testId = page.testId ? ` data-testid="${escapeHtml(page.testId)}"` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)} · Billing</title>
<style>${STYLE}</style>
</head>
<body>
${header}
<main>
<section aria-labelledby="problem-heading"${testId}>
<h1 id="problem-heading">${escapeHtml(page.title)}</h1>
${paragraphs}${action}
</section>
</main>
${footer}
</body>
</html>
`;
}

/** The page as a response: never cached, never indexed, sent with no referrer. */
export function problemPageResponse(page: ProblemPage): Response {
  return new Response(problemPageHtml(page), {
    status: page.status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-robots-tag": "noindex, nofollow",
    },
  });
}

export type LinkProblem = "missing" | "invalid" | "expired";

export const LINK_PROBLEM_STATUS: Record<LinkProblem, 403 | 410> = {
  missing: 403,
  invalid: 403,
  expired: 410,
};

const PROBLEMS: Record<LinkProblem, { title: string; text: string; after: string }> = {
  missing: {
    title: "Open this page from your account",
    text: "To keep your billing details private, this page opens only from a secure link. Go to your account in the app of",
    after: "or use the billing link in their latest email, and open it from there.",
  },
  expired: {
    title: "This link has expired",
    text: "Secure billing links are valid for 24 hours. Go back to your account in the app of",
    after: "or to their latest email, and open the billing link again to get a new one.",
  },
  invalid: {
    title: "This link is not valid",
    text: "The link may have been cut short or changed when it was copied. Open it again from the app of",
    after: "or from their email, exactly as it was sent.",
  },
};

/** `reason` of the query string, anything unknown being an invalid link. */
export function linkProblem(reason: string | null): LinkProblem {
  return reason === "expired" || reason === "missing" ? reason : "invalid";
}

/** The portal's page for `problem`, in the merchant's name. */
export async function portalProblemResponse(problem: LinkProblem): Promise<Response> {
  const merchant = await pageMerchant();
  const name = escapeHtml(merchant.name);
  const { title, text, after } = PROBLEMS[problem];
  const contact = merchant.email
    ? `contact ${name} at <a href="mailto:${escapeHtml(merchant.email)}">${escapeHtml(merchant.email)}</a>`
    : `contact ${name}`;
  return problemPageResponse({
    status: LINK_PROBLEM_STATUS[problem],
    title,
    paragraphs: [
      `${escapeHtml(text)} <strong>${name}</strong>, ${escapeHtml(after)}`,
      `Nothing about your subscriptions or payments has changed. If you keep seeing this page, ${contact}.`,
    ],
    merchant: {
      name: merchant.name,
      logoUrl: merchant.logoUrl,
      tagline: "Billing and subscriptions",
      footer: `A secure page for the customers of ${merchant.name}. Do not share its address: it opens your billing details.`,
    },
    testId: `portal-${problem}`,
  });
}
