/**
 * The interactive API reference (Scalar's API reference over GET /api/openapi.json). A page of its
 * own rather than a React page in the dashboard's layout: the reference is a whole-page app. Its
 * script is served from this origin (./standalone.js): no CDN, and the pages' CSP (next.config.js,
 * `script-src 'self' 'unsafe-inline'`) holds unchanged. No default fonts (they come from Scalar's
 * servers) and no proxy: "Try it" requests go straight to this origin's /api.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Billing</title>
</head>
<body>
<div id="api-reference"></div>
<script src="/docs/api/standalone.js"></script>
<script>
Scalar.createApiReference("#api-reference", {
  url: "/api/openapi.json",
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  metaData: { title: "API reference · Billing" },
});
</script>
</body>
</html>
`;

export function GET(): Response {
  return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
}
