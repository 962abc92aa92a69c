/**
 * Display helpers for the dashboard. Dates are shown in the viewer's locale and time zone; they
 * render only in the browser (after data has loaded), so server and client never disagree.
 */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatDate(value: string | null | undefined, fallback = "—"): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

export function formatDateTime(value: string | null | undefined, fallback = "—"): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTimeFormat.format(date);
}

/** English country names (the dashboard's language), so server and browser render the same text. */
const countryNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

export function countryName(code: string): string {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** `discount_group` → `Discount group`, `api_key` → `API key`. */
export function humanize(value: string): string {
  const text = value
    .split("_")
    .map((word) => (word === "api" ? "API" : word))
    .join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function pluralize(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `digital-goods` → `Digital goods`, `saas` → `SaaS`. */
export function taxCategoryLabel(category: string): string {
  if (category === "saas") return "SaaS";
  const text = category.replace(/-/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** A date input's value (YYYY-MM-DD, the viewer's time zone) for a timestamp, or "" for none. */
export function dateInputValue(value: string | null | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Today in the viewer's time zone, as YYYY-MM-DD (the `min` of a future date input). */
export function todayInputValue(): string {
  return dateInputValue(new Date().toISOString());
}

/** The last instant of a date (YYYY-MM-DD) in the viewer's time zone, as RFC 3339 in UTC. */
export function endOfDayIso(date: string): string {
  return new Date(`${date}T23:59:59.999`).toISOString();
}

const ENTITY_PAGES = new Map([
  ["ctm", "/customers"],
  ["txn", "/transactions"],
  ["sub", "/subscriptions"],
  ["pro", "/catalogue/products"],
  ["dsc", "/catalogue/discounts"],
]);

/** The dashboard page of an entity, found by its ID's prefix (`ctm_…` → `/customers/ctm_…`); null when it has none. */
export function entityPath(id: string): string | null {
  const underscore = id.indexOf("_");
  const base = underscore > 0 ? ENTITY_PAGES.get(id.slice(0, underscore)) : undefined;
  return base ? `${base}/${id}` : null;
}
