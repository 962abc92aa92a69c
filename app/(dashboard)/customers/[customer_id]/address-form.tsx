"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/button";
import { CountrySelectField } from "@/components/country-select";
import { FormActions, FormError, TextField, useFocusOnError } from "@/components/form";
import { type FormErrorState, formErrors, textOrNull } from "@/lib/client/form";
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

type Props =
  | { address?: undefined; onSubmit: (body: CreateAddressInput) => Promise<Address> }
  | { address: Address; onSubmit: (body: UpdateAddressInput) => Promise<Address> };

/** Adds or edits an address. Which countries need a postal code is the server's rule; it answers per field. */
export function AddressForm(props: Props & { onSaved: (address: Address | null) => void; onCancel: () => void }) {
  const { address, onSaved, onCancel } = props;
  const [values, setValues] = useState<Values>(() => initialValues(address));
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);
  useEffect(() => form.current?.querySelector<HTMLElement>("input, select")?.focus(), []);

  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  const error = (field: keyof Values) => errors?.fields[field];

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setErrors(null);
    try {
      if (!props.address) {
        // The server checks the code (an empty choice gets its field error too).
        const body: CreateAddressInput = { country_code: values.country_code as CountryCode };
        for (const field of TEXT_FIELDS) {
          const value = textOrNull(values[field]);
          if (value !== null) body[field] = value;
        }
        onSaved(await props.onSubmit(body));
      } else {
        const current = props.address;
        const body: UpdateAddressInput = {};
        for (const field of TEXT_FIELDS) {
          const value = textOrNull(values[field]);
          if (value !== current[field]) body[field] = value;
        }
        if (values.country_code !== current.country_code) body.country_code = values.country_code as CountryCode;
        onSaved(Object.keys(body).length === 0 ? null : await props.onSubmit(body));
      }
    } catch (caught) {
      setErrors(formErrors(caught, FIELDS));
    } finally {
      setPending(false);
    }
  }

  const title = address ? "Edit address" : "New address";
  const postalRequired = POSTAL_CODE_REQUIRED.has(values.country_code);
  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label={title} className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Description"
          value={values.description}
          onChange={set("description")}
          error={error("description")}
          hint="Optional label, such as Head office."
          className="sm:col-span-2"
        />
        <CountrySelectField
          label="Country"
          required
          value={values.country_code}
          onChange={set("country_code")}
          error={error("country_code")}
        />
        <TextField
          label="Postal code"
          required={postalRequired}
          value={values.postal_code}
          onChange={set("postal_code")}
          error={error("postal_code")}
          autoComplete="off"
          hint={postalRequired && !error("postal_code") ? "Required for addresses in this country." : undefined}
        />
        <TextField
          label="Address line 1"
          value={values.first_line}
          onChange={set("first_line")}
          error={error("first_line")}
        />
        <TextField
          label="Address line 2"
          value={values.second_line}
          onChange={set("second_line")}
          error={error("second_line")}
        />
        <TextField label="City" value={values.city} onChange={set("city")} error={error("city")} />
        <TextField
          label="Region"
          value={values.region}
          onChange={set("region")}
          error={error("region")}
          hint="State, province or county."
        />
      </div>
      {errors && <FormError message={errors.message} other={errors.other} requestId={errors.requestId} />}
      <FormActions>
        <Button type="submit" pending={pending} pendingLabel="Saving…">
          {address ? "Save address" : "Add address"}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
