"use client";

import { Button } from "@/components/button";
import { changes, EntityForm, type EntityFormProps, useEntityForm, withoutNulls } from "@/components/entity-form";
import { controlClasses, Field } from "@/components/form";
import { BusinessFields } from "@/components/party-fields";
import type { Business } from "@/lib/dashboard/customers";
import { textOrNull } from "@/lib/dashboard/form";
import type { BusinessContact, CreateBusinessInput, UpdateBusinessInput } from "@/lib/schemas/business";

/** The API allows at most this many contacts (lib/schemas/business.ts MAX_CONTACTS). */
const MAX_CONTACTS = 100;

interface ContactRow {
  key: number;
  name: string;
  email: string;
}

let nextKey = 1;
const contactRow = (contact?: BusinessContact): ContactRow => ({
  key: nextKey++,
  name: contact?.name ?? "",
  email: contact?.email ?? "",
});

/** Adds or edits a business with its contacts (name and email each; blank rows are left out). */
export function BusinessForm(props: EntityFormProps<Business, CreateBusinessInput, UpdateBusinessInput>) {
  const business = props.entity;
  const state = useEntityForm(props, () => ({
    name: business?.name ?? "",
    company_number: business?.company_number ?? "",
    tax_identifier: business?.tax_identifier ?? "",
    contacts: (business?.contacts ?? []).map(contactRow),
  }));
  const { values, error, bind } = state;
  const { contacts } = values;
  const setContacts = (list: ContactRow[]) => state.set("contacts", list);
  const setContact = (key: number, field: "name" | "email", value: string) =>
    setContacts(contacts.map((c) => (c.key === key ? { ...c, [field]: value } : c)));

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    // Blank rows are dropped; `sent[i]` is the row index of the i-th contact sent, so the server's
    // `contacts[i].email` errors land on the right row.
    const sent: number[] = [];
    const sentContacts = contacts.flatMap((c, row) => {
      if (c.name.trim() === "" && c.email.trim() === "") return [];
      sent.push(row);
      return [{ name: textOrNull(c.name), email: c.email.trim() }];
    });
    const full = {
      name: values.name.trim(),
      company_number: textOrNull(values.company_number),
      tax_identifier: textOrNull(values.tax_identifier),
    };
    return state.submit(event, {
      fields: [
        "name",
        "company_number",
        "tax_identifier",
        "contacts",
        ...contacts.flatMap((_, row) => [`contacts[${row}].name`, `contacts[${row}].email`]),
      ],
      rename: (field) => field.replace(/^contacts\[(\d+)\]/, (_, i) => `contacts[${sent[Number(i)] ?? i}]`),
      create: () =>
        withoutNulls({ ...full, contacts: sentContacts.length > 0 ? sentContacts : null }) as CreateBusinessInput,
      update: (current) => changes({ ...full, contacts: sentContacts }, current) as UpdateBusinessInput | null,
    });
  }

  return (
    <EntityForm noun="business" editing={Boolean(business)} state={state} onSubmit={onSubmit} onCancel={props.onCancel}>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <BusinessFields bind={bind} autofill={false} />
      </div>

      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Contacts</legend>
        <p className="text-xs text-slate-500">People at the business who receive invoices. Emails must be unique.</p>
        {error("contacts") && <p className="mt-1 text-sm text-red-700">{error("contacts")}</p>}
        {contacts.length > 0 && (
          <ul className="mt-2 space-y-2">
            {contacts.map((contact, row) => (
              <li key={contact.key} className="grid grid-cols-1 items-start gap-2 sm:grid-cols-[1fr_1fr_auto]">
                <Field label={`Contact ${row + 1} name`} labelHidden error={error(`contacts[${row}].name`)}>
                  {(control) => (
                    <input
                      {...control}
                      placeholder="Name"
                      value={contact.name}
                      onChange={(event) => setContact(contact.key, "name", event.target.value)}
                      className={controlClasses(Boolean(error(`contacts[${row}].name`)))}
                    />
                  )}
                </Field>
                <Field label={`Contact ${row + 1} email`} labelHidden error={error(`contacts[${row}].email`)}>
                  {(control) => (
                    <input
                      {...control}
                      type="email"
                      placeholder="Email"
                      value={contact.email}
                      onChange={(event) => setContact(contact.key, "email", event.target.value)}
                      className={controlClasses(Boolean(error(`contacts[${row}].email`)))}
                    />
                  )}
                </Field>
                <Button
                  variant="danger"
                  onClick={() => setContacts(contacts.filter((c) => c.key !== contact.key))}
                  aria-label={`Remove contact ${row + 1}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <Button
          variant="secondary"
          size="sm"
          className="mt-2"
          disabled={contacts.length >= MAX_CONTACTS}
          onClick={() => setContacts([...contacts, contactRow()])}
        >
          Add contact
        </Button>
      </fieldset>
    </EntityForm>
  );
}
