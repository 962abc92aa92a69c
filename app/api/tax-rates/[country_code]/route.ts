import { route } from "@/lib/http/route";
import { putTaxRateBody, taxRateParams, taxRateSchema } from "@/lib/schemas/tax-rate";
import { deleteTaxRate, getTaxRate, putTaxRate } from "@/lib/services/tax-rates";

export const GET = route(
  {
    summary: "Get the tax rate of a country.",
    response: taxRateSchema,
    permission: "settings.read",
    params: taxRateParams,
  },
  ({ input }) => getTaxRate(input.params.country_code),
);

export const PUT = route(
  {
    summary: "Override the tax rate of a country.",
    response: taxRateSchema,
    permission: "settings.write",
    params: taxRateParams,
    body: putTaxRateBody,
  },
  ({ input }) => putTaxRate(input.params.country_code, input.body.rate),
);

export const DELETE = route(
  {
    summary: "Remove a country's tax rate override.",
    response: taxRateSchema,
    permission: "settings.write",
    params: taxRateParams,
  },
  ({ input }) => deleteTaxRate(input.params.country_code),
);

export { methodNotAllowed as POST, methodNotAllowed as PATCH } from "@/lib/http/route";
