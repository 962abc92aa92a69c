"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { api, type ListResponse, query } from "@/lib/dashboard/api";

const OPEN_EVENT = "billing:open-search";

interface Hit {
  group: string;
  title: string;
  detail: string;
  href: string;
}

type Row = Record<string, unknown> & { id: string };

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * Where to look for a term: an ID goes to its own list (`ctm_`, `txn_`, `sub_`, `pro_`, `dsc_`);
 * a term with a digit and no space or "@" is also tried as an invoice number; every term is
 * searched in customers (email, name), products (name, description), discounts (code, description)
 * and businesses (name, company number, tax ID: the customer's page); four digits also as a card's
 * last 4 (the customer who saved it).
 */
function lookups(term: string): { group: string; path: string; hit: (row: Row) => Hit }[] {
  const customer = (row: Row): Hit => ({
    group: "Customers",
    title: text(row.email),
    detail: text(row.name) || row.id,
    href: `/customers/${row.id}`,
  });
  const transaction = (row: Row): Hit => ({
    group: "Transactions",
    title: text(row.invoice_number) || row.id,
    detail: `${text(row.status)} · ${row.id}`,
    href: `/transactions/${row.id}`,
  });
  const subscription = (row: Row): Hit => ({
    group: "Subscriptions",
    title: row.id,
    detail: text(row.status),
    href: `/subscriptions/${row.id}`,
  });
  const product = (row: Row): Hit => ({
    group: "Products",
    title: text(row.name),
    detail: row.id,
    href: `/catalogue/products/${row.id}`,
  });
  const discount = (row: Row): Hit => ({
    group: "Discounts",
    title: text(row.code) || text(row.description),
    detail: text(row.description) || row.id,
    href: `/catalogue/discounts/${row.id}`,
  });
  const business = (row: Row): Hit => ({
    group: "Businesses",
    title: text(row.name),
    detail: `Business of ${text(row.customer_id)}`,
    href: `/customers/${text(row.customer_id)}`,
  });
  const card = (row: Row): Hit => {
    const details = (row.card ?? {}) as { type?: string; last4?: string; expiry_month?: number; expiry_year?: number };
    return {
      group: "Cards",
      title: `${(details.type ?? "card").replaceAll("_", " ")} ending ${details.last4 ?? ""}`,
      detail: `Expires ${details.expiry_month ?? "?"}/${details.expiry_year ?? "?"} · ${text(row.customer_id)}`,
      href: `/customers/${text(row.customer_id)}`,
    };
  };
  const few = { per_page: 5 };
  const prefix = /^(ctm|txn|sub|pro|dsc)_[a-z0-9]{26}$/.exec(term)?.[1];
  if (prefix === "ctm") return [{ group: "Customers", path: `/customers${query({ id: term })}`, hit: customer }];
  if (prefix === "txn")
    return [{ group: "Transactions", path: `/transactions${query({ id: term })}`, hit: transaction }];
  if (prefix === "sub")
    return [{ group: "Subscriptions", path: `/subscriptions${query({ id: term })}`, hit: subscription }];
  if (prefix === "pro") return [{ group: "Products", path: `/products${query({ id: term })}`, hit: product }];
  if (prefix === "dsc") return [{ group: "Discounts", path: `/discounts${query({ id: term })}`, hit: discount }];
  const all = [
    { group: "Customers", path: `/customers${query({ search: term, ...few })}`, hit: customer },
    { group: "Products", path: `/products${query({ search: term, ...few })}`, hit: product },
    { group: "Discounts", path: `/discounts${query({ search: term, ...few })}`, hit: discount },
    { group: "Businesses", path: `/businesses${query({ search: term, ...few })}`, hit: business },
  ];
  // Four digits: a card's last 4 (the customer who saved it).
  if (/^\d{4}$/.test(term)) {
    all.push({ group: "Cards", path: `/payment-methods${query({ last4: term, ...few })}`, hit: card });
  }
  if (/\d/.test(term) && !/[\s@]/.test(term)) {
    all.unshift({
      group: "Transactions",
      path: `/transactions${query({ invoice_number: term, ...few })}`,
      hit: transaction,
    });
  }
  return all;
}

async function search(term: string): Promise<Hit[]> {
  const found = await Promise.all(
    lookups(term).map(async ({ path, hit }) => {
      try {
        const list = await api<ListResponse<Row>>(path);
        return list.data.map(hit);
      } catch {
        return []; // a list this role may not read, or a term the list refuses: nothing from it
      }
    }),
  );
  return found.flat();
}

/** A button that opens the search (the dialog itself is mounted once, by GlobalSearch). */
export function SearchButton({ className = "" }: { className?: string }) {
  return (
    <button
      type="button"
      onClick={() => window.dispatchEvent(new Event(OPEN_EVENT))}
      className={`flex items-center justify-between gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-50 ${className}`}
    >
      <span>Search…</span>
      <kbd className="rounded border border-slate-300 px-1 text-xs text-slate-600">Ctrl K</kbd>
    </button>
  );
}

/**
 * Ctrl-K (Cmd-K on a Mac) anywhere in the dashboard: find a customer, a transaction (by ID or
 * invoice number), a subscription, a product or a discount, and open it.
 */
export function GlobalSearch() {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const router = useRouter();
  const id = useId();
  const [value, setValue] = useState("");
  const [term, setTerm] = useState("");
  const [active, setActive] = useState(0);

  useEffect(() => {
    const open = () => {
      if (!dialog.current?.open) dialog.current?.showModal();
      input.current?.select();
    };
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        open();
      }
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener(OPEN_EVENT, open);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener(OPEN_EVENT, open);
    };
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => setTerm(value.trim()), 250);
    return () => clearTimeout(timer);
  }, [value]);

  const results = useQuery({
    queryKey: ["global-search", term],
    queryFn: () => search(term),
    enabled: term.length > 0,
    staleTime: 10_000,
  });
  const hits = term ? (results.data ?? []) : [];

  const go = (hit: Hit | undefined) => {
    if (!hit) return;
    dialog.current?.close();
    setValue("");
    router.push(hit.href);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((i) => Math.min(i + 1, hits.length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === "Enter") {
      event.preventDefault();
      go(hits[active]);
    }
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-label`}
      className="mx-auto mt-24 w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-0 shadow-xl backdrop:bg-slate-900/40"
      onClick={(event) => {
        if (event.target === dialog.current) dialog.current?.close();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") dialog.current?.close();
      }}
    >
      <div className="border-b border-slate-200 p-3">
        <label id={`${id}-label`} htmlFor={`${id}-input`} className="sr-only">
          Find customers, transactions, subscriptions, products and discounts
        </label>
        <input
          ref={input}
          id={`${id}-input`}
          type="search"
          role="combobox"
          aria-expanded={hits.length > 0}
          aria-controls={`${id}-results`}
          aria-activedescendant={hits[active] ? `${id}-hit-${active}` : undefined}
          autoComplete="off"
          value={value}
          maxLength={100}
          placeholder="Email, name, invoice number, or an ID (ctm_, txn_, sub_…)"
          onChange={(event) => {
            setValue(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
      </div>
      <div className="max-h-96 overflow-y-auto p-2">
        {term && results.isFetching && hits.length === 0 ? (
          <p role="status" className="p-3 text-sm text-slate-600">
            Searching…
          </p>
        ) : term && !results.isFetching && hits.length === 0 ? (
          <p role="status" className="p-3 text-sm text-slate-600">
            Nothing matches “{term}”.
          </p>
        ) : null}
        <div id={`${id}-results`} role="listbox" aria-label="Results">
          {hits.map((hit, index) => (
            <div
              key={`${hit.group}-${hit.href}`}
              tabIndex={-1}
              id={`${id}-hit-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseEnter={() => setActive(index)}
              onClick={() => go(hit)}
              onKeyDown={() => {}}
              className={`cursor-pointer rounded-md px-3 py-2 text-sm ${index === active ? "bg-brand-50" : ""}`}
            >
              <span className="mr-2 text-xs font-medium uppercase tracking-wide text-slate-600">{hit.group}</span>
              <span className="font-medium text-slate-900">{hit.title}</span>
              <span className="ml-2 text-slate-600">{hit.detail}</span>
            </div>
          ))}
        </div>
      </div>
    </dialog>
  );
}
