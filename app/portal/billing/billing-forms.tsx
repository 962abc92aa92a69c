"use client";

import { type FormEvent, useState } from "react";
import { FormShell, useForm } from "@/components/entity-form";
import { AddressFields, BusinessFields } from "@/components/party-fields";
import { countryName } from "@/lib/dashboard/display";
import type { Schema } from "@/lib/dashboard/form";
import type { Address } from "@/lib/schemas/address";
import type { Business } from "@/lib/schemas/business";
import { portalAddressBody, portalBusinessBody } from "@/lib/schemas/portal";
import { portalApi } from "../portal-client";

/** Blank inputs are sent as null (cleared), except where the schema needs text. */
function nullIfBlank(values: Record<string, string>, keep: readonly string[] = []): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(values))
    out[key] = value.trim() === "" && !keep.includes(key) ? null : value;
  return out;
}

/** A form of the portal: its values saved with a PATCH to `path`, then "Saved." beside the button. */
function useSaveForm<V extends Record<string, string>>(initial: V, schema: Schema, path: string, keep?: string[]) {
  const state = useForm(() => initial, { autoFocus: false });
  const [saved, setSaved] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    return state.run({
      fields: Object.keys(initial),
      schema,
      body: nullIfBlank(state.values, keep),
      send: async (body) => {
        await portalApi(path, { method: "PATCH", body });
        setSaved(true);
      },
    });
  };
  const status = (
    <span role="status" className="text-sm text-emerald-700">
      {saved ? "Saved." : ""}
    </span>
  );
  return { state, submit, status };
}

export function AddressForm({ address }: { address: Address }) {
  const { state, submit, status } = useSaveForm(
    {
      first_line: address.first_line ?? "",
      second_line: address.second_line ?? "",
      city: address.city ?? "",
      postal_code: address.postal_code ?? "",
      region: address.region ?? "",
    },
    portalAddressBody,
    `/addresses/${address.id}`,
  );
  return (
    <FormShell
      label="Billing address"
      submitLabel="Save address"
      state={state}
      onSubmit={submit}
      after={status}
      spacing="space-y-3"
      className="py-3 first:pt-0"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <AddressFields
          bind={state.bind}
          country={
            <div>
              <p className="block text-sm font-medium text-slate-700">Country</p>
              <p className="mt-1 py-2 text-sm text-slate-900">{countryName(address.country_code)}</p>
              <p className="text-xs text-slate-500">To change country, contact the seller: it changes taxes.</p>
            </div>
          }
        />
      </div>
    </FormShell>
  );
}

export function BusinessForm({ business }: { business: Business }) {
  const { state, submit, status } = useSaveForm(
    {
      name: business.name ?? "",
      company_number: business.company_number ?? "",
      tax_identifier: business.tax_identifier ?? "",
    },
    portalBusinessBody,
    `/businesses/${business.id}`,
    ["name"],
  );
  return (
    <FormShell
      label="Business details"
      submitLabel="Save business details"
      state={state}
      onSubmit={submit}
      after={status}
      spacing="space-y-3"
      className="py-3 first:pt-0"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <BusinessFields bind={state.bind} />
      </div>
    </FormShell>
  );
}
