import { route } from "@/lib/http/route";
import { emailParams } from "@/lib/schemas/email";
import { getEmail } from "@/lib/services/emails/list";

export const GET = route({ permission: "notification.read", params: emailParams }, ({ input }) =>
  getEmail(input.params.email_id),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
