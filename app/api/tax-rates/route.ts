import { route } from "@/lib/http/route";
import { listTaxRatesQuery } from "@/lib/schemas/tax-rate";
import { listTaxRates } from "@/lib/services/tax-rates";

export const GET = route({ permission: "settings.read", query: listTaxRatesQuery }, ({ input }) =>
  listTaxRates(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
