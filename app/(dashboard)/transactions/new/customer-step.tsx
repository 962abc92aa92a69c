"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { FormShell, useForm } from "@/components/entity-form";
import { TextField } from "@/components/form";
import { SearchInput } from "@/components/search-input";
import { LoadingBlock } from "@/components/states";
import { api } from "@/lib/dashboard/api";
import { type Customer, customerKeys, useCreateCustomer } from "@/lib/dashboard/customers";
import { formErrors } from "@/lib/dashboard/form";
import { type EntityResponse, enc, useList } from "@/lib/dashboard/hooks";
import { Allowed } from "@/lib/dashboard/permissions";
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
  const state = useForm(() => ({ email: "", name: "" }), { autoFocus: false });
  const create = useCreateCustomer();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Stops a nested submit from reaching any form around this one.
    event.stopPropagation();
    const { email, name } = state.values;
    return state.run({
      fields: ["email", "name"],
      local: { name: name.trim() === "" ? "Enter the customer's name: invoices need it." : null },
      body: { email: email.trim(), name: name.trim() },
      send: async (body) => onCreated(await create.mutateAsync(body)),
    });
  }

  return (
    <FormShell
      label="New customer"
      submitLabel="Create customer"
      pendingLabel="Creating…"
      state={state}
      onSubmit={submit}
      onCancel={onCancel}
      spacing="space-y-3"
      className="rounded-md border border-slate-200 bg-slate-50 p-4"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Email" type="email" required autoComplete="off" {...state.bind("email")} />
        <TextField
          label="Name"
          required
          autoComplete="off"
          {...state.bind("name")}
          hint="The person or company the invoice is addressed to."
        />
      </div>
    </FormShell>
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
  const results = useList<Customer>(customerKeys.lists, "/customers", { search: term, per_page: 10 }, term !== "");
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
