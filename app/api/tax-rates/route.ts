import { paginated, route } from "@/lib/http/route";
import { listTaxRatesQuery, taxRateSchema } from "@/lib/schemas/tax-rate";
import { listTaxRates } from "@/lib/services/tax-rates";

export const GET = route(
  {
    summary: "List the tax rates of every country (all in one page).",
    response: paginated(taxRateSchema),
    permission: "settings.read",
    query: listTaxRatesQuery,
  },
  ({ input }) => listTaxRates(input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
