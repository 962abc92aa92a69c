"use client";

import type { ComponentProps } from "react";
import { countryName } from "@/lib/dashboard/display";
import { COUNTRY_CODES } from "@/lib/schemas/countries";
import { SelectField } from "./form";

/** Every ISO 3166-1 alpha-2 country the API accepts, by English name. */
const COUNTRIES = COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
  a.name.localeCompare(b.name, "en"),
);

export function CountrySelectField(
  props: Omit<ComponentProps<typeof SelectField>, "children"> & { placeholder?: string },
) {
  const { placeholder = "Select a country", ...rest } = props;
  return (
    <SelectField {...rest}>
      <option value="">{placeholder}</option>
      {COUNTRIES.map((country) => (
        <option key={country.code} value={country.code}>
          {country.name} ({country.code})
        </option>
      ))}
    </SelectField>
  );
}
