import { route } from "@/lib/http/route";
import { account, updateAccountBody } from "@/lib/schemas/account";
import { getAccount, updateAccount } from "@/lib/services/account";

export const GET = route(
  {
    summary: "The signed-in staff member's own login (ours; dashboard sessions only).",
    response: account,
    permission: null,
  },
  ({ auth }) => getAccount(auth),
);

export const PATCH = route(
  {
    summary:
      "Change one's own name, email or password (ours; dashboard sessions only). A new email or password needs current_password.",
    response: account,
    permission: null,
    body: updateAccountBody,
  },
  ({ auth, input }) => updateAccount(auth, input.body),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
