"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/button";
import { FormActions, FormError, TextField, useFocusOnError } from "@/components/form";
import { SearchInput } from "@/components/search-input";
import { LoadingBlock } from "@/components/states";
import { api } from "@/lib/client/api";
import { type FormErrorState, formErrors } from "@/lib/client/form";
import { type Customer, type EntityResponse, enc, keys, useCreateCustomer, useList } from "@/lib/client/hooks";
import { Allowed } from "@/lib/client/permissions";
import { ChoiceList } from "./step-frame";

/** A customer as the choices show it. */
function CustomerText({ customer }: { customer: Customer }) {
  return (
    <>
      <span className="block font-medium text-slate-900">{customer.name ?? <em>No name</em>}</span>
      <span className="block text-slate-600">{customer.email}</span>
    </>
  );
}

/** A new customer: email and name (manually-collected transactions need the customer's name). */
function NewCustomerForm({ onCreated, onCancel }: { onCreated: (c: Customer) => void; onCancel: () => void }) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<FormErrorState | null>(null);
  const create = useCreateCustomer();
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(form, errors);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    // Stops a nested submit from reaching any form around this one.
    event.stopPropagation();
    if (name.trim() === "") {
      setErrors({ fields: { name: "Enter the customer's name: invoices need it." }, message: null, other: [] });
      return;
    }
    try {
      onCreated(await create.mutateAsync({ email: email.trim(), name: name.trim() }));
    } catch (error) {
      setErrors(formErrors(error, ["email", "name"]));
    }
  }

  return (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      aria-label="New customer"
      className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Email"
          type="email"
          required
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors?.fields.email}
        />
        <TextField
          label="Name"
          required
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors?.fields.name}
          hint="The person or company the invoice is addressed to."
        />
      </div>
      <FormError message={errors?.message ?? null} other={errors?.other} requestId={errors?.requestId} />
      <FormActions>
        <Button type="submit" pending={create.isPending} pendingLabel="Creating…">
          Create customer
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}

/** Gives a chosen customer without a name one, since the invoice needs it. */
function NameMissing({ customer, onNamed }: { customer: Customer; onNamed: (c: Customer) => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function save() {
    setPending(true);
    try {
      const res = await api<EntityResponse<Customer>>(`/customers/${enc(customer.id)}`, {
        method: "PATCH",
        body: { name: name.trim() },
      });
      onNamed(res.data);
    } catch (caught) {
      setError(formErrors(caught, ["name"]).fields.name ?? String(caught));
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="flex flex-wrap items-end gap-2 rounded-md border border-amber-200 bg-amber-50 p-3">
      <TextField
        className="min-w-64 flex-1"
        label="This customer has no name: invoices need one"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error}
      />
      <Allowed permission="customer.write" action="change customers">
        <Button variant="secondary" onClick={save} pending={pending} disabled={name.trim() === ""}>
          Save name
        </Button>
      </Allowed>
    </div>
  );
}

export function CustomerStep({
  customer,
  onChange,
}: {
  customer: Customer | null;
  onChange: (customer: Customer | null) => void;
}) {
  const [term, setTerm] = useState("");
  const [adding, setAdding] = useState(false);
  const results = useList<Customer>(keys.customerLists, "/customers", { search: term, per_page: 10 }, term !== "");
  const found = results.data?.data ?? [];
  const choices = customer && !found.some((c) => c.id === customer.id) ? [customer, ...found] : found;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <SearchInput label="Search customers by email or name" placeholder="Email or name" onSearch={setTerm} />
        {!adding && (
          <Allowed permission="customer.write" action="create customers">
            <Button variant="secondary" onClick={() => setAdding(true)}>
              New customer
            </Button>
          </Allowed>
        )}
      </div>
      {adding && (
        <NewCustomerForm
          onCreated={(created) => {
            setAdding(false);
            onChange(created);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {term !== "" && results.isLoading ? (
        <LoadingBlock label="Searching customers…" lines={2} />
      ) : choices.length > 0 ? (
        <ChoiceList
          legend="Customer"
          name="customer"
          items={choices}
          selectedId={customer?.id ?? null}
          idOf={(c) => c.id}
          render={(c) => <CustomerText customer={c} />}
          onSelect={onChange}
        />
      ) : (
        <p role="status" className="text-sm text-slate-600">
          {term === ""
            ? "Search for the customer to invoice, or create a new one."
            : `No customer's email or name contains "${term}".`}
        </p>
      )}
      {customer && !customer.name && <NameMissing customer={customer} onNamed={onChange} />}
    </div>
  );
}
