"use client";

import Link from "next/link";
import type { Column } from "@/components/data-table";
import { DateRange } from "@/components/date-range";
import { ExportLink } from "@/components/export-link";
import { createdColumn, DateCell, PagedTable, PER_PAGE, useListFilters } from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/states";
import { StatusFilter } from "@/components/status-filter";
import { useCatalogue } from "@/lib/dashboard/catalogue";
import { humanize } from "@/lib/dashboard/display";
import { billingCycleText } from "@/lib/dashboard/money";
import { partyName, subscriptionAmountText } from "@/lib/dashboard/names";
import {
  SCHEDULED_CHANGE_ACTIONS,
  SUBSCRIPTION_STATUSES,
  type Subscription,
  useStatusCounts,
  useSubscriptions,
} from "@/lib/dashboard/subscriptions";
import {
  COLLECTION_MODE_OPTIONS,
  startOfDayIso,
  startOfNextDayIso,
  useCustomerMatch,
} from "@/lib/dashboard/transactions";
import { itemsSummary, SubscriptionStatusBadge, scheduledChangeText, subscriptionPath } from "./subscription-parts";

const SCHEDULED_OPTIONS = [
  { value: "", label: "Any or none" },
  { value: SCHEDULED_CHANGE_ACTIONS.join(","), label: "Any scheduled change" },
  ...SCHEDULED_CHANGE_ACTIONS.map((action) => ({ value: action, label: `Scheduled ${action}` })),
];

const dash = <span className="text-slate-500">—</span>;

const COLUMNS: Column<Subscription>[] = [
  {
    key: "customer",
    header: "Customer",
    cell: (s) => {
      const customer = s.customer;
      const party = partyName({ customer, business: s.business }, s.customer_id);
      return (
        <div className="flex flex-col">
          <Link href={subscriptionPath(s.id)} className="font-medium text-brand-700 hover:underline">
            {customer ? party.name : <span className="font-mono text-xs">{s.customer_id}</span>}
            <span className="sr-only"> subscription</span>
          </Link>
          <Link href={`/customers/${s.customer_id}`} className="text-xs text-slate-500 hover:underline">
            {party.secondary ?? (
              <>
                Customer <span className="sr-only">{party.name}</span>
                <span className="font-mono" aria-hidden="true">
                  {s.customer_id.slice(0, 12)}…
                </span>
              </>
            )}
          </Link>
        </div>
      );
    },
  },
  {
    key: "status",
    header: "Status",
    cell: (s) => (
      <div className="flex flex-col items-start gap-1">
        <SubscriptionStatusBadge status={s.status} />
        {s.scheduled_change && (
          <span className="text-xs whitespace-nowrap text-amber-800">{scheduledChangeText(s.scheduled_change)}</span>
        )}
      </div>
    ),
  },
  {
    key: "items",
    header: "Items",
    cell: (s) => (
      <div className="flex flex-col">
        <span>{itemsSummary(s)}</span>
        <span className="text-xs whitespace-nowrap text-slate-500">
          {subscriptionAmountText(s) ?? billingCycleText(s.billing_cycle)}
        </span>
      </div>
    ),
  },
  {
    key: "next",
    header: "Next billing",
    className: "whitespace-nowrap",
    cell: (s) =>
      s.scheduled_change && s.scheduled_change.action !== "resume" ? (
        <span className="text-amber-800">
          {s.scheduled_change.action === "cancel" ? "Cancels" : "Pauses"}{" "}
          <DateCell value={s.scheduled_change.effective_at} />
        </span>
      ) : s.next_billed_at ? (
        <DateCell value={s.next_billed_at} />
      ) : (
        dash
      ),
  },
  { key: "mode", header: "Collection", cell: (s) => humanize(s.collection_mode) },
  createdColumn(),
];

/**
 * A price filter's value: "pro_…" (every price of a product) or "pri_…" (one price), turned into
 * the list's `price_id` (the API filters by price; a product is its prices).
 */
function usePriceFilter() {
  const catalogue = useCatalogue("active,archived");
  const products = (catalogue.data?.pages ?? []).flatMap((page) => page.data);
  const options = [{ value: "", label: "All" }];
  const priceIds = new Map<string, string>();
  for (const product of products) {
    const recurring = (product.prices ?? []).filter((price) => price.billing_cycle);
    if (recurring.length === 0) continue;
    options.push({ value: product.id, label: product.name });
    priceIds.set(product.id, recurring.map((price) => price.id).join(","));
    for (const price of recurring) {
      options.push({ value: price.id, label: `\u00a0\u00a0${product.name} · ${price.description}` });
      priceIds.set(price.id, price.id);
    }
  }
  return { options, priceIds, loading: catalogue.isLoading };
}

export function SubscriptionsView() {
  const {
    search: customer,
    setSearch: setCustomer,
    status,
    setStatus,
    orderBy,
    order,
    params,
    setFilters,
    pagination,
  } = useListFilters("");
  const filters = {
    mode: params.get("collection_mode") ?? "",
    scheduled: params.get("scheduled") ?? "",
    price: params.get("price") ?? "",
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
  };
  const setFilter = (change: Partial<typeof filters>) => {
    const keyOf = { mode: "collection_mode", scheduled: "scheduled", price: "price", from: "from", to: "to" } as const;
    setFilters(
      Object.fromEntries(Object.entries(change).map(([k, v]) => [keyOf[k as keyof typeof filters], v || undefined])),
    );
  };
  const prices = usePriceFilter();

  // The customer filter takes an ID, or an email (or part of one, or a name): the customers that
  // match it (GET /customers?search=, at most a page of them) and then their subscriptions.
  const { customerId, searching, noMatches: noCustomerMatches } = useCustomerMatch(customer);
  const unknownProduct = filters.price !== "" && !prices.priceIds.has(filters.price) && !prices.loading;

  const shared = {
    customer_id: customerId,
    collection_mode: filters.mode,
    scheduled_change_action: filters.scheduled,
    price_id: prices.priceIds.get(filters.price),
    "next_billed_at[GTE]": filters.from ? startOfDayIso(filters.from) : undefined,
    "next_billed_at[LT]": filters.to ? startOfNextDayIso(filters.to) : undefined,
    order_by: orderBy,
  };
  const ready = !searching && !noCustomerMatches && !unknownProduct;
  const listParams = { ...shared, status, after: pagination.after, per_page: PER_PAGE };
  // The names come with the page (the list's include), not a request per row.
  const list = useSubscriptions({ ...listParams, include: "customer,business" }, ready);
  const counts = useStatusCounts(shared, ready);
  const known = Object.values(counts);
  const total = known.length === SUBSCRIPTION_STATUSES.length ? known.reduce((a, b) => a + b, 0) : undefined;
  const filtered = status !== "" || customer !== "" || Object.values(filters).some((value) => value !== "");

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        actions={<ExportLink list="subscriptions" params={listParams} />}
        title="Subscriptions"
        description="Recurring billing of your customers. Subscriptions start when a checkout or an issued invoice with recurring prices is paid; open one to pause, resume, cancel or change it."
      />

      <div className="mb-4 flex flex-col gap-3">
        <fieldset>
          <legend className="sr-only">Status</legend>
          <div className="flex flex-wrap gap-2">
            {[{ value: "", label: "All" }, ...SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: humanize(s) }))].map(
              (option) => {
                const count = option.value ? counts[option.value as keyof typeof counts] : total;
                const selected = status === option.value;
                return (
                  <button
                    key={option.value || "all"}
                    type="button"
                    aria-pressed={selected}
                    onClick={() => setStatus(option.value)}
                    className={`inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm font-medium ${
                      selected
                        ? "border-brand-600 bg-brand-600 text-white"
                        : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
                    }`}
                  >
                    {option.label}
                    {count !== undefined && (
                      <span
                        className={`rounded-full px-1.5 text-xs tabular-nums ${selected ? "bg-white/20" : "bg-slate-100 text-slate-600"}`}
                      >
                        {count}
                        <span className="sr-only"> subscriptions</span>
                      </span>
                    )}
                  </button>
                );
              },
            )}
          </div>
        </fieldset>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
          <SearchInput
            label="Filter by customer ID or email"
            placeholder="Customer ID (ctm_…) or email"
            maxLength={100}
            initialValue={customer}
            onSearch={setCustomer}
          />
          <StatusFilter
            label="Product or price"
            value={filters.price}
            options={prices.options}
            onChange={(price) => setFilter({ price })}
            selectClassName="max-w-[14rem]"
          />
          <StatusFilter
            label="Collection"
            value={filters.mode}
            options={COLLECTION_MODE_OPTIONS}
            onChange={(mode) => setFilter({ mode })}
          />
          <StatusFilter
            label="Scheduled change"
            value={filters.scheduled}
            options={SCHEDULED_OPTIONS}
            onChange={(scheduled) => setFilter({ scheduled })}
          />
          <DateRange label="Next billing" from={filters.from} to={filters.to} onChange={(range) => setFilter(range)} />
        </div>
      </div>

      {noCustomerMatches ? (
        <div role="status" className="rounded-md border border-dashed border-slate-300">
          <EmptyState
            title="No customer matches"
            description={`No customer's email or name contains "${customer}". Enter an email, part of one, or a customer ID.`}
          />
        </div>
      ) : (
        <PagedTable
          caption="Subscriptions"
          columns={COLUMNS}
          rowKey={(s) => s.id}
          list={list}
          pagination={pagination}
          order={order}
          empty={
            filtered ? (
              <EmptyState
                title="No subscriptions match"
                description="Try another status, customer, product, collection mode, scheduled change or date range."
              />
            ) : (
              <EmptyState
                title="No subscriptions yet"
                description="A subscription starts when a customer pays a checkout (or an issued invoice) with recurring prices."
              />
            )
          }
        />
      )}
    </div>
  );
}
