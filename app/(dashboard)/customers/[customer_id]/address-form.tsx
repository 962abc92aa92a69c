"use client";

import { CountrySelectField } from "@/components/country-select";
import { EntityForm, type EntityFormProps, useEntityForm } from "@/components/entity-form";
import { TextField } from "@/components/form";
import { textOrNull } from "@/lib/client/form";
import type { Address } from "@/lib/client/hooks";
import type { CreateAddressInput, UpdateAddressInput } from "@/lib/schemas/address";
import { type CountryCode, POSTAL_CODE_REQUIRED } from "@/lib/schemas/countries";

const TEXT_FIELDS = ["description", "first_line", "second_line", "city", "region", "postal_code"] as const;
const FIELDS = [...TEXT_FIELDS, "country_code"] as const;
type Values = Record<(typeof FIELDS)[number], string>;

function initialValues(address?: Address): Values {
  return {
    description: address?.description ?? "",
    first_line: address?.first_line ?? "",
    second_line: address?.second_line ?? "",
    city: address?.city ?? "",
    region: address?.region ?? "",
    postal_code: address?.postal_code ?? "",
    country_code: address?.country_code ?? "",
  };
}

/** Adds or edits an address. Which countries need a postal code is the server's rule; it answers per field. */
export function AddressForm(props: EntityFormProps<Address, CreateAddressInput, UpdateAddressInput>) {
  const state = useEntityForm(props, () => initialValues(props.entity));
  const { values, error, bind } = state;

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) =>
    state.submit(event, {
      fields: FIELDS,
      create: () => {
        // The server checks the code (an empty choice gets its field error too).
        const body: CreateAddressInput = { country_code: values.country_code as CountryCode };
        for (const field of TEXT_FIELDS) {
          const value = textOrNull(values[field]);
          if (value !== null) body[field] = value;
        }
        return body;
      },
      update: (current) => {
        const body: UpdateAddressInput = {};
        for (const field of TEXT_FIELDS) {
          const value = textOrNull(values[field]);
          if (value !== current[field]) body[field] = value;
        }
        if (values.country_code !== current.country_code) body.country_code = values.country_code as CountryCode;
        return body;
      },
    });

  const postalRequired = POSTAL_CODE_REQUIRED.has(values.country_code);
  return (
    <EntityForm
      noun="address"
      editing={Boolean(props.entity)}
      state={state}
      onSubmit={onSubmit}
      onCancel={props.onCancel}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Description"
          {...bind("description")}
          hint="Optional label, such as Head office."
          className="sm:col-span-2"
        />
        <CountrySelectField label="Country" required {...bind("country_code")} />
        <TextField
          label="Postal code"
          required={postalRequired}
          {...bind("postal_code")}
          autoComplete="off"
          hint={postalRequired && !error("postal_code") ? "Required for addresses in this country." : undefined}
        />
        <TextField label="Address line 1" {...bind("first_line")} />
        <TextField label="Address line 2" {...bind("second_line")} />
        <TextField label="City" {...bind("city")} />
        <TextField label="Region" {...bind("region")} hint="State, province or county." />
      </div>
    </EntityForm>
  );
}
