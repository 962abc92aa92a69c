/**
 * History in business words: an audit entry or an event said the way a merchant says it ("Issued
 * invoice INV-000001 ($617.85) to Becker Design", "Refunded $100.00 on INV-000001", "Maya Chen
 * joined as admin"), with links to what it names. Pure (no React): the Audit log page and Home's
 * recent activity render the phrase; tests read it as text.
 *
 * Audit entries are said from their `detail` (what lib/services/team/audit-detail.ts kept at record
 * time: the answer's status, invoice number, amount, names...). Entries recorded before that have
 * none: they are said from their action and entity alone ("Updated transaction txn_…"), never as
 * a raw "PATCH /api/…".
 */
import { formatMoney } from "./money.ts";

/** A piece of a phrase: plain text, or text linking to a dashboard page. */
export type PhrasePart = string | { text: string; href: string | null };
export type Phrase = PhrasePart[];

/** The phrase as plain text (titles, tests). */
export function phraseText(phrase: Phrase): string {
  return phrase.map((part) => (typeof part === "string" ? part : part.text)).join("");
}

const PAGES: Record<string, string> = {
  ctm: "/customers",
  txn: "/transactions",
  sub: "/subscriptions",
  pro: "/catalogue/products",
  dsc: "/catalogue/discounts",
  dsg: "/catalogue/discount-groups",
  ntfset: "/notifications/destinations",
  ntf: "/notifications/log",
  eml: "/emails",
};

/** The dashboard page of an entity from its ID's prefix, or null. */
export function pageOf(id: string | null | undefined): string | null {
  if (!id) return null;
  const [prefix = ""] = id.split("_");
  const base = PAGES[prefix];
  return base ? `${base}/${id}` : null;
}

const link = (text: string, id: string | null | undefined): PhrasePart => ({ text, href: pageOf(id) });

type Detail = Record<string, string | string[] | undefined>;

/** Reads a detail field as a string ("" when absent). */
function str(detail: Detail, key: string): string {
  const value = detail[key];
  return typeof value === "string" ? value : "";
}

function money(amount: string, currency: string): string | null {
  return amount && currency ? formatMoney(amount.replace(/^-/, ""), currency) : null;
}

const ROLE_WORDS: Record<string, string> = { owner: "owner", admin: "admin", developer: "developer", viewer: "viewer" };

/** "archived" when a PATCH set status archived, "restored" when it set active. */
function archiving(detail: Detail): "Archived" | "Restored" | null {
  const fields = Array.isArray(detail.fields) ? detail.fields : [];
  if (!fields.includes("status")) return null;
  if (detail.status === "archived") return "Archived";
  if (detail.status === "active" && fields.length === 1) return "Restored";
  return null;
}

/** "(name, email)": the fields a change set, in words; "" when none are known. */
function changed(detail: Detail): string {
  const fields = Array.isArray(detail.fields) ? detail.fields.filter((f) => f !== "status") : [];
  if (fields.length === 0) return "";
  const words = fields.slice(0, 4).map((f) => f.replace(/_/g, " "));
  return ` (${words.join(", ")}${fields.length > 4 ? ", …" : ""})`;
}

/** An audit entry as the API answers it (GET /audit-log). */
export interface AuditEntryLike {
  action: string;
  entity_id: string | null;
  actor_label: string | null;
  detail?: Detail | null;
}

const ID_SEGMENT = /^[a-z]+_[a-z0-9]{26}$/;

/** "PATCH /api/transactions/txn_…/mark-paid" → "PATCH transactions/txn/mark-paid". */
function routeKey(action: string): { key: string; path: string[] } | null {
  const [, method, rest] = /^(POST|PATCH|PUT|DELETE) \/api\/(.+?)\/?$/.exec(action) ?? [];
  if (!method || !rest) return null;
  const path = rest.split("/");
  const pattern = path.map((s) => (ID_SEGMENT.test(s) ? s.split("_")[0] : /^[A-Z]{2}$/.test(s) ? "CC" : s));
  return { key: `${method} ${pattern.join("/")}`, path };
}

function singular(words: string): string {
  if (words.endsWith("ies")) return `${words.slice(0, -3)}y`;
  if (words.endsWith("sses")) return words.slice(0, -2);
  return words.endsWith("s") ? words.slice(0, -1) : words;
}

/** Entries without a detail (older ones) or of a route not listed: "Updated transaction", never the raw request. */
function fallback(entry: AuditEntryLike): Phrase {
  const route = routeKey(entry.action);
  if (!route) return [entry.action.replace(/_/g, " ")];
  const [method = ""] = entry.action.split(" ");
  const segments = route.path.filter((s) => !ID_SEGMENT.test(s) && !/^[A-Z]{2}$/.test(s));
  const last = segments.at(-1) ?? "";
  const verb = { POST: "Created", PATCH: "Updated", PUT: "Set", DELETE: "Deleted" }[method] ?? "Changed";
  const previous = route.path.at(-2) ?? "";
  let words: string;
  if (method === "POST" && ID_SEGMENT.test(previous) && !last.endsWith("s")) {
    // An action on an entity: …/sub_…/cancel → "Cancel subscription".
    const noun = singular(segments.at(-2) ?? "").replace(/-/g, " ");
    words = `${last.charAt(0).toUpperCase()}${last.slice(1).replace(/-/g, " ")} on ${noun}`;
  } else words = `${verb} ${singular(last).replace(/-/g, " ")}`;
  return entry.entity_id ? [`${words} `, link(entry.entity_id, entry.entity_id)] : [words];
}

/** An audit entry in words. */
export function describeAudit(entry: AuditEntryLike): Phrase {
  if (entry.action === "sign_in") return ["Signed in"];
  if (entry.action === "sign_in_failed") return ["Failed to sign in"];
  const d: Detail = entry.detail ?? {};
  if (entry.action === "POST /api/team/invites/accept") {
    const who = str(d, "name") || str(d, "email") || entry.actor_label || "Someone";
    const role = ROLE_WORDS[str(d, "role")];
    return [{ text: who, href: "/team" }, role ? ` joined as ${role}` : " joined the team"];
  }
  const route = routeKey(entry.action);
  if (!route || !entry.detail) return fallback(entry);
  const id = entry.entity_id;
  const customerId = str(d, "customer_id") || null;
  const whoName = str(d, "business_name") || str(d, "customer_name");
  const who: PhrasePart[] = whoName ? [link(whoName, customerId)] : [];
  const to = who.length ? [" to ", ...who] : [];
  const forWho = who.length ? [" for ", ...who] : [];
  const amount = money(str(d, "amount"), str(d, "currency_code"));
  const invoice = str(d, "invoice_number");
  const name = str(d, "name");
  const invoiceRef = (txn: string | null): PhrasePart => link(invoice ? invoice : "a transaction", txn);
  const amountText = amount ? ` (${amount})` : "";
  const archived = archiving(d);

  switch (route.key) {
    case "POST transactions":
      if (str(d, "status") === "billed") return ["Issued invoice ", invoiceRef(id), amountText, ...to];
      return ["Created ", link(amount ? `a transaction of ${amount}` : "a transaction", id), ...forWho];
    case "PATCH transactions/txn": {
      const requested = str(d, "requested_status");
      if (requested === "billed") return ["Issued invoice ", invoiceRef(id), amountText, ...to];
      if (requested === "canceled") {
        return [
          invoice ? "Canceled invoice " : "Canceled ",
          invoice ? invoiceRef(id) : link("a transaction", id),
          ...forWho,
        ];
      }
      return ["Updated ", invoice ? invoiceRef(id) : link("a transaction", id), ...forWho, changed(d)];
    }
    case "POST transactions/txn/mark-paid":
      return ["Marked invoice ", invoiceRef(id), amountText, " paid", who.length ? [" by ", ...who] : []].flat();
    case "POST transactions/txn/revise":
      return ["Revised the customer details on ", invoiceRef(id)];
    case "POST adjustments": {
      const txn = str(d, "transaction_id") || null;
      const action = str(d, "action");
      const on = [" on ", link(invoice || "a transaction", txn)];
      const sum = amount ?? "";
      if (action === "refund") return [sum ? `Refunded ${sum}` : "Refunded", ...on];
      if (action === "credit") return [sum ? `Credited ${sum}` : "Credited", ...on];
      return [
        `${action ? action.charAt(0).toUpperCase() + action.slice(1).replace(/_/g, " ") : "Adjusted"} ${sum}`.trim(),
        ...on,
      ];
    }
    case "POST subscriptions/sub/cancel":
      return str(d, "scheduled_change") === "cancel"
        ? ["Scheduled ", ...possessive(who), link("subscription", id), " to cancel at the end of its period"]
        : ["Canceled ", ...possessive(who), link("subscription", id)];
    case "POST subscriptions/sub/pause":
      return str(d, "scheduled_change") === "pause"
        ? ["Scheduled ", ...possessive(who), link("subscription", id), " to pause at the end of its period"]
        : ["Paused ", ...possessive(who), link("subscription", id)];
    case "POST subscriptions/sub/resume":
      return ["Resumed ", ...possessive(who), link("subscription", id)];
    case "POST subscriptions/sub/activate":
      return ["Activated ", ...possessive(who), link("subscription", id)];
    case "POST subscriptions/sub/charge":
      return ["Charged ", ...possessive(who), link("subscription", id), " for one-time items"];
    case "POST subscriptions/sub/test-clock/advance":
      return ["Moved the test clock of ", ...possessive(who), link("subscription", id)];
    case "PATCH subscriptions/sub":
      return ["Changed ", ...possessive(who), link("subscription", id), changed(d)];
    case "POST customers":
      return ["Added customer ", link(name || str(d, "email") || "(no name)", id)];
    case "PATCH customers/ctm":
      return [
        archived ? `${archived} customer ` : "Updated customer ",
        link(name || str(d, "email") || "(no name)", id),
        archived ? "" : changed(d),
      ];
    case "POST customers/ctm/addresses":
      return ["Added an address", ...forWho];
    case "PATCH customers/ctm/addresses/add":
      return [archived ? `${archived} an address` : "Updated an address", ...(who.length ? [" of ", ...who] : [])];
    case "POST customers/ctm/businesses":
      return [
        "Added business ",
        link(name || "(no name)", customerId),
        ...(str(d, "customer_name") ? [" for ", link(str(d, "customer_name"), customerId)] : []),
      ];
    case "PATCH customers/ctm/businesses/biz":
      return [
        archived ? `${archived} business ` : "Updated business ",
        link(name || "(no name)", customerId),
        archived ? "" : changed(d),
      ];
    case "DELETE customers/ctm/payment-methods/paymtd":
      return ["Removed a saved payment method", ...(who.length ? [" of ", ...who] : [])];
    case "POST customers/ctm/portal-link-email":
      return ["Emailed a portal link", ...to];
    case "POST customers/ctm/portal-sessions":
      return ["Opened a portal session", ...forWho];
    case "POST customers/ctm/auth-token":
      return ["Made a checkout sign-in token", ...forWho];
    case "POST products":
      return ["Added product ", link(name, id)];
    case "PATCH products/pro":
      return [archived ? `${archived} product ` : "Updated product ", link(name, id), archived ? "" : changed(d)];
    case "POST prices":
    case "PATCH prices/pri": {
      const label = name || str(d, "description") || "a price";
      const product = str(d, "product_id") || null;
      const verb = route.key.startsWith("POST") ? "Added price " : archived ? `${archived} price ` : "Updated price ";
      return [verb, link(label, product), amountText];
    }
    case "POST discounts":
    case "PATCH discounts/dsc": {
      const label = str(d, "code") || str(d, "description") || "a discount";
      const verb = route.key.startsWith("POST")
        ? "Added discount "
        : archived
          ? `${archived} discount `
          : "Updated discount ";
      const size = str(d, "type") === "percentage" && str(d, "amount") ? ` (${str(d, "amount")}%)` : amountText;
      return [verb, link(label, id), size];
    }
    case "POST discount-groups":
      return ["Added discount group ", link(name || "(no name)", id)];
    case "PATCH discount-groups/dsg":
      return [archived ? `${archived} discount group ` : "Updated discount group ", link(name || "(no name)", id)];
    case "POST team/invites":
      return [
        "Invited ",
        { text: str(d, "email") || "someone", href: "/team" },
        ROLE_WORDS[str(d, "role")] ? ` as ${str(d, "role")}` : "",
      ];
    case "DELETE team/invites/usrinv":
      return ["Withdrew an invitation to the team"];
    case "PATCH team/members/usr":
      return [
        "Made ",
        { text: str(d, "name") || str(d, "email") || "a member", href: "/team" },
        ROLE_WORDS[str(d, "role")] ? ` ${str(d, "role")}` : " a new role",
      ];
    case "DELETE team/members/usr":
      return ["Removed a member from the team"];
    case "POST api-keys":
      return ["Created API key ", { text: name || "(no name)", href: "/developers" }];
    case "PATCH api-keys/apikey":
      return [
        str(d, "status") === "revoked" ? "Revoked API key " : "Updated API key ",
        { text: name || "(no name)", href: "/developers" },
      ];
    case "POST client-tokens":
      return ["Created client-side token ", { text: name || "(no name)", href: "/developers" }];
    case "PATCH client-tokens/ctkn":
      return [
        str(d, "status") === "revoked" ? "Revoked client-side token " : "Updated client-side token ",
        { text: name || "(no name)", href: "/developers" },
      ];
    case "POST notification-settings":
      return ["Added webhook destination ", link(str(d, "description") || "(no description)", id)];
    case "PATCH notification-settings/ntfset":
      return ["Updated webhook destination ", link(str(d, "description") || "(no description)", id), changed(d)];
    case "DELETE notification-settings/ntfset":
      return ["Deleted a webhook destination"];
    case "POST notifications/ntf/replay":
      return ["Replayed ", link("a webhook notification", id)];
    case "POST emails/eml/resend":
      return ["Resent ", link("an email", id)];
    case "PATCH account-settings":
      return ["Changed the account settings", changed(d)];
    case "PUT account-settings/logo":
    case "POST account-settings/logo":
      return ["Changed the logo"];
    case "DELETE account-settings/logo":
      return ["Removed the logo"];
    case "PATCH payment-settings":
    case "PUT payment-settings":
      return ["Changed the payment settings", changed(d)];
    case "DELETE payment-settings":
      return ["Disconnected the payment processor"];
    case "POST payment-settings/test":
      return ["Tested the connection to the payment processor"];
    case "POST reports":
      return [`Requested a ${str(d, "type").replace(/_/g, " ") || ""} report`.replace("  ", " ")];
    case "PUT tax-rates/CC":
      return [`Set the tax rate for ${route.path.at(-1)}`];
    case "DELETE tax-rates/CC":
      return [`Removed the tax rate for ${route.path.at(-1)}`];
    default:
      return fallback(entry);
  }
}

/** "Becker Design's " before a noun, or nothing. */
function possessive(who: PhrasePart[]): PhrasePart[] {
  return who.length ? [...who, "’s "] : [];
}

// ---------------------------------------------------------------------------------------------
// Events (Home's recent activity)

/** The names an event's words need, looked up once for a page of events. */
export interface ActivityNames {
  /** customer ID → its name (or email). */
  customers: Map<string, string>;
  /** business ID → its name. */
  businesses: Map<string, string>;
  /** transaction ID → its invoice number. */
  invoices: Map<string, string>;
}

export interface EventLike {
  event_type: string;
  data?: Record<string, any> | null;
}

function eventWho(data: Record<string, any>, names: ActivityNames): PhrasePart[] {
  const business = typeof data.business_id === "string" ? names.businesses.get(data.business_id) : undefined;
  const customer = typeof data.customer_id === "string" ? names.customers.get(data.customer_id) : undefined;
  const text = business ?? customer;
  return text ? [link(text, data.customer_id)] : [];
}

/** An event in words, or null when it has no words of its own (the caller shows its plain name). */
export function describeEvent(event: EventLike, names: ActivityNames): Phrase | null {
  const data = event.data ?? {};
  const id = typeof data.id === "string" ? data.id : null;
  const who = eventWho(data, names);
  const transactionAmount = money(String(data.details?.totals?.grand_total ?? ""), String(data.currency_code ?? ""));
  const invoice = typeof data.invoice_number === "string" ? data.invoice_number : null;
  const invoiceRef = link(invoice ?? "a transaction", id);
  const amountText = transactionAmount ? ` (${transactionAmount})` : "";
  const forWho = who.length ? [" for ", ...who] : [];
  switch (event.event_type) {
    case "transaction.billed":
      return ["Issued invoice ", invoiceRef, amountText, ...(who.length ? [" to ", ...who] : [])];
    case "transaction.created":
      return ["New ", link(transactionAmount ? `transaction of ${transactionAmount}` : "transaction", id), ...forWho];
    case "transaction.ready":
      return [
        link(transactionAmount ? `Transaction of ${transactionAmount}` : "Transaction", id),
        " ready to pay",
        ...forWho,
      ];
    case "transaction.updated":
      return ["Updated ", invoice ? invoiceRef : link("a transaction", id), amountText, ...forWho];
    case "transaction.paid":
      return [
        `Received ${transactionAmount ?? "a payment"}`,
        ...(who.length ? [" from ", ...who] : []),
        " for ",
        invoiceRef,
      ];
    case "transaction.completed":
      return ["Completed ", invoiceRef, amountText, ...forWho];
    case "transaction.payment_failed":
      return [
        link(`A payment${transactionAmount ? ` of ${transactionAmount}` : ""}`, id),
        " failed",
        ...(who.length ? [" for ", ...who] : []),
      ];
    case "transaction.past_due":
      return ["Invoice ", invoiceRef, amountText, ...(who.length ? [" to ", ...who] : []), " is past due"];
    case "transaction.canceled":
      return ["Canceled ", invoiceRef, ...(who.length ? [" for ", ...who] : [])];
    case "adjustment.created":
    case "adjustment.updated": {
      const txn = typeof data.transaction_id === "string" ? data.transaction_id : null;
      const on = [" on ", link((txn && names.invoices.get(txn)) || "a transaction", txn)];
      const sum = money(String(data.totals?.total ?? ""), String(data.currency_code ?? "")) ?? "";
      const noun = data.action === "credit" ? "Credit" : data.action === "refund" ? "Refund" : "Adjustment";
      const done = data.action === "credit" ? "Credited" : data.action === "refund" ? "Refunded" : "Adjusted";
      if (data.status === "approved") return [`${done} ${sum}`.trimEnd(), ...on];
      if (data.status === "rejected") return [`${noun} of ${sum} rejected`, ...on];
      return [`${noun} of ${sum} requested`, ...on];
    }
    case "subscription.created":
      return who.length ? [...who, " ", link("subscribed", id)] : ["New ", link("subscription", id)];
    case "subscription.trialing":
      return who.length ? [...who, " started a ", link("trial", id)] : ["A ", link("trial", id), " started"];
    case "subscription.activated":
      return [...possessive(who), link(who.length ? "subscription" : "Subscription", id), " started"];
    case "subscription.canceled":
      return [...possessive(who), link(who.length ? "subscription" : "Subscription", id), " was canceled"];
    case "subscription.paused":
      return [...possessive(who), link(who.length ? "subscription" : "Subscription", id), " was paused"];
    case "subscription.resumed":
      return [...possessive(who), link(who.length ? "subscription" : "Subscription", id), " was resumed"];
    case "subscription.past_due":
      return [...possessive(who), link(who.length ? "subscription" : "Subscription", id), " is past due"];
    case "customer.created":
      return ["New customer ", link(String(data.name || data.email || "(no name)"), id)];
    case "business.created":
      return ["New business ", link(String(data.name || "(no name)"), data.customer_id)];
    case "product.created":
      return ["Added product ", link(String(data.name || "(no name)"), id)];
    case "payment_method.saved":
      return who.length ? [...who, " saved a payment method"] : null;
    default:
      return null;
  }
}

/** The IDs whose names a page of events needs. */
export function namesNeeded(events: readonly EventLike[]): { transactions: string[]; customers: string[] } {
  const transactions = new Set<string>();
  const customers = new Set<string>();
  for (const event of events) {
    const data = event.data ?? {};
    if (event.event_type.startsWith("transaction.") && typeof data.id === "string") transactions.add(data.id);
    if (event.event_type.startsWith("adjustment.") && typeof data.transaction_id === "string") {
      transactions.add(data.transaction_id);
    }
    if (typeof data.customer_id === "string") customers.add(data.customer_id);
  }
  return { transactions: [...transactions], customers: [...customers] };
}
