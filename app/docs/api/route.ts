/**
 * The interactive API reference (Scalar's API reference over GET /api/openapi.json). A page of its
 * own rather than a React page in the dashboard's layout: the reference is a whole-page app. Its
 * script is served from this origin (./standalone.js): no CDN, and the pages' CSP (next.config.js,
 * `script-src 'self' 'unsafe-inline'`) holds unchanged. No default fonts (they come from Scalar's
 * servers: the system fonts instead), no AI agent or MCP buttons (Scalar's services), and no proxy:
 * "Try it" requests go straight to this origin's /api.
 */
const CONFIGURATION = JSON.stringify({
  withDefaultFonts: false,
  customCss: ":root { --scalar-font: system-ui, sans-serif; --scalar-font-code: ui-monospace, monospace; }",
  hideClientButton: true,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
});

// Configured by data attributes: Scalar 1.72's createApiReference(element, { url }) stays on its
// loading skeleton ("Document  not found in configList"), the data attributes load the document.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Billing</title>
</head>
<body>
<script id="api-reference" data-url="/api/openapi.json" data-configuration='${CONFIGURATION}'></script>
<script src="/docs/api/standalone.js"></script>
</body>
</html>
`;

export function GET(): Response {
  return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
}
