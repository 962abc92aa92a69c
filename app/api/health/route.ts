import { declared } from "@/lib/http/route";
import { healthSchema } from "@/lib/schemas/health";

// Liveness: answers without touching the database or authentication. The benchmark also uses it
// as the bare route handler that every real endpoint is measured against.
const BODY = JSON.stringify({ data: { status: "ok" } });

export const GET = declared(
  function GET(): Response {
    return new Response(BODY, { headers: { "content-type": "application/json; charset=utf-8" } });
  },
  {
    permission: "public",
    summary: "Liveness: answers without touching the database.",
    response: healthSchema,
    withoutMeta: true,
  },
);
