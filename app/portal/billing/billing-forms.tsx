"use client";

import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/button";
import { FormError, TextField, useFocusOnError } from "@/components/form";
import { checkBody, type FormErrorState, formErrors, NO_ERRORS } from "@/lib/client/form";
import { countryName } from "@/lib/client/format";
import type { Address } from "@/lib/schemas/address";
import type { Business } from "@/lib/schemas/business";
import { portalAddressBody, portalBusinessBody } from "@/lib/schemas/portal";
import { portalApi } from "../portal-client";

const ADDRESS_FIELDS = ["first_line", "second_line", "city", "postal_code", "region"] as const;
const BUSINESS_FIELDS = ["name", "company_number", "tax_identifier"] as const;

/** Blank inputs are sent as null (cleared), except where the schema needs text. */
function nullIfBlank(values: Record<string, string>, keep: readonly string[] = []): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(values))
    out[key] = value.trim() === "" && !keep.includes(key) ? null : value;
  return out;
}

function useSaveForm<T>(fields: readonly string[], schema: Parameters<typeof checkBody<T>>[0], path: string) {
  const form = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FormErrorState>(NO_ERRORS);
  const [pending, setPending] = useState(false);
  const [saved, setSaved] = useState(false);
  useFocusOnError(form, errors === NO_ERRORS ? null : errors);
  async function save(body: unknown) {
    setSaved(false);
    const checked = checkBody(schema, body, fields);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors(NO_ERRORS);
    setPending(true);
    try {
      await portalApi(path, { method: "PATCH", body: checked.data });
      setSaved(true);
    } catch (error) {
      setErrors(formErrors(error, fields));
    } finally {
      setPending(false);
    }
  }
  return { form, errors, pending, saved, save };
}

function Saved({ show }: { show: boolean }) {
  return (
    <span role="status" className="text-sm text-emerald-700">
      {show ? "Saved." : ""}
    </span>
  );
}

export function AddressForm({ address }: { address: Address }) {
  const [values, setValues] = useState({
    first_line: address.first_line ?? "",
    second_line: address.second_line ?? "",
    city: address.city ?? "",
    postal_code: address.postal_code ?? "",
    region: address.region ?? "",
  });
  const { form, errors, pending, saved, save } = useSaveForm(
    ADDRESS_FIELDS,
    portalAddressBody,
    `/addresses/${address.id}`,
  );
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) save(nullIfBlank(values));
  };
  return (
    <form ref={form} noValidate onSubmit={submit} aria-label="Billing address" className="space-y-3 py-3 first:pt-0">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Address line 1"
          name="first_line"
          autoComplete="address-line1"
          value={values.first_line}
          onChange={set("first_line")}
          error={errors.fields.first_line}
        />
        <TextField
          label="Address line 2"
          name="second_line"
          autoComplete="address-line2"
          value={values.second_line}
          onChange={set("second_line")}
          error={errors.fields.second_line}
        />
        <TextField
          label="City"
          name="city"
          autoComplete="address-level2"
          value={values.city}
          onChange={set("city")}
          error={errors.fields.city}
        />
        <TextField
          label="Region or state"
          name="region"
          autoComplete="address-level1"
          value={values.region}
          onChange={set("region")}
          error={errors.fields.region}
        />
        <TextField
          label="Postal code"
          name="postal_code"
          autoComplete="postal-code"
          value={values.postal_code}
          onChange={set("postal_code")}
          error={errors.fields.postal_code}
        />
        <div>
          <p className="block text-sm font-medium text-slate-700">Country</p>
          <p className="mt-1 py-2 text-sm text-slate-900">{countryName(address.country_code)}</p>
          <p className="text-xs text-slate-500">To change country, contact the seller: it changes taxes.</p>
        </div>
      </div>
      <FormError message={errors.message} other={errors.other} requestId={errors.requestId} />
      <div className="flex items-center gap-3">
        <Button type="submit" pending={pending} pendingLabel="Saving…">
          Save address
        </Button>
        <Saved show={saved} />
      </div>
    </form>
  );
}

export function BusinessForm({ business }: { business: Business }) {
  const [values, setValues] = useState({
    name: business.name ?? "",
    company_number: business.company_number ?? "",
    tax_identifier: business.tax_identifier ?? "",
  });
  const { form, errors, pending, saved, save } = useSaveForm(
    BUSINESS_FIELDS,
    portalBusinessBody,
    `/businesses/${business.id}`,
  );
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) save(nullIfBlank(values, ["name"]));
  };
  return (
    <form ref={form} noValidate onSubmit={submit} aria-label="Business details" className="space-y-3 py-3 first:pt-0">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Business name"
          name="name"
          autoComplete="organization"
          required
          value={values.name}
          onChange={set("name")}
          error={errors.fields.name}
        />
        <TextField
          label="Company number"
          name="company_number"
          value={values.company_number}
          onChange={set("company_number")}
          error={errors.fields.company_number}
        />
        <TextField
          label="Tax ID (VAT number)"
          name="tax_identifier"
          value={values.tax_identifier}
          onChange={set("tax_identifier")}
          error={errors.fields.tax_identifier}
        />
      </div>
      <FormError message={errors.message} other={errors.other} requestId={errors.requestId} />
      <div className="flex items-center gap-3">
        <Button type="submit" pending={pending} pendingLabel="Saving…">
          Save business details
        </Button>
        <Saved show={saved} />
      </div>
    </form>
  );
}
