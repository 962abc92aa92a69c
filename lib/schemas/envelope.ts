/**
 * The envelope every JSON answer of the API has (spec: Responses, Errors): `{ data, meta }` on
 * success, `{ error, meta }` on failure. One source for the OpenAPI document (lib/http/openapi.ts)
 * and for the integration suite's strict check of every answer (lib/dev/test/api.ts); the writers
 * are lib/http/response.ts and lib/http/route.ts.
 */
import { z } from "zod";

export const metaSchema = z.object({ request_id: z.string() });

export const paginatedMetaSchema = z.object({
  request_id: z.string(),
  pagination: z.object({
    per_page: z.int().nonnegative(),
    /** The next page's URL under PUBLIC_URL (the same list again once there is no more). */
    next: z.url(),
    has_more: z.boolean(),
    estimated_total: z.int().nonnegative(),
  }),
});

export const errorSchema = z.object({
  error: z.object({
    /** `api_error` for 5xx, `request_error` for every 4xx (429 included), as the API family does. */
    type: z.enum(["request_error", "api_error"]),
    code: z.string(),
    detail: z.string(),
    documentation_url: z.url(),
    /** `invalid_field`: every field found wrong, by its path (`items[0].quantity`). */
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  }),
  meta: metaSchema,
});
export type ErrorBody = z.infer<typeof errorSchema>;
