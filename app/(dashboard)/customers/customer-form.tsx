"use client";

import { CustomDataField, customData, customDataProblem, customDataValue } from "@/components/custom-data-field";
import { changes, EntityForm, type EntityFormProps, useEntityForm, withoutNulls } from "@/components/entity-form";
import { EntityText } from "@/components/entity-text";
import { TextField } from "@/components/form";
import type { Customer } from "@/lib/dashboard/customers";
import { textOrNull } from "@/lib/dashboard/form";
import type { CreateCustomerInput, UpdateCustomerInput } from "@/lib/schemas/customer";

const FIELDS = ["email", "name", "locale", "custom_data"] as const;

/**
 * Creates or edits a customer. The server validates; its field errors appear beside the inputs and
 * what the user typed stays. Editing sends only the fields that changed.
 */
export function CustomerForm(props: EntityFormProps<Customer, CreateCustomerInput, UpdateCustomerInput>) {
  const customer = props.entity;
  const state = useEntityForm(props, () => ({
    email: customer?.email ?? "",
    name: customer?.name ?? "",
    locale: customer?.locale ?? "en",
    custom_data: customData(customer?.custom_data),
  }));
  const { values, bind } = state;

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const full = {
      email: values.email.trim(),
      name: textOrNull(values.name),
      locale: textOrNull(values.locale),
      custom_data: customDataValue(values.custom_data),
    };
    return state.submit(event, {
      fields: FIELDS,
      local: { custom_data: customDataProblem(values.custom_data) },
      create: () => withoutNulls(full) as CreateCustomerInput,
      update: (current) => changes({ ...full, locale: values.locale.trim() }, current) as UpdateCustomerInput | null,
    });
  };

  return (
    <EntityForm
      noun="customer"
      editing={Boolean(customer)}
      submitLabel={{ add: "Create customer", save: "Save changes" }}
      state={state}
      onSubmit={onSubmit}
      onCancel={props.onCancel}
      renderDetail={(detail) => <EntityText text={detail} />}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label="Email" type="email" autoComplete="off" required {...bind("email")} />
        <TextField label="Name" autoComplete="off" {...bind("name")} />
        <TextField
          label="Locale"
          {...bind("locale")}
          hint="An IETF BCP 47 language tag, such as en or pt-BR. Defaults to en."
          list="customer-locales"
        />
        <datalist id="customer-locales">
          {["en", "en-GB", "de", "fr", "es", "it", "nl", "pt-BR", "ja", "zh-Hans"].map((tag) => (
            <option key={tag} value={tag} />
          ))}
        </datalist>
      </div>
      <CustomDataField
        value={values.custom_data}
        onChange={(value) => state.set("custom_data", value)}
        error={state.error("custom_data")}
        hint="Optional. Your own data, returned with the customer."
      />
    </EntityForm>
  );
}
