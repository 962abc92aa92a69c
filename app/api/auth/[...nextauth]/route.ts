import { authOptions } from "@/lib/auth/next-auth";
import { nextAuthRoute } from "@/lib/http/next-auth-route";
import { methodNotAllowed } from "@/lib/http/route";

// next-auth behind a wrapper that refuses junk with a 4xx (lib/http/next-auth-route.ts).
const handler = nextAuthRoute(authOptions);

export {
  handler as GET,
  handler as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
};
