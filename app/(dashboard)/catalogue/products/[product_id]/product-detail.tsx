"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { CopyButton } from "@/components/copy-button";
import { DescriptionList, JsonBlock } from "@/components/description-list";
import { EntityText } from "@/components/entity-text";
import { PageHeader, Section } from "@/components/page-header";
import { ProductImage } from "@/components/product-image";
import { ErrorState, LoadingBlock } from "@/components/states";
import { StatusBadge } from "@/components/status-badge";
import { InlineMessage, useToast } from "@/components/toast";
import { type Product, useProduct, useUpdateProduct } from "@/lib/client/catalogue";
import { formatDateTime, taxCategoryLabel } from "@/lib/client/format";
import { ProductForm } from "../product-form";
import { PricesSection } from "./prices-section";

const BACK = { href: "/catalogue/products", label: "Products" };
const dash = <span className="text-slate-500">—</span>;

export function ProductDetail({ productId }: { productId: string }) {
  const product = useProduct(productId);

  if (product.isLoading) {
    return (
      <div>
        <PageHeader title="Product" back={BACK} />
        <div className="rounded-lg border border-slate-200 bg-white p-5">
          <LoadingBlock label="Loading product…" lines={6} />
        </div>
      </div>
    );
  }
  if (!product.data) {
    return (
      <div>
        <PageHeader title="Product" back={BACK} />
        <ErrorState error={product.error} title="Could not load this product" onRetry={() => product.refetch()} />
      </div>
    );
  }
  // Keyed by ID: moving to another product starts its sections afresh.
  return <ProductPage key={product.data.id} product={product.data} />;
}

function ProductPage({ product }: { product: Product }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateProduct(product.id);
  const statusChange = useUpdateProduct(product.id);
  const toast = useToast();
  const archived = product.status === "archived";

  async function changeStatus() {
    try {
      await statusChange.mutateAsync({ status: archived ? "active" : "archived" });
      setConfirming(false);
      setEditing(false);
      toast.show(archived ? "Product unarchived." : "Product archived.");
    } catch {
      // The dialog shows the error and stays open.
    }
  }

  return (
    <div>
      <PageHeader
        back={BACK}
        title={product.name}
        badges={<StatusBadge status={product.status} />}
        description={
          <span className="inline-flex items-center gap-1.5">
            <code className="font-mono text-xs text-slate-500">{product.id}</code>
            <CopyButton value={product.id} label="Copy product ID" variant="ghost" />
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
        <InlineMessage tone="warning" className="mb-6" title="This product is archived">
          It is hidden from the products list and cannot be sold or changed. Unarchive it to edit it or its prices.
        </InlineMessage>
      )}

      <div className="space-y-6">
        <Section title="Details">
          {editing ? (
            <ProductForm
              mode="edit"
              product={product}
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

      <ConfirmDialog
        open={confirming}
        title={archived ? "Unarchive this product?" : "Archive this product?"}
        description={
          archived
            ? "The product becomes active again: it returns to the products list and its active prices can be sold."
            : "Archived products leave the products list and cannot be added to new checkouts, transactions or subscriptions. Existing subscriptions are not affected. You can unarchive it later."
        }
        confirmLabel={archived ? "Unarchive product" : "Archive product"}
        tone={archived ? "primary" : "danger"}
        pending={statusChange.isPending}
        error={statusChange.error ? <EntityText text={statusChange.error.message} /> : undefined}
        onConfirm={changeStatus}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
