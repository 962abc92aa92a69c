/**
 * NextAuth's route handler (app/api/auth/[...nextauth]) behind one check of ours. NextAuth reads a
 * POST body sent as application/json with `req.json()`, which throws on a body that is not JSON:
 * hostile input would be a 500. Its own client posts forms; a JSON body must at least parse, and
 * is otherwise refused with 400 bad_request in the API's error shape.
 */
import { randomUUID } from "node:crypto";
import { ApiError } from "./errors.ts";
import { errorResponse } from "./route.ts";

export function guardNextAuth<C, R extends Request>(
  handler: (request: R, context: C) => Promise<Response>,
): (request: R, context: C) => Promise<Response> {
  return async (request, context) => {
    if (request.method === "POST" && /application\/json/i.test(request.headers.get("content-type") ?? "")) {
      try {
        JSON.parse(await request.clone().text());
      } catch {
        return errorResponse(new ApiError("bad_request", "Request body is not valid JSON."), request, randomUUID());
      }
    }
    return handler(request, context);
  };
}
