"use client";

import { CustomDataField, customData, customDataProblem, customDataValue } from "@/components/custom-data-field";
import { changes, EntityForm, type EntityFormProps, useEntityForm, withoutNulls } from "@/components/entity-form";
import { EntityText } from "@/components/entity-text";
import { SelectField, TextAreaField, TextField } from "@/components/form";
import type { Product } from "@/lib/dashboard/catalogue";
import { taxCategoryLabel } from "@/lib/dashboard/display";
import { textOrNull } from "@/lib/dashboard/form";
import {
  CATALOG_TYPES,
  type CreateProductInput,
  createProductBody,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_NAME_MAX,
  TAX_CATEGORIES,
  type UpdateProductInput,
  updateProductBody,
} from "@/lib/schemas/product";

const FIELDS = ["name", "description", "tax_category", "type", "image_url", "custom_data"] as const;

/**
 * Creates or edits a product. The body is checked with the API's own schema first (its messages
 * appear beside the fields, as the server's would); the server has the last word. What the user
 * typed stays when either refuses. Editing sends only the fields that changed.
 */
export function ProductForm(props: EntityFormProps<Product, CreateProductInput, UpdateProductInput>) {
  const product = props.entity;
  const state = useEntityForm(props, () => ({
    name: product?.name ?? "",
    description: product?.description ?? "",
    tax_category: product?.tax_category ?? "standard",
    type: product?.type ?? "standard",
    image_url: product?.image_url ?? "",
    custom_data: customData(product?.custom_data),
  }));
  const { values, bind } = state;

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const full = {
      name: values.name.trim(),
      description: textOrNull(values.description),
      tax_category: values.tax_category,
      type: values.type,
      image_url: textOrNull(values.image_url),
      custom_data: customDataValue(values.custom_data),
    };
    return state.submit(event, {
      fields: FIELDS,
      schemas: { create: createProductBody, update: updateProductBody },
      local: { custom_data: customDataProblem(values.custom_data) },
      create: () => withoutNulls(full) as CreateProductInput,
      update: (current) => changes(full, current) as UpdateProductInput | null,
    });
  };

  return (
    <EntityForm
      noun="product"
      editing={Boolean(product)}
      submitLabel={{ add: "Create product", save: "Save changes" }}
      state={state}
      onSubmit={onSubmit}
      onCancel={props.onCancel}
      renderDetail={(detail) => <EntityText text={detail} />}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          required
          autoComplete="off"
          maxLength={PRODUCT_NAME_MAX}
          {...bind("name")}
          hint="Shown to customers at checkout and on invoices."
        />
        <SelectField
          label="Tax category"
          required
          {...bind("tax_category")}
          hint="Decides the tax rates that apply to this product."
        >
          {TAX_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {taxCategoryLabel(category)}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label="Description"
          mono={false}
          rows={3}
          maxLength={PRODUCT_DESCRIPTION_MAX}
          {...bind("description")}
          className="sm:col-span-2"
        />
        <SelectField
          label="Type"
          {...bind("type")}
          hint="Standard products belong to the catalogue; custom ones are made for a single transaction."
        >
          {CATALOG_TYPES.map((type) => (
            <option key={type} value={type}>
              {type === "standard" ? "Standard" : "Custom"}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Image URL"
          type="url"
          autoComplete="off"
          placeholder="https://example.com/product.png"
          {...bind("image_url")}
          hint="Optional. An https address where you host a square image; the service does not store it."
        />
      </div>
      <CustomDataField
        value={values.custom_data}
        onChange={(value) => state.set("custom_data", value)}
        error={state.error("custom_data")}
        hint="Optional. Your own data, returned with the product."
      />
    </EntityForm>
  );
}
