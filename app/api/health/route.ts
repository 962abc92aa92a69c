// Liveness: answers without touching the database or authentication. The benchmark also uses it
// as the bare route handler that every real endpoint is measured against.
const BODY = JSON.stringify({ data: { status: "ok" } });

export function GET(): Response {
  return new Response(BODY, { headers: { "content-type": "application/json; charset=utf-8" } });
}
