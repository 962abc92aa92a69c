"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { DescriptionList, JsonBlock } from "@/components/description-list";
import { DetailLoader, EntityHeader } from "@/components/entity-detail";
import { Section } from "@/components/page-header";
import { useToast } from "@/components/toast";
import { type Discount, useCatalogue, useDiscount, useUpdateDiscount } from "@/lib/dashboard/catalogue";
import { formatDateTime } from "@/lib/dashboard/display";
import { usePermissions } from "@/lib/dashboard/permissions";
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
  return (
    <DetailLoader query={discount} noun="discount" back={BACK}>
      {(data) => <DiscountPage key={data.id} discount={data} reload={async () => (await discount.refetch()).data} />}
    </DetailLoader>
  );
}

function DiscountPage({ discount, reload }: { discount: Discount; reload: () => Promise<Discount | undefined> }) {
  // The edit form works on the discount as it was when editing began (its revision), not on
  // whatever a background refresh brings: a change saved meanwhile is a conflict, not a reset.
  const [editingFrom, setEditingFrom] = useState<Discount | null>(null);
  const editing = editingFrom !== null;
  const setEditing = (on: boolean) => setEditingFrom(on ? discount : null);
  const update = useUpdateDiscount(discount.id);
  const statusChange = useUpdateDiscount(discount.id);
  const toast = useToast();
  const { can } = usePermissions();
  const catalogue = useCatalogue("active,archived", Boolean(discount.restrict_to?.length));
  const names = useMemo(
    () => (catalogue.data ? catalogueNames(catalogue.data.pages.flatMap((page) => page.data)) : null),
    [catalogue.data],
  );

  return (
    <div>
      <EntityHeader
        entity={discount}
        readOnly={!can("discount.write")}
        noun="discount"
        back={BACK}
        title={discount.code ?? discount.description}
        subtitle={discount.code && discount.description}
        editing={editing}
        canEdit={discount.status !== "archived"}
        onEdit={() => setEditing(true)}
        statusChange={{
          ...statusChange,
          run: (status) => statusChange.mutateAsync({ revision: null, input: { status } }),
        }}
        onStatusChanged={() => setEditing(false)}
        archiveText="Archived discounts cannot be redeemed at checkout or applied to new transactions. What was already billed does not change. You can unarchive it later."
        unarchiveText="The discount becomes active again and can be redeemed (unless it has expired or reached its usage limit)."
        archivedNotice="It cannot be redeemed or changed. Unarchive it to edit it."
      />

      <Section title="Details">
        {editingFrom ? (
          <DiscountForm
            // A reload brings a new revision: the form starts again from it.
            key={editingFrom.revision_id}
            entity={editingFrom}
            onSubmit={(input) => update.mutateAsync({ revision: editingFrom.revision_id ?? null, input })}
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
    </div>
  );
}
