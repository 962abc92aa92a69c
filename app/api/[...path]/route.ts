// Any path under /api that no endpoint has: 404 in the API's error shape.
export {
  routeNotFound as GET,
  routeNotFound as POST,
  routeNotFound as PUT,
  routeNotFound as PATCH,
  routeNotFound as DELETE,
} from "@/lib/http/route";
