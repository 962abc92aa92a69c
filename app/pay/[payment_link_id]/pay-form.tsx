"use client";

import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/button";
import { CountrySelectField } from "@/components/country-select";
import { FormError, TextField, useFocusOnError } from "@/components/form";
import { ApiClientError, api } from "@/lib/dashboard/api";
import { POSTAL_CODE_REQUIRED } from "@/lib/schemas/countries";
import { openPaymentLinkBody } from "@/lib/schemas/payment-link";

/** A line of what the link sells, as the buyer reads it. */
export interface PayLine {
  name: string;
  detail: string | null;
  quantity: number;
  /** Before tax, in the price's own currency: the country may change both. */
  total: string;
  cycle: string | null;
}

const FIELD_LABELS: Record<string, string> = {
  email: "email",
  "address.country_code": "country",
  "address.postal_code": "postal_code",
};

/** What the link sells, and who buys: email and country (and postal code where needed), then the checkout. */
export function PayForm({ linkId, lines }: { linkId: string; lines: PayLine[] }) {
  const [email, setEmail] = useState("");
  const [country, setCountry] = useState("");
  const [postalCode, setPostalCode] = useState("");
  const [errors, setErrors] = useState<{ fields: Record<string, string>; message: string | null } | null>(null);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);
  const needsPostalCode = POSTAL_CODE_REQUIRED.has(country);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      email: email.trim(),
      address: { country_code: country, postal_code: needsPostalCode ? postalCode.trim() : null },
    };
    const parsed = openPaymentLinkBody.safeParse(body);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = FIELD_LABELS[issue.path.join(".")] ?? "email";
        fields[key] ??= messageFor(key);
      }
      setErrors({ fields, message: null });
      return;
    }
    setPending(true);
    try {
      const opened = await api<{ data: { checkout: { url: string } } }>(
        `/checkout/payment-links/${encodeURIComponent(linkId)}`,
        { method: "POST", body: parsed.data },
      );
      window.location.assign(opened.data.checkout.url);
    } catch (error) {
      setPending(false);
      if (error instanceof ApiClientError) {
        const fields: Record<string, string> = {};
        for (const e of error.errors) {
          const key = FIELD_LABELS[e.field];
          if (key) fields[key] ??= messageFor(key);
        }
        setErrors({ fields, message: Object.keys(fields).length ? null : error.message });
      } else setErrors({ fields: {}, message: "Something went wrong. Try again." });
    }
  }

  return (
    <div className="grid items-start gap-6 md:grid-cols-5">
      <section
        aria-labelledby="summary-heading"
        className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm md:col-span-2"
      >
        <h2 id="summary-heading" className="text-base font-semibold text-slate-900">
          Your order
        </h2>
        <ul aria-label="Items" className="mt-4 divide-y divide-slate-100">
          {lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines never change order
            <li key={i} className="flex justify-between gap-4 py-3 text-sm">
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{line.name}</p>
                <p className="text-slate-600">
                  {line.detail ? `${line.detail} · ` : ""}Qty {line.quantity}
                </p>
              </div>
              <span className="whitespace-nowrap text-right tabular-nums text-slate-900">
                {line.total}
                {line.cycle && <span className="block text-xs text-slate-600">{line.cycle}</span>}
              </span>
            </li>
          ))}
        </ul>
        <p className="mt-2 border-t border-slate-200 pt-3 text-xs text-slate-600">
          Before tax. The checkout shows the total for your country.
        </p>
      </section>
      <form
        ref={form}
        noValidate
        onSubmit={submit}
        aria-label="Your details"
        className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm md:col-span-3"
      >
        <h2 className="text-base font-semibold text-slate-900">Your details</h2>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors?.fields.email}
          hint="Your receipt goes here."
        />
        <CountrySelectField
          label="Country"
          autoComplete="country"
          required
          value={country}
          onChange={(e) => setCountry(e.target.value)}
          error={errors?.fields.country}
        />
        {needsPostalCode && (
          <TextField
            label="Postal code"
            autoComplete="postal-code"
            required
            value={postalCode}
            onChange={(e) => setPostalCode(e.target.value)}
            error={errors?.fields.postal_code}
          />
        )}
        <FormError message={errors?.message ?? null} />
        <Button type="submit" className="w-full" pending={pending} pendingLabel="Opening checkout…">
          Continue to payment
        </Button>
      </form>
    </div>
  );
}

function messageFor(field: string): string {
  if (field === "country") return "Choose your country.";
  if (field === "postal_code") return "Enter your postal code: it is needed to work out the tax.";
  return "Enter a valid email address, such as name@example.com.";
}
