"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/button";
import { CopyButton } from "@/components/copy-button";
import type { Column } from "@/components/data-table";
import {
  ACTIVE_ARCHIVED_OPTIONS,
  createdColumn,
  ListFilters,
  PagedTable,
  PanelSection,
  PER_PAGE,
  useListFilters,
  usePanel,
} from "@/components/list-page";
import { PageHeader } from "@/components/page-header";
import type { PriceLine } from "@/components/price-lines";
import { RowActions, useRowArchive } from "@/components/row-actions";
import { EmptyState } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { useToast } from "@/components/toast";
import { useList } from "@/lib/dashboard/hooks";
import {
  type PaymentLink,
  type PriceWithProduct,
  useLinkedPrices,
  usePaymentLinks,
  useUpdatePaymentLink,
} from "@/lib/dashboard/payment-links";
import { Allowed } from "@/lib/dashboard/permissions";
import { LinkCard } from "./link-card";
import { PaymentLinkForm } from "./payment-link-form";

/** What a link sells, in words: "Pro plan × 2, Setup fee". */
function itemsText(link: PaymentLink, prices: Map<string, PriceWithProduct>): string {
  return link.items
    .map((item) => {
      const price = prices.get(item.price_id);
      const name = price ? `${price.product?.name ?? ""} ${price.name ?? price.description}`.trim() : item.price_id;
      return item.quantity === 1 ? name : `${name} × ${item.quantity}`;
    })
    .join(", ");
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** `?new=pri_…` (from a price's row on its product page): the create panel, started with that price. */
function usePrefill(): { priceId: string | null; lines: PriceLine[] | null } {
  const priceId = useSearchParams().get("new");
  const valid = priceId && /^pri_[a-z0-9]{26}$/.test(priceId) ? priceId : null;
  const prices = useList<PriceWithProduct>(
    ["prices", "prefill"],
    "/prices",
    { id: valid ?? undefined, include: "product" },
    valid !== null,
  );
  const price = valid ? (prices.data?.data[0] as PriceWithProduct | undefined) : undefined;
  if (!valid) return { priceId: null, lines: null };
  return {
    priceId: valid,
    lines: price
      ? [{ price, productName: price.product?.name ?? "", quantity: String(price.quantity.minimum || 1) }]
      : null,
  };
}

export function PaymentLinksView() {
  const { status, setStatus, orderBy, order, pagination } = useListFilters();
  const panel = usePanel();
  const [shown, setShown] = useState<{ link: PaymentLink; title: string } | null>(null);
  const listParams = { status, after: pagination.after, per_page: PER_PAGE, order_by: orderBy };
  const list = usePaymentLinks(listParams);
  const links = list.data?.data ?? [];
  const linked = useLinkedPrices(links.flatMap((link) => link.items.map((item) => item.price_id)));
  const prices = new Map((linked.data?.data ?? []).map((price) => [price.id, price]));
  const prefill = usePrefill();
  const toast = useToast();
  const { setEditing } = panel;

  // Opened from a price's row: the create panel, once that price has loaded (once per price).
  const prefilled = useRef<string | null>(null);
  const ready = prefill.lines !== null;
  useEffect(() => {
    if (prefill.priceId && ready && prefilled.current !== prefill.priceId) {
      prefilled.current = prefill.priceId;
      setEditing("new");
    }
  }, [prefill.priceId, ready, setEditing]);

  const rows = useRowArchive<PaymentLink>({
    statusChange: useUpdatePaymentLink(),
    archived: () => "Payment link archived: it no longer opens a checkout.",
    restored: () => "Payment link active again.",
    restoreFailed: "Could not make the link active again.",
    title: "Archive this payment link?",
    confirmLabel: "Archive link",
    description: (link) => (
      <>
        <strong>{itemsText(link, prices)}</strong>: whoever opens{" "}
        <code className="font-mono text-xs break-all">{link.url}</code> is told the link is no longer active. Checkouts
        it already opened can still be paid. You can make it active again later.
      </>
    ),
  });

  const columns: Column<PaymentLink>[] = [
    {
      key: "items",
      header: "Sells",
      cell: (link) => (
        <div className="max-w-72">
          <p className="font-medium text-slate-900">{itemsText(link, prices)}</p>
          <p className="text-xs text-slate-500">
            {link.reusable ? "Reusable" : link.transaction_id ? "Single use · opened" : "Single use"}
            {link.success_url ? ` · returns to ${host(link.success_url)}` : ""}
          </p>
        </div>
      ),
    },
    {
      key: "url",
      header: "Link",
      cell: (link) => (
        <div className="flex items-center gap-2">
          <code
            title={link.url}
            className={`block max-w-40 truncate font-mono text-xs sm:max-w-72 ${link.status === "archived" ? "text-slate-500 line-through" : "text-slate-700"}`}
          >
            {link.url.replace(/^https?:\/\//, "")}
          </code>
          {link.status === "active" && <CopyButton value={link.url} label={`Copy payment link ${link.id}`} />}
        </div>
      ),
    },
    { key: "status", header: "Status", cell: (link) => <StatusBadge status={link.status} /> },
    createdColumn(),
    {
      key: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right whitespace-nowrap",
      cell: (link) => (
        <div className="flex justify-end gap-1">
          {link.status === "active" && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setShown({ link, title: "Payment link" })}
              aria-label={`Show QR code of ${link.url}`}
            >
              QR code
            </Button>
          )}
          <Allowed permission="payment_link.write" action="change payment links" hide>
            <RowActions
              label={`payment link ${link.id}`}
              archived={link.status !== "active"}
              onArchive={() => rows.archive(link)}
              onRestore={() => rows.restore(link)}
              restoreVerb="Unarchive"
            />
          </Allowed>
        </div>
      ),
    },
  ];

  return (
    <div>
      <PageHeader
        title="Payment links"
        description="A link to a checkout for catalogue prices: send it, post it or print its QR code. Links with recurring prices start subscriptions."
        actions={
          <Allowed permission="payment_link.write" action="create payment links">
            {panel.newButton("New payment link", true, () => setShown(null))}
          </Allowed>
        }
      />

      {panel.editing && (
        <PanelSection id={panel.id} title="New payment link">
          <PaymentLinkForm
            key={prefill.priceId ?? "new"}
            initial={prefill.lines ?? []}
            onCreated={(link) => {
              panel.close();
              pagination.reset();
              setShown({ link, title: "Payment link created" });
              toast.show("Payment link created.");
            }}
            onCancel={panel.close}
          />
        </PanelSection>
      )}

      {shown && <LinkCard link={shown.link} title={shown.title} onDone={() => setShown(null)} />}

      <ListFilters status={status} options={ACTIVE_ARCHIVED_OPTIONS} onStatus={setStatus} />

      <PagedTable
        caption="Payment links"
        columns={columns}
        rowKey={(link) => link.id}
        list={list}
        pagination={pagination}
        order={order}
        empty={
          status === "active" ? (
            <EmptyState
              title="No payment links yet"
              description="Create a link from catalogue prices, or from a price's row on its product page."
              action={
                panel.editing === null && (
                  <Allowed permission="payment_link.write" action="create payment links">
                    {panel.newButton("New payment link", false)}
                  </Allowed>
                )
              }
            />
          ) : (
            <EmptyState title="No payment links with this status" />
          )
        }
      />

      {rows.dialog}
    </div>
  );
}
