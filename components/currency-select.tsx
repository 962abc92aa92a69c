"use client";

import type { ComponentProps } from "react";
import { CURRENCY_CODES } from "@/lib/billing/currencies";
import { currencyName } from "@/lib/dashboard/money";
import { SelectField } from "./form";

/** The currencies of lib/billing/currencies.ts, most used first, each with its English name. */
export function CurrencySelectField(
  props: Omit<ComponentProps<typeof SelectField>, "children"> & { placeholder?: string },
) {
  const { placeholder, ...rest } = props;
  return (
    <SelectField {...rest}>
      {placeholder !== undefined && <option value="">{placeholder}</option>}
      {CURRENCY_CODES.map((code) => (
        <option key={code} value={code}>
          {code} · {currencyName(code)}
        </option>
      ))}
    </SelectField>
  );
}
