/**
 * Demo data for a new deployment: `npm run --silent cli -- seed`. Idempotent: a customer whose
 * email already exists is left as it is, so running it twice adds nothing.
 * Goes through the services, so the demo data has its events like any other change.
 */
import { db } from "../db.ts";
import type { CreateAddressInput } from "../schemas/address.ts";
import type { CreateBusinessInput } from "../schemas/business.ts";
import { createAddress } from "./addresses.ts";
import { createBusiness } from "./businesses.ts";
import { createCustomer } from "./customers.ts";

interface DemoCustomer {
  email: string;
  name: string;
  locale?: string;
  custom_data?: Record<string, unknown>;
  addresses: CreateAddressInput[];
  business?: CreateBusinessInput;
}

const DEMO: DemoCustomer[] = [
  {
    email: "sam.miller@example.com",
    name: "Sam Miller",
    custom_data: { crm_id: "CRM-1001" },
    addresses: [
      { country_code: "US", first_line: "3811 Ditmars Blvd", city: "Astoria", region: "NY", postal_code: "11105" },
    ],
  },
  {
    email: "jo.brown@example.co.uk",
    name: "Jo Brown",
    locale: "en-GB",
    addresses: [{ country_code: "GB", first_line: "12 Old Street", city: "London", postal_code: "EC1V 9BE" }],
    business: {
      name: "ChatApp Ltd",
      company_number: "09876543",
      tax_identifier: "GB123456789",
      contacts: [{ name: "Parker Jones", email: "parker@chatapp.example" }],
    },
  },
  {
    email: "lena.schmidt@example.de",
    name: "Lena Schmidt",
    locale: "de",
    addresses: [{ country_code: "DE", first_line: "Torstraße 1", city: "Berlin", postal_code: "10119" }],
    business: { name: "Schmidt Analytics GmbH", tax_identifier: "DE123456789", contacts: [] },
  },
  {
    email: "camille.martin@example.fr",
    name: "Camille Martin",
    locale: "fr",
    addresses: [{ country_code: "FR", first_line: "8 Rue de Rivoli", city: "Paris", postal_code: "75004" }],
  },
  {
    email: "haruto.sato@example.jp",
    name: "Haruto Sato",
    locale: "ja",
    addresses: [{ country_code: "JP", city: "Tokyo", postal_code: "100-0005" }],
  },
  {
    email: "olivia.wilson@example.com.au",
    name: "Olivia Wilson",
    locale: "en-AU",
    addresses: [
      { country_code: "AU", first_line: "1 Martin Place", city: "Sydney", region: "NSW", postal_code: "2000" },
    ],
    business: {
      name: "Wilson & Co Pty Ltd",
      company_number: "ABN 51 824 753 556",
      contacts: [{ name: "Olivia Wilson", email: "olivia.wilson@example.com.au" }],
    },
  },
  {
    email: "diego.alvarez@example.es",
    name: "Diego Álvarez",
    locale: "es",
    addresses: [{ country_code: "ES", first_line: "Calle de Alcalá 50", city: "Madrid", postal_code: "28014" }],
  },
  {
    email: "priya.patel@example.in",
    name: "Priya Patel",
    locale: "en-IN",
    addresses: [{ country_code: "IN", city: "Bengaluru", region: "Karnataka", postal_code: "560001" }],
  },
];

export async function seed(): Promise<string> {
  let created = 0;
  for (const demo of DEMO) {
    const exists = await db().customer.findFirst({
      where: { email: { equals: demo.email, mode: "insensitive" } },
      select: { id: true },
    });
    if (exists) continue;
    const customer = (
      await createCustomer({
        email: demo.email,
        name: demo.name,
        locale: demo.locale,
        custom_data: demo.custom_data,
      })
    ).parse();
    for (const address of demo.addresses) await createAddress(customer.id, address);
    if (demo.business) await createBusiness(customer.id, demo.business);
    created++;
  }
  return created === 0
    ? "The demo data is already there: nothing added."
    : `Added ${created} demo customer(s) with their addresses and businesses.`;
}
