import Link from "next/link";
import type { ReactNode } from "react";

/** Dashboard pages of entities, by ID prefix. Later areas add theirs here. */
const ENTITY_PAGES: Record<string, (id: string) => string> = {
  ctm: (id) => `/customers/${id}`,
  pro: (id) => `/catalogue/products/${id}`,
  dsc: (id) => `/catalogue/discounts/${id}`,
  ntf: (id) => `/notifications/log/${id}`,
  ntfset: (id) => `/notifications/destinations/${id}`,
  txn: (id) => `/transactions/${id}`,
};

const ENTITY_ID = /\b([a-z]+)_[a-z0-9]{26}\b/g;

/**
 * Text from the API (an error's detail) with the entity IDs in it turned into links to their
 * pages, e.g. "customer email conflicts with customer of id ctm_…".
 */
export function EntityText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(ENTITY_ID)) {
    const page = match[1] === undefined ? undefined : ENTITY_PAGES[match[1]];
    if (!page || match.index === undefined) continue;
    parts.push(text.slice(last, match.index));
    parts.push(
      <Link key={match.index} href={page(match[0])} className="font-mono font-medium underline">
        {match[0]}
      </Link>,
    );
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/** An ID in monospace, for tables and detail lists. */
export function EntityId({ id }: { id: string }) {
  return <code className="font-mono text-xs text-slate-600">{id}</code>;
}
