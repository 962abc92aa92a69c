"use client";

import { CountrySelectField } from "@/components/country-select";
import { changes, EntityForm, type EntityFormProps, useEntityForm, withoutNulls } from "@/components/entity-form";
import { TextField } from "@/components/form";
import { AddressFields } from "@/components/party-fields";
import type { Address } from "@/lib/dashboard/customers";
import { textOrNull } from "@/lib/dashboard/form";
import type { CreateAddressInput, UpdateAddressInput } from "@/lib/schemas/address";
import { type CountryCode, POSTAL_CODE_REQUIRED } from "@/lib/schemas/countries";

const TEXT_FIELDS = ["description", "first_line", "second_line", "city", "region", "postal_code"] as const;
const FIELDS = [...TEXT_FIELDS, "country_code"] as const;

/** Adds or edits an address. Which countries need a postal code is the server's rule; it answers per field. */
export function AddressForm(props: EntityFormProps<Address, CreateAddressInput, UpdateAddressInput>) {
  const address = props.entity;
  const state = useEntityForm(props, () => ({
    description: address?.description ?? "",
    first_line: address?.first_line ?? "",
    second_line: address?.second_line ?? "",
    city: address?.city ?? "",
    region: address?.region ?? "",
    postal_code: address?.postal_code ?? "",
    country_code: address?.country_code ?? "",
  }));
  const { values, bind } = state;

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    // The server checks the code (an empty choice gets its field error too).
    const full = {
      ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, textOrNull(values[field])])),
      country_code: values.country_code as CountryCode,
    };
    return state.submit(event, {
      fields: FIELDS,
      create: () => withoutNulls(full) as CreateAddressInput,
      update: (current) => changes(full, current) as UpdateAddressInput | null,
    });
  };

  return (
    <EntityForm noun="address" editing={Boolean(address)} state={state} onSubmit={onSubmit} onCancel={props.onCancel}>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Description"
          {...bind("description")}
          hint="Optional label, such as Head office."
          className="sm:col-span-2"
        />
        <AddressFields
          bind={bind}
          autofill={false}
          postalRequired={POSTAL_CODE_REQUIRED.has(values.country_code)}
          country={<CountrySelectField label="Country" required {...bind("country_code")} />}
        />
      </div>
    </EntityForm>
  );
}
