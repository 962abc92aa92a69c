"use client";

import { type ComponentProps, useState } from "react";
import { CURRENCIES, isCurrencyCode } from "@/lib/billing/currencies";
import { currencySymbol, readMoney } from "@/lib/dashboard/money";
import { Field, type FieldProps } from "./form";

/** The hint under a money input: how many decimals the currency has. */
export function moneyHint(currency: string): string {
  if (!isCurrencyCode(currency)) return "Choose a currency.";
  const digits = CURRENCIES[currency];
  return digits === 0
    ? `${currency} has no minor unit: whole amounts only.`
    : `In ${currency}, up to ${digits} decimal places (for example 10.${"5".padEnd(digits, "0")}).`;
}

/**
 * An amount of money typed in the currency's major unit ("10.50" dollars, "1200" yen). The form
 * turns the text into minor units with `readMoney` (lib/billing/currencies.ts parseMajor), which
 * refuses more decimals than the currency has instead of rounding. The field checks the text when
 * it loses focus and says plainly what is wrong; an `error` from the form or server wins.
 */
export function MoneyField({
  label,
  currency,
  value,
  onValueChange,
  error,
  hint,
  required,
  className,
  labelHidden,
  ...input
}: Omit<FieldProps, "children"> & {
  currency: string;
  value: string;
  onValueChange: (value: string) => void;
} & Omit<ComponentProps<"input">, "id" | "className" | "value" | "onChange" | "type">) {
  const [touched, setTouched] = useState(false);
  const local = touched ? readMoney(value, currency) : null;
  const localError = local && !local.ok ? local.message : null;
  const shown = error ?? localError;
  const symbol = currencySymbol(currency);
  const showCode = symbol !== currency;
  return (
    <Field
      label={label}
      // The message of an error says what the hint would; one of the two is enough.
      hint={shown ? undefined : hint === undefined ? moneyHint(currency) : hint}
      error={shown}
      required={required}
      className={className}
      labelHidden={labelHidden}
    >
      {(control) => (
        <div
          className={`flex items-stretch overflow-hidden rounded-md border bg-white shadow-sm focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-500 ${
            shown ? "border-red-500" : "border-slate-300"
          }`}
        >
          <span
            aria-hidden="true"
            className="flex min-w-9 items-center justify-center border-r border-slate-200 bg-slate-50 px-2 text-sm text-slate-600"
          >
            {symbol}
          </span>
          <input
            type="text"
            inputMode={isCurrencyCode(currency) && CURRENCIES[currency] === 0 ? "numeric" : "decimal"}
            autoComplete="off"
            spellCheck={false}
            {...input}
            {...control}
            value={value}
            onChange={(event) => onValueChange(event.target.value)}
            onBlur={(event) => {
              setTouched(true);
              input.onBlur?.(event);
            }}
            className="block w-full min-w-0 border-0 bg-transparent px-3 py-2 text-right font-mono text-sm text-slate-900 tabular-nums placeholder:text-slate-500 focus:outline-none"
          />
          {showCode && (
            <span
              aria-hidden="true"
              className="flex items-center border-l border-slate-200 bg-slate-50 px-2 text-xs font-medium text-slate-600"
            >
              {currency}
            </span>
          )}
        </div>
      )}
    </Field>
  );
}
