"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/button";
import { EntityText } from "@/components/entity-text";
import { FormActions, FormError, TextAreaField, TextField, useFocusOnError } from "@/components/form";
import { type FormErrorState, formErrors, parseJsonField, textOrNull } from "@/lib/client/form";
import { jsonText } from "@/lib/client/format";
import type { Customer } from "@/lib/client/hooks";
import type { CreateCustomerInput, UpdateCustomerInput } from "@/lib/schemas/customer";

const FIELDS = ["email", "name", "locale", "custom_data"] as const;

interface Values {
  email: string;
  name: string;
  locale: string;
  custom_data: string;
}

function initialValues(customer?: Customer): Values {
  return {
    email: customer?.email ?? "",
    name: customer?.name ?? "",
    locale: customer?.locale ?? "en",
    custom_data: jsonText(customer?.custom_data),
  };
}

type Props =
  | { mode: "create"; onSubmit: (body: CreateCustomerInput) => Promise<Customer>; customer?: undefined }
  | { mode: "edit"; onSubmit: (body: UpdateCustomerInput) => Promise<Customer>; customer: Customer };

/**
 * Creates or edits a customer. The server validates; its field errors appear beside the inputs and
 * what the user typed stays. Editing sends only the fields that changed.
 */
export function CustomerForm(props: Props & { onSaved: (customer: Customer | null) => void; onCancel: () => void }) {
  const { mode, customer, onSaved, onCancel } = props;
  const [values, setValues] = useState<Values>(() => initialValues(customer));
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
    setPending(true);
    setErrors(null);
    try {
      if (props.mode === "create") {
        const body: CreateCustomerInput = { email: values.email.trim() };
        const name = textOrNull(values.name);
        if (name !== null) body.name = name;
        if (values.locale.trim() !== "") body.locale = values.locale.trim();
        if (customData.value !== null) body.custom_data = customData.value as CreateCustomerInput["custom_data"];
        onSaved(await props.onSubmit(body));
      } else {
        const current = props.customer;
        const body: UpdateCustomerInput = {};
        if (values.email.trim() !== current.email) body.email = values.email.trim();
        if (textOrNull(values.name) !== current.name) body.name = textOrNull(values.name);
        if (values.locale.trim() !== current.locale) body.locale = values.locale.trim();
        if (JSON.stringify(customData.value) !== JSON.stringify(current.custom_data)) {
          body.custom_data = customData.value as UpdateCustomerInput["custom_data"];
        }
        onSaved(Object.keys(body).length === 0 ? null : await props.onSubmit(body));
      }
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    } finally {
      setPending(false);
    }
  }

  const fieldError = (field: (typeof FIELDS)[number]) => errors?.fields[field];
  const title = mode === "create" ? "New customer" : "Edit customer";
  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label={title} className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          required
          value={values.email}
          onChange={set("email")}
          error={fieldError("email")}
        />
        <TextField
          label="Name"
          name="name"
          autoComplete="off"
          value={values.name}
          onChange={set("name")}
          error={fieldError("name")}
        />
        <TextField
          label="Locale"
          name="locale"
          value={values.locale}
          onChange={set("locale")}
          error={fieldError("locale")}
          hint="An IETF BCP 47 language tag, such as en or pt-BR. Defaults to en."
          list="customer-locales"
        />
        <datalist id="customer-locales">
          {["en", "en-GB", "de", "fr", "es", "it", "nl", "pt-BR", "ja", "zh-Hans"].map((tag) => (
            <option key={tag} value={tag} />
          ))}
        </datalist>
      </div>
      <TextAreaField
        label="Custom data"
        name="custom_data"
        value={values.custom_data}
        onChange={set("custom_data")}
        error={fieldError("custom_data")}
        placeholder='{"crm_id": "1234"}'
        hint="Optional. A JSON object of your own data, returned with the customer."
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
          {mode === "create" ? "Create customer" : "Save changes"}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
