"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/button";
import { EntityText } from "@/components/entity-text";
import { FormActions, FormError, SelectField, TextAreaField, TextField, useFocusOnError } from "@/components/form";
import type { Product } from "@/lib/client/catalogue";
import { checkBody, type FormErrorState, formErrors, parseJsonField, textOrNull } from "@/lib/client/form";
import { jsonText, taxCategoryLabel } from "@/lib/client/format";
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

interface Values {
  name: string;
  description: string;
  tax_category: string;
  type: string;
  image_url: string;
  custom_data: string;
}

function initialValues(product?: Product): Values {
  return {
    name: product?.name ?? "",
    description: product?.description ?? "",
    tax_category: product?.tax_category ?? "standard",
    type: product?.type ?? "standard",
    image_url: product?.image_url ?? "",
    custom_data: jsonText(product?.custom_data),
  };
}

type Props =
  | { mode: "create"; onSubmit: (body: CreateProductInput) => Promise<Product>; product?: undefined }
  | { mode: "edit"; onSubmit: (body: UpdateProductInput) => Promise<Product>; product: Product };

/**
 * Creates or edits a product. The body is checked with the API's own schema first (its messages
 * appear beside the fields, as the server's would); the server has the last word. What the user
 * typed stays when either refuses. Editing sends only the fields that changed.
 */
export function ProductForm(props: Props & { onSaved: (product: Product | null) => void; onCancel: () => void }) {
  const { mode, product, onSaved, onCancel } = props;
  const [values, setValues] = useState<Values>(() => initialValues(product));
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);
  useEffect(() => form.current?.querySelector<HTMLInputElement>("input")?.focus(), []);

  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const customData = parseJsonField(values.custom_data);
    if (!customData.ok) {
      setErrors({ fields: { custom_data: customData.message }, message: null, other: [] });
      return;
    }
    const fields = {
      name: values.name.trim(),
      description: textOrNull(values.description),
      tax_category: values.tax_category,
      type: values.type,
      image_url: textOrNull(values.image_url),
      custom_data: customData.value,
    };
    setErrors(null);
    if (props.mode === "create") {
      const body: Record<string, unknown> = { name: fields.name, tax_category: fields.tax_category, type: fields.type };
      if (fields.description !== null) body.description = fields.description;
      if (fields.image_url !== null) body.image_url = fields.image_url;
      if (fields.custom_data !== null) body.custom_data = fields.custom_data;
      const checked = checkBody(createProductBody, body, FIELDS);
      if (!checked.ok) return setErrors(checked.errors);
      await save(() => props.onSubmit(body as CreateProductInput));
    } else {
      const current = props.product;
      const body: Record<string, unknown> = {};
      if (fields.name !== current.name) body.name = fields.name;
      if (fields.description !== current.description) body.description = fields.description;
      if (fields.tax_category !== current.tax_category) body.tax_category = fields.tax_category;
      if (fields.type !== current.type) body.type = fields.type;
      if (fields.image_url !== current.image_url) body.image_url = fields.image_url;
      if (JSON.stringify(fields.custom_data) !== JSON.stringify(current.custom_data)) {
        body.custom_data = fields.custom_data;
      }
      if (Object.keys(body).length === 0) return onSaved(null);
      const checked = checkBody(updateProductBody, body, FIELDS);
      if (!checked.ok) return setErrors(checked.errors);
      await save(() => props.onSubmit(body as UpdateProductInput));
    }
  }

  async function save(send: () => Promise<Product>) {
    setPending(true);
    try {
      onSaved(await send());
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    } finally {
      setPending(false);
    }
  }

  const fieldError = (field: (typeof FIELDS)[number]) => errors?.fields[field];
  const title = mode === "create" ? "New product" : "Edit product";
  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label={title} className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          required
          autoComplete="off"
          maxLength={PRODUCT_NAME_MAX}
          value={values.name}
          onChange={set("name")}
          error={fieldError("name")}
          hint="Shown to customers at checkout and on invoices."
        />
        <SelectField
          label="Tax category"
          name="tax_category"
          required
          value={values.tax_category}
          onChange={set("tax_category")}
          error={fieldError("tax_category")}
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
          name="description"
          mono={false}
          rows={3}
          maxLength={PRODUCT_DESCRIPTION_MAX}
          value={values.description}
          onChange={set("description")}
          error={fieldError("description")}
          className="sm:col-span-2"
        />
        <SelectField
          label="Type"
          name="type"
          value={values.type}
          onChange={set("type")}
          error={fieldError("type")}
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
          name="image_url"
          type="url"
          autoComplete="off"
          placeholder="https://example.com/product.png"
          value={values.image_url}
          onChange={set("image_url")}
          error={fieldError("image_url")}
          hint="Optional. An https address where you host a square image; the service does not store it."
        />
      </div>
      <TextAreaField
        label="Custom data"
        name="custom_data"
        value={values.custom_data}
        onChange={set("custom_data")}
        error={fieldError("custom_data")}
        placeholder='{"sku": "PRO-001"}'
        hint="Optional. A JSON object of your own data, returned with the product."
        rows={3}
        spellCheck={false}
      />
      {errors && (
        <FormError
          message={errors.message}
          other={errors.other}
          requestId={errors.requestId}
          renderDetail={(detail) => <EntityText text={detail} />}
        />
      )}
      <FormActions>
        <Button type="submit" pending={pending} pendingLabel="Saving…">
          {mode === "create" ? "Create product" : "Save changes"}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
