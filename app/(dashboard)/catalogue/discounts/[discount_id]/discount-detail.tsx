"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { CopyButton } from "@/components/copy-button";
import { DescriptionList, JsonBlock } from "@/components/description-list";
import { EntityText } from "@/components/entity-text";
import { PageHeader, Section } from "@/components/page-header";
import { ErrorState, LoadingBlock } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { InlineMessage, useToast } from "@/components/toast";
import { type Discount, useCatalogue, useDiscount, useUpdateDiscount } from "@/lib/client/catalogue";
import { formatDateTime } from "@/lib/client/format";
import { DiscountForm } from "../discount-form";
import {
  catalogueNames,
  DISCOUNT_TYPE_LABELS,
  discountAmountText,
  recurText,
  restrictionName,
  usageText,
} from "../discount-text";

const BACK = { href: "/catalogue/discounts", label: "Discounts" };
const dash = <span className="text-slate-500">—</span>;

export function DiscountDetail({ discountId }: { discountId: string }) {
  const discount = useDiscount(discountId);

  if (discount.isLoading) {
    return (
      <div>
        <PageHeader title="Discount" back={BACK} />
        <div className="rounded-lg border border-slate-200 bg-white p-5">
          <LoadingBlock label="Loading discount…" lines={6} />
        </div>
      </div>
    );
  }
  if (!discount.data) {
    return (
      <div>
        <PageHeader title="Discount" back={BACK} />
        <ErrorState error={discount.error} title="Could not load this discount" onRetry={() => discount.refetch()} />
      </div>
    );
  }
  return (
    <DiscountPage
      key={discount.data.id}
      discount={discount.data}
      reload={async () => (await discount.refetch()).data}
    />
  );
}

function DiscountPage({ discount, reload }: { discount: Discount; reload: () => Promise<Discount | undefined> }) {
  // The edit form works on the discount as it was when editing began (its revision), not on
  // whatever a background refresh brings: a change saved meanwhile is a conflict, not a reset.
  const [editingFrom, setEditingFrom] = useState<Discount | null>(null);
  const editing = editingFrom !== null;
  const setEditing = (on: boolean) => setEditingFrom(on ? discount : null);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateDiscount(discount.id);
  const statusChange = useUpdateDiscount(discount.id);
  const toast = useToast();
  const archived = discount.status === "archived";
  const catalogue = useCatalogue("active,archived", Boolean(discount.restrict_to?.length));
  const names = useMemo(
    () => (catalogue.data ? catalogueNames(catalogue.data.pages.flatMap((page) => page.data)) : null),
    [catalogue.data],
  );

  async function changeStatus() {
    try {
      await statusChange.mutateAsync({ revision: null, input: { status: archived ? "active" : "archived" } });
      setConfirming(false);
      setEditing(false);
      toast.show(archived ? "Discount unarchived." : "Discount archived.");
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  return (
    <div>
      <PageHeader
        back={BACK}
        title={discount.code ?? discount.description}
        badges={<StatusBadge status={discount.status} />}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            {discount.code && <span>{discount.description}</span>}
            <span className="inline-flex items-center gap-1.5">
              <code className="font-mono text-xs text-slate-500">{discount.id}</code>
              <CopyButton value={discount.id} label="Copy discount ID" variant="ghost" />
            </span>
          </span>
        }
        actions={
          <>
            {!editing && !archived && (
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
            )}
            <Button
              variant={archived ? "secondary" : "danger"}
              onClick={() => {
                statusChange.reset();
                setConfirming(true);
              }}
            >
              {archived ? "Unarchive" : "Archive"}
            </Button>
          </>
        }
      />

      {archived && (
        <InlineMessage tone="warning" className="mb-6" title="This discount is archived">
          It cannot be redeemed or changed. Unarchive it to edit it.
        </InlineMessage>
      )}

      <Section title="Details">
        {editingFrom ? (
          <DiscountForm
            // A reload brings a new revision: the form starts again from it.
            key={editingFrom.revision_id}
            discount={editingFrom}
            onSubmit={(input) => update.mutateAsync({ revision: editingFrom.revision_id, input })}
            onReload={async () => {
              const latest = await reload();
              if (latest) setEditingFrom(latest);
            }}
            onSaved={(saved) => {
              setEditing(false);
              toast.show(saved ? "Discount saved." : "Nothing changed.", saved ? "success" : "info");
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <DescriptionList
            items={[
              { term: "Description", value: discount.description },
              { term: "Code", value: discount.code ? <code className="font-mono">{discount.code}</code> : dash },
              { term: "Type", value: DISCOUNT_TYPE_LABELS[discount.type] },
              { term: "Amount", value: discountAmountText(discount) },
              { term: "Redeemable at checkout", value: discount.enabled_for_checkout ? "Yes" : "No" },
              { term: "Applies to payments", value: recurText(discount) },
              { term: "Used", value: `${usageText(discount)}${discount.usage_limit === null ? " (no limit)" : ""}` },
              { term: "Expires", value: discount.expires_at ? formatDateTime(discount.expires_at) : "Never" },
              {
                term: "Applies to",
                wide: true,
                value: discount.restrict_to?.length ? (
                  <ul className="list-disc space-y-0.5 pl-5">
                    {discount.restrict_to.map((ref) => {
                      const product = ref.startsWith("pro_") ? ref : names?.prices.get(ref)?.product.id;
                      return (
                        <li key={ref}>
                          {product ? (
                            <Link href={`/catalogue/products/${product}`} className="text-brand-700 hover:underline">
                              {restrictionName(ref, names)}
                            </Link>
                          ) : (
                            restrictionName(ref, names)
                          )}{" "}
                          <code className="font-mono text-xs text-slate-500">{ref}</code>
                        </li>
                      );
                    })}
                  </ul>
                ) : (
                  "All products and prices"
                ),
              },
              {
                term: "Discount group",
                value: discount.discount_group ? (
                  <Link
                    href={`/catalogue/discounts?discount_group_id=${discount.discount_group.id}`}
                    className="text-brand-700 hover:underline"
                  >
                    {discount.discount_group.name}
                  </Link>
                ) : (
                  dash
                ),
              },
              { term: "Revision", value: <code className="font-mono text-xs">{discount.revision_id}</code> },
              { term: "Created", value: formatDateTime(discount.created_at) },
              { term: "Updated", value: formatDateTime(discount.updated_at) },
              { term: "Custom data", value: <JsonBlock value={discount.custom_data} />, wide: true },
            ]}
          />
        )}
      </Section>

      <ConfirmDialog
        open={confirming}
        title={archived ? "Unarchive this discount?" : "Archive this discount?"}
        description={
          archived
            ? "The discount becomes active again and can be redeemed (unless it has expired or reached its usage limit)."
            : "Archived discounts cannot be redeemed at checkout or applied to new transactions. What was already billed does not change. You can unarchive it later."
        }
        confirmLabel={archived ? "Unarchive discount" : "Archive discount"}
        tone={archived ? "primary" : "danger"}
        pending={statusChange.isPending}
        error={statusChange.error ? <EntityText text={statusChange.error.message} /> : undefined}
        onConfirm={changeStatus}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
