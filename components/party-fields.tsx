"use client";

import type { ReactNode } from "react";
import { TextField } from "./form";

/*
 * The fields of an address and of a business, the same in the dashboard, the customer portal and
 * wherever else they are typed. Each takes the form's `bind` (see useForm in entity-form.tsx).
 */

type Bind<F extends string> = (field: F) => {
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error?: string;
};

export type AddressLineField = "first_line" | "second_line" | "city" | "region" | "postal_code";

/**
 * Address lines, city, region, postal code, then `country` (the form's own: a select, or fixed).
 * `autofill` off for addresses typed on someone else's behalf (the dashboard's customers).
 */
export function AddressFields({
  bind,
  country,
  postalRequired = false,
  autofill = true,
}: {
  bind: Bind<AddressLineField>;
  country: ReactNode;
  postalRequired?: boolean;
  autofill?: boolean;
}) {
  const auto = (token: string) => (autofill ? token : "off");
  const postal = bind("postal_code");
  return (
    <>
      <TextField label="Address line 1" autoComplete={auto("address-line1")} {...bind("first_line")} />
      <TextField label="Address line 2" autoComplete={auto("address-line2")} {...bind("second_line")} />
      <TextField label="City" autoComplete={auto("address-level2")} {...bind("city")} />
      <TextField
        label="Region"
        autoComplete={auto("address-level1")}
        {...bind("region")}
        hint="State, province or county."
      />
      <TextField
        label="Postal code"
        autoComplete={auto("postal-code")}
        required={postalRequired}
        {...postal}
        hint={postalRequired && !postal.error ? "Required for addresses in this country." : undefined}
      />
      {country}
    </>
  );
}

export type BusinessField = "name" | "company_number" | "tax_identifier";

/** A business's name, company number and tax identifier. */
export function BusinessFields({ bind, autofill = true }: { bind: Bind<BusinessField>; autofill?: boolean }) {
  return (
    <>
      <TextField label="Business name" autoComplete={autofill ? "organization" : "off"} required {...bind("name")} />
      <TextField label="Company number" autoComplete="off" {...bind("company_number")} />
      <TextField
        label="Tax identifier"
        autoComplete="off"
        {...bind("tax_identifier")}
        hint="VAT or other tax number."
      />
    </>
  );
}
