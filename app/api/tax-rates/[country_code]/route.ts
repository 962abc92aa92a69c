import { route } from "@/lib/http/route";
import { putTaxRateBody, taxRateParams } from "@/lib/schemas/tax-rate";
import { deleteTaxRate, getTaxRate, putTaxRate } from "@/lib/services/tax-rates";

export const GET = route({ permission: "settings.read", params: taxRateParams }, ({ input }) =>
  getTaxRate(input.params.country_code),
);

export const PUT = route({ permission: "settings.write", params: taxRateParams, body: putTaxRateBody }, ({ input }) =>
  putTaxRate(input.params.country_code, input.body.rate),
);

export const DELETE = route({ permission: "settings.write", params: taxRateParams }, ({ input }) =>
  deleteTaxRate(input.params.country_code),
);

export { methodNotAllowed as POST, methodNotAllowed as PATCH } from "@/lib/http/route";
