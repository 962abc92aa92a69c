"use client";

import { useState } from "react";
import { DescriptionList, JsonBlock } from "@/components/description-list";
import { DetailLoader, EntityHeader } from "@/components/entity-detail";
import { Section } from "@/components/page-header";
import { ProductImage } from "@/components/product-image";
import { useToast } from "@/components/toast";
import { type Product, useProduct, useUpdateProduct } from "@/lib/dashboard/catalogue";
import { formatDateTime, taxCategoryLabel } from "@/lib/dashboard/display";
import { usePermissions } from "@/lib/dashboard/permissions";
import { ProductForm } from "../product-form";
import { PricesSection } from "./prices-section";

const BACK = { href: "/catalogue/products", label: "Products" };
const dash = <span className="text-slate-500">—</span>;

export function ProductDetail({ productId }: { productId: string }) {
  const product = useProduct(productId);
  // Keyed by ID: moving to another product starts its sections afresh.
  return (
    <DetailLoader query={product} noun="product" back={BACK}>
      {(data) => <ProductPage key={data.id} product={data} />}
    </DetailLoader>
  );
}

function ProductPage({ product }: { product: Product }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateProduct(product.id);
  const statusChange = useUpdateProduct(product.id);
  const toast = useToast();
  const { can } = usePermissions();

  return (
    <div>
      <EntityHeader
        entity={product}
        readOnly={!can("product.write")}
        noun="product"
        back={BACK}
        title={product.name}
        editing={editing}
        canEdit={product.status !== "archived"}
        onEdit={() => setEditing(true)}
        statusChange={{ ...statusChange, run: (status) => statusChange.mutateAsync({ status }) }}
        onStatusChanged={() => setEditing(false)}
        archiveText="Archived products leave the products list and cannot be added to new checkouts, transactions or subscriptions. Existing subscriptions are not affected. You can unarchive it later."
        unarchiveText="The product becomes active again: it returns to the products list and its active prices can be sold."
        archivedNotice="It is hidden from the products list and cannot be sold or changed. Unarchive it to edit it or its prices."
      />

      <div className="space-y-6">
        <Section title="Details">
          {editing ? (
            <ProductForm
              entity={product}
              onSubmit={(body) => update.mutateAsync(body)}
              onSaved={(saved) => {
                setEditing(false);
                toast.show(saved ? "Product saved." : "Nothing changed.", saved ? "success" : "info");
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <div className="flex flex-col gap-6 sm:flex-row">
              <div className="shrink-0">
                <ProductImage url={product.image_url} alt={`Image of ${product.name}`} size="lg" />
              </div>
              <div className="min-w-0 flex-1">
                <DescriptionList
                  items={[
                    { term: "Name", value: product.name },
                    { term: "Tax category", value: taxCategoryLabel(product.tax_category) },
                    {
                      term: "Description",
                      value: product.description ? (
                        <span className="whitespace-pre-line">{product.description}</span>
                      ) : (
                        dash
                      ),
                      wide: true,
                    },
                    { term: "Type", value: product.type === "standard" ? "Standard" : "Custom" },
                    {
                      term: "Image URL",
                      value: product.image_url ? (
                        <a
                          href={product.image_url}
                          target="_blank"
                          rel="noreferrer noopener"
                          className="break-all text-brand-700 hover:underline"
                        >
                          {product.image_url}
                        </a>
                      ) : (
                        dash
                      ),
                    },
                    { term: "Created", value: formatDateTime(product.created_at) },
                    { term: "Updated", value: formatDateTime(product.updated_at) },
                    { term: "Custom data", value: <JsonBlock value={product.custom_data} />, wide: true },
                  ]}
                />
              </div>
            </div>
          )}
        </Section>
        <PricesSection product={product} />
      </div>
    </div>
  );
}
